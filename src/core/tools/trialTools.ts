/** Trying a policy edit on copies (paid; nothing published), and publishing a tried edit (a change). */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod';
import { estimateText } from '../comparison/costEstimate';
import { parsePolicyFile, type PolicyFile } from '../trial/policyFile';
import { publishTrial } from '../trial/trialEnd';
import { isDraftTrial, parseTrial, serializeTrial, type PolicyTrialRecord, type TrialRecord } from '../trial/trialRecord';
import { describeLeftAlone } from '../trial/trialRemoval';
import { planPolicyTrial, tryPolicyEdit, type TrialTestSet } from '../trial/tryPolicyEdit';
import { comparisonAnswer } from './comparisonAnswer';
import { confinedPath, readConfined } from './confinement';
import { defineTool, ToolRefusal, type ToolContext } from './toolTypes';

const TryInput = z.object({
  test_set: z.string().min(1).max(1000).describe('The test set (*.testset.jsonl or *.csv), relative to the workspace folder.'),
  policy_file: z.string().min(1).max(1000).optional().describe('The edited policy as a *.policy.json file of the workspace.'),
  policy_id: z.string().min(1).max(200).optional().describe('Instead of policy_file: the policy to edit…'),
  content: z.record(z.string(), z.unknown()).optional().describe('…and its whole edited content (read_policy gives the current one).'),
  confirm: z.boolean().optional().describe('true once the user agreed to the estimate a first call answered.'),
});
type TryInput = z.infer<typeof TryInput>;

async function editOf(i: TryInput, ctx: ToolContext): Promise<{ policy: PolicyFile; testSet: TrialTestSet; outDir: string }> {
  let policy: PolicyFile;
  if (i.policy_file) {
    policy = parsePolicyFile((await readConfined(ctx.root, i.policy_file, 'policy_file')).text);
  } else if (i.policy_id && i.content) {
    const real = await ctx.client.policies.get(i.policy_id, { signal: ctx.signal });
    policy = { kind: 'agent-workbench.policy', policyId: real.id, name: real.name, baseVersionId: real.current_version_id, content: i.content };
  } else {
    throw new ToolRefusal('`policy_file`: give the edited policy as policy_file, or policy_id with content.');
  }
  const set = await readConfined(ctx.root, i.test_set, 'test_set');
  const outDir = path.dirname(set.path);
  return { policy, testSet: { name: path.basename(set.path), text: set.text, label: path.basename(set.path) }, outDir };
}

export const tryPolicyEditTool = defineTool({
  name: 'try_policy_edit',
  title: 'Try a policy edit',
  kind: 'paid',
  description:
    'Tries an edited policy before it is live: makes trial copies of the policy and of each agent that applies it, runs the test set on them (and on the current version, unless the cases carry results before), compares, then removes the copies. Nothing is published. Paid: the first call answers the estimate (jobs, tokens, cost) and starts nothing unless confirmed. Progress is reported; cancelling stops the jobs and removes the copies. Returns the cases whose outcome changed, agreement with expected outcomes, failures and cost, and the trial file that publish_policy_edit takes.',
  input: TryInput,
  needsTrust: true,
  async plan(i, ctx) {
    const { policy, testSet } = await editOf(i, ctx);
    const planned = await planPolicyTrial(ctx.client, policy, testSet, ctx.signal);
    const agents = planned.agents.map((a) => a.agent.name).join(', ');
    return { text: `Try the edit of ${policy.name} on ${testSet.name} with trial copies of ${agents} (removed afterwards; production untouched): ${estimateText(planned.estimate)}.`, jobs: planned.jobs, data: { policy_id: policy.policyId, agents: planned.agents.map((a) => a.agent.id), estimate: planned.estimate } };
  },
  async run(i, ctx) {
    const { policy, testSet, outDir } = await editOf(i, ctx);
    const result = await tryPolicyEdit(ctx.client, {
      policy,
      testSet,
      outDir,
      user: ctx.user,
      signal: ctx.signal,
      pollMs: ctx.pollMs,
      onProgress: (done, total, message) => ctx.progress?.(done, total, message),
      onJobsStarted: (agentId, ids) => ctx.jobsStarted?.(agentId, ids, `trial of ${policy.name}`),
    });
    const rel = (f: string | undefined): string | null => (f && ctx.root ? path.relative(ctx.root, f) : (f ?? null));
    const parts = result.agents.map((a) => {
      const answer = comparisonAnswer(a.record);
      return { text: `${answer.text}${a.disagreeing.length ? `\n${a.disagreeing.length} case(s) with an expected outcome now disagree.` : '\nEvery case with an expected outcome agrees.'}`, data: { agent_id: a.agentId, file: rel(a.file), disagreeing: a.disagreeing.length, ...answer.data } };
    });
    const left = result.leftAlone.map((item) => `Left alone (not marked as this trial's copy): ${describeLeftAlone(item)}`);
    const tail = `${left.length ? `${left.join('\n')}\n` : ''}Nothing was published; the trial copies were removed. To publish this edit: publish_policy_edit with trial_file "${rel(result.trialFile)}".`;
    return { text: [...parts.map((p) => p.text), tail].join('\n\n'), data: { trial_file: rel(result.trialFile), failing: result.failing, agents: parts.map((p) => p.data) } };
  },
});

export const publishPolicyEdit = defineTool({
  name: 'publish_policy_edit',
  title: 'Publish a tried policy edit',
  kind: 'change',
  description:
    'Publishes the edit a try_policy_edit call tried as a new version of the real policy (the change production sees), refused when the policy got a newer version since the trial began; then removes whatever of the trial is still on the service (only what the trial itself marked). Changes the organization: the first call answers what would change and a second with confirm: true does it. Returns the new version id.',
  input: z.object({
    trial_file: z.string().min(1).max(1000).regex(/\.trial\.json$/i, 'must be a *.trial.json file').describe('The trial file try_policy_edit answered, relative to the workspace folder.'),
    confirm: z.boolean().optional().describe('true once the user agreed to the change a first call answered.'),
  }),
  needsTrust: true,
  async plan(i, ctx) {
    const trial = policyTrial(parseTrial((await readConfined(ctx.root, i.trial_file, 'trial_file')).text));
    if (trial.state === 'published') return { text: `${trial.policyName} was published already as version ${trial.publishedVersionId}; nothing more changes.`, jobs: 0, data: {} };
    const policy = await ctx.client.policies.get(trial.policyId, { signal: ctx.signal });
    if (policy.current_version_id !== trial.baseVersionId) throw new ToolRefusal(`${trial.policyName} changed since the trial began (its current version is ${policy.current_version_id}); try the edit again on the policy as it is now. Nothing was changed.`);
    return { text: `Publish the tried edit as a new version of ${trial.policyName} (${trial.policyId}): every agent applying it uses the new content from its next job.`, jobs: 0, data: { policy_id: trial.policyId } };
  },
  async run(i, ctx) {
    const file = await confinedPath(ctx.root, i.trial_file, 'trial_file');
    const trial = policyTrial(parseTrial((await readConfined(ctx.root, i.trial_file, 'trial_file')).text));
    const versionId = await publishTrial(ctx.client, trial, () => fs.writeFile(file, serializeTrial(trial)), undefined, ctx.signal);
    return { text: `Published ${trial.policyName} (${trial.policyId}) as version ${versionId}.`, data: { policy_id: trial.policyId, version_id: versionId } };
  },
});

/** The trial of a policy edit a file holds; a draft trial is published in the editor, where its version is looked at. */
function policyTrial(trial: TrialRecord): PolicyTrialRecord {
  if (isDraftTrial(trial)) throw new ToolRefusal(`This file is a trial of a draft version of the agent ${trial.agentName}, not of a policy edit: publish it in VS Code (Publish This Trial on its comparison). Nothing was changed.`);
  return trial;
}
