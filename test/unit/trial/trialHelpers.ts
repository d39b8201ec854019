import { ServiceClient } from '../../../src/core/client';
import type { TestCase } from '../../../src/core/comparison/testSet';
import { outputValue } from '../../../src/core/comparison/compare';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_DISPOSITION_AFTER, DEMO_LOOP_INPUTS, DEMO_LOOP_POLICY_ID, DEMO_LOOP_RULE_TITLE } from '../../../src/sandbox/seed/demoLoop';
import type { TestSandbox } from '../sandbox/helpers';

/** A client of the test sandbox, its demo organization, with the write gate on as in the product. */
export function clientOf(t: TestSandbox): ServiceClient {
  return new ServiceClient({ baseUrl: t.baseUrl, token: t.token, organizationId: t.orgId, writeGate: {} });
}

/** A client without the write gate, for a test's own set-up (what another client or person did). */
export function seedClientOf(t: TestSandbox): ServiceClient {
  return new ServiceClient({ baseUrl: t.baseUrl, token: t.token, organizationId: t.orgId });
}

/** The demo policy's current content with the loop's named rule no longer a red flag (the loop's call then turns Compliant). */
interface Rule {
  title?: string;
  flag?: string;
  sub_rules?: Rule[];
}
interface Content {
  guidelines?: { categories?: { rules?: Rule[] }[] };
}

export async function editedDemoPolicy(client: ServiceClient): Promise<{ content: Content; baseVersionId: string; name: string }> {
  const policy = await client.policies.get(DEMO_LOOP_POLICY_ID);
  const version = await client.policies.getVersion(DEMO_LOOP_POLICY_ID, policy.current_version_id!);
  const content = JSON.parse(JSON.stringify(version.content)) as Content;
  let found = 0;
  const visit = (rules: Rule[] | undefined): void => {
    for (const rule of rules ?? []) {
      if (rule.title === DEMO_LOOP_RULE_TITLE) {
        rule.flag = 'GREEN_FLAG';
        found++;
      }
      visit(rule.sub_rules);
    }
  };
  for (const category of content.guidelines?.categories ?? []) visit(category.rules);
  if (found !== 1) throw new Error(`expected the demo rule once, found it ${found} times`);
  return { content, baseVersionId: policy.current_version_id!, name: policy.name };
}

/** The loop's call as a case expected to be Compliant once the edit is live. */
export const LOOP_CASE: TestCase = { line: 2, name: 'promises a refund over limit', tags: [], inputs: { ...DEMO_LOOP_INPUTS }, expected: { disposition: DEMO_LOOP_DISPOSITION_AFTER } };

/** A production run of the real loop agent on the loop's call: its disposition once final. */
export async function runRealLoop(client: ServiceClient): Promise<string | null> {
  // The test stands for the user who picked the real agent to run.
  const ground = client.gate?.userPicked({ kind: 'agent', id: DEMO_LOOP_AGENT_ID }, 'a test');
  const [jobId] = await client.agents.runMany(DEMO_LOOP_AGENT_ID, [{ ...DEMO_LOOP_INPUTS }], { ground });
  for (;;) {
    const [result] = await client.jobs.results([jobId!]);
    if (result && typeof result.status === 'number' && result.status >= 3 && result.result) return outputValue({ jobId: jobId!, outputs: result.result }, 'disposition');
    await new Promise((r) => setTimeout(r, 50));
  }
}
