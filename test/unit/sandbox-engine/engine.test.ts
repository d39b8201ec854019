import * as assert from 'node:assert/strict';
import { chooseDisposition } from '../../../src/sandbox/engine/disposition';
import { policyFingerprint, runEngine, type EnginePolicy, type EngineRequest } from '../../../src/sandbox/engine/engineRun';
import { readPolicy } from '../../../src/sandbox/engine/policyRules';
import { matchRules, quotedPhrases, titleStems } from '../../../src/sandbox/engine/ruleMatching';
import { DEMO_POLICIES } from '../../../src/sandbox/seed/demoPolicies';
import {
  DEMO_LOOP_DISPOSITION_AFTER,
  DEMO_LOOP_DISPOSITION_BEFORE,
  DEMO_LOOP_INPUTS,
  DEMO_LOOP_RULE_PHRASE,
  DEMO_LOOP_RULE_TITLE,
} from '../../../src/sandbox/seed/demoLoop';

const CONTENT = {
  guidelines: {
    categories: [
      {
        title: 'Verification',
        rules: [
          { title: 'Verifies the caller', description: 'Listen for “confirm your postcode”.', flag: 'GREEN_FLAG', sub_rules: [{ title: 'Reads out the card number', description: 'Listen for "card on file is".', flag: 'RED_FLAG' }] },
          { title: 'Mentions call recording', flag: 'GREEN_FLAG' },
        ],
      },
      { title: 'Routing', rules: [{ title: 'Asks for a supervisor', description: 'Escalate it.' }] },
    ],
  },
  dispositions: { classifications: [{ name: 'Compliant' }, { name: 'Needs Review' }, { name: 'Non-Compliant' }, { name: 'Escalate' }] },
  summary_template: { template: '{{disposition}}|{{#each violations}}{{this.rule}}: {{this.evidence}};{{/each}}|{{policy_name}} {{policy_version}}' },
};

const policy = (content: unknown = CONTENT): EnginePolicy => ({ id: 'p1', name: 'Calls', versionId: 'pv1', versionName: 'v2', content });
const request = (text: string, p: EnginePolicy | null = policy()): EngineRequest => ({
  inputs: [{ key: 'transcript', text }],
  policy: p ?? undefined,
  verdicts: ['Done', 'Needs Review'],
  inputsHash: '0123456789abcdef',
  about: { agent: { id: 'a1', name: 'QA' }, job: { id: 'j1', created_at: '2025-01-01T00:00:00.000Z', agent_version_name: 'v1', metadata: {} } },
});
const output = (outcome: ReturnType<typeof runEngine>, key: string) => outcome.outputs.find((o) => o.key === key)?.value;

describe('sandbox engine: matching rules to inputs', () => {
  it('takes quoted phrases from titles and descriptions, in either kind of double quotes', () => {
    assert.deepEqual(quotedPhrases({ title: 'Says “Good  Morning”', description: 'or "hello there" or ‘not this’' }), ['good morning', 'hello there']);
  });

  it('reads the significant words of a title as five-letter stems, without common words', () => {
    assert.deepEqual(titleStems('Mentions call recording at the start, with care'), ['menti', 'call', 'recor', 'start', 'care']);
  });

  it('matches a rule with quotes only on its phrases, and names the line that matched', () => {
    const rules = readPolicy(CONTENT).rules;
    const matches = matchRules(rules, [{ key: 'transcript', text: 'Agent: hi\nAgent: Can you CONFIRM your  postcode?' }]);
    assert.deepEqual(matches.map((m) => [m.rule.title, m.input, m.evidence]), [['Verifies the caller', 'transcript', 'Agent: Can you CONFIRM your  postcode?']]);
  });

  it('matches a rule without quotes when one line holds two thirds of its title words', () => {
    const rules = readPolicy(CONTENT).rules;
    const mentioned = matchRules(rules, [{ key: 't', text: 'Hello.\nThis call is being recorded.' }]);
    assert.deepEqual(mentioned.map((m) => [m.rule.title, m.evidence, m.found]), [['Mentions call recording', 'This call is being recorded.', ['call', 'recor']]]);
    assert.deepEqual(matchRules(rules, [{ key: 't', text: 'This call is short.\nWe mention things on record.' }]).map((m) => m.found), [['menti', 'recor']]);
    assert.deepEqual(matchRules(rules, [{ key: 't', text: 'This call is short.\nWe mention things.' }]), []);
  });

  it('reads sub-rules as rules of their own, right after their parent', () => {
    assert.deepEqual(readPolicy(CONTENT).rules.map((r) => r.title), ['Verifies the caller', 'Reads out the card number', 'Mentions call recording', 'Asks for a supervisor']);
  });

  it('never throws on content it cannot read', () => {
    for (const content of [null, 'text', [], { guidelines: { categories: 'x' } }, { guidelines: { categories: [{ rules: [null, 1, { flag: 'RED' }] }] } }]) {
      assert.doesNotThrow(() => runEngine(request('anything', policy(content))));
    }
  });
});

describe('sandbox engine: choosing the disposition', () => {
  const rules = readPolicy(CONTENT).rules;
  const names = ['Compliant', 'Needs Review', 'Non-Compliant', 'Escalate'];
  const decide = (text: string) => chooseDisposition(rules, matchRules(rules, [{ key: 't', text }]), names).name;

  it('answers the last classification when a red flag matched', () => {
    assert.equal(decide('the card on file is 4929\nconfirm your postcode'), 'Escalate');
  });

  it('answers the classification a matched rule names', () => {
    assert.equal(decide('I want a supervisor, please. Asks nothing.\nCan I ask for a supervisor'), 'Escalate');
    const named = readPolicy({ guidelines: { categories: [{ title: 'c', rules: [{ title: 'Has a PO number', description: 'Then it is a Purchase Order, not an Invoice.' }] }] } }).rules;
    assert.equal(chooseDisposition(named, matchRules(named, [{ key: 't', text: 'PO number 42 is here' }]), ['Invoice', 'Purchase Order', 'Other']).name, 'Purchase Order');
  });

  it('answers the middle classification when fewer than half of the green flags matched, else the first', () => {
    assert.equal(decide('nothing relevant'), 'Needs Review');
    assert.equal(decide('please confirm your postcode'), 'Compliant');
  });
});

describe('sandbox engine: outcomes', () => {
  it('gives the same outputs for the same inputs and policy content', () => {
    const text = 'Agent: this call is recorded, recording mentions\nAgent: the card on file is 4929';
    assert.deepEqual(runEngine(request(text)), runEngine(request(text)));
    assert.equal(policyFingerprint(policy()), policyFingerprint(policy(structuredClone(CONTENT))));
  });

  it('outputs the disposition, the summary from the template, the matched rules, the policy version and the key of its rule checks', () => {
    const outcome = runEngine(request('Agent: the card on file is 4929\nconfirm your postcode'));
    assert.equal(outcome.disposition, 'Escalate');
    assert.deepEqual(outcome.outputs.map((o) => [o.key, o.data_type]), [
      ['disposition', 'text/plain'], ['summary', 'text/markdown'], ['matched_rules', 'application/json'], ['policy', 'application/json'], ['evidence_data', 'application/json'],
    ]);
    const { rule_checks: key } = JSON.parse(output(outcome, 'evidence_data')!) as { rule_checks: string };
    const checks = (outcome.artifacts?.[key] as { rules: { rule: string; matched: boolean; evidence: string | null }[] }).rules;
    assert.ok(checks.length >= 2, 'every rule of the policy, matched or not');
    assert.deepEqual(checks.filter((c) => c.matched).map((c) => c.rule), ['Verifies the caller', 'Reads out the card number']);
    assert.ok(checks.filter((c) => !c.matched).every((c) => c.evidence === null));
    assert.equal(output(outcome, 'summary'), 'Escalate|Reads out the card number: Agent: the card on file is 4929;|Calls v2');
    const matched = JSON.parse(output(outcome, 'matched_rules')!) as { rule: string; flag: string | null }[];
    assert.deepEqual(matched.map((m) => [m.rule, m.flag]), [['Verifies the caller', 'GREEN_FLAG'], ['Reads out the card number', 'RED_FLAG']]);
    assert.equal((JSON.parse(output(outcome, 'policy')!) as { version_id: string }).version_id, 'pv1');
  });

  it('changes the outcome and the cache key when the policy changes', () => {
    const text = 'Agent: the card on file is 4929';
    const relaxed = structuredClone(CONTENT) as { guidelines: { categories: { rules: { sub_rules?: { flag: string }[] }[] }[] } };
    relaxed.guidelines.categories[0]!.rules[0]!.sub_rules![0]!.flag = 'GREEN_FLAG';
    assert.equal(runEngine(request(text)).disposition, 'Escalate');
    assert.equal(runEngine(request(text, policy(relaxed))).disposition, 'Needs Review');
    assert.notEqual(policyFingerprint(policy()), policyFingerprint(policy(relaxed)));
  });

  it('counts tokens and cost from the size of inputs and policy', () => {
    const small = runEngine(request('short'));
    const large = runEngine(request('long '.repeat(2000)));
    assert.ok(large.inputTokens > small.inputTokens + 2000);
    assert.ok(large.cost > small.cost);
    assert.ok(large.outputs.every((o) => o.cost === large.cost));
  });

  it('says when the summary template cannot be rendered, and still decides', () => {
    const broken = { ...CONTENT, summary_template: { template: '{{#each violations}}' } };
    const outcome = runEngine(request('text', policy(broken)));
    assert.match(output(outcome, 'summary')!, /could not be rendered/);
    assert.equal(outcome.disposition, 'Needs Review');
  });

  it('keeps a deterministic verdict of the engine for a version without a policy', () => {
    const first = runEngine(request('anything', null));
    assert.deepEqual(first, runEngine(request('anything', null)));
    const verdicts = ['0000000000000000', '0000000000000001', '00000000000000ff'].map((inputsHash) => runEngine({ ...request('anything', null), inputsHash }).disposition);
    assert.deepEqual(verdicts, ['Done', 'Needs Review', 'Needs Review']);
    assert.deepEqual(first.outputs.map((o) => o.key), ['disposition', 'summary']);
  });
});

describe('sandbox engine: the demo loop', () => {
  const callQuality = DEMO_POLICIES.find((p) => p.key === 'call-quality')!;
  const latest = callQuality.versions.at(-1)!.content;
  const judge = (content: unknown) => runEngine({ ...request(''), inputs: Object.entries(DEMO_LOOP_INPUTS).map(([key, text]) => ({ key, text })), policy: policy(content) });
  const withRule = (change: (rule: Record<string, unknown>, rules: Record<string, unknown>[]) => void): unknown => {
    const copy = structuredClone(latest) as { guidelines: { categories: { rules: Record<string, unknown>[] }[] } };
    for (const category of copy.guidelines.categories) {
      const rule = category.rules.find((r) => r.title === DEMO_LOOP_RULE_TITLE);
      if (rule) change(rule, category.rules);
    }
    return copy;
  };

  it(`answers ${DEMO_LOOP_DISPOSITION_BEFORE} for the prepared transcript with the seeded policy`, () => {
    const outcome = judge(latest);
    assert.equal(outcome.disposition, DEMO_LOOP_DISPOSITION_BEFORE);
    assert.ok(output(outcome, 'summary')!.includes(DEMO_LOOP_RULE_TITLE));
    assert.ok(output(outcome, 'matched_rules')!.includes(DEMO_LOOP_RULE_PHRASE));
  });

  it(`answers ${DEMO_LOOP_DISPOSITION_AFTER} once the named rule is a green flag, is removed, or loses its phrase`, () => {
    assert.equal(judge(withRule((rule) => (rule.flag = 'GREEN_FLAG'))).disposition, DEMO_LOOP_DISPOSITION_AFTER);
    assert.equal(judge(withRule((rule, rules) => rules.splice(rules.indexOf(rule), 1))).disposition, DEMO_LOOP_DISPOSITION_AFTER);
    assert.equal(judge(withRule((rule) => (rule.description = 'Listen for “free upgrade”.'))).disposition, DEMO_LOOP_DISPOSITION_AFTER);
  });
});
