// Rule coverage of a policy of 200 rules by a comparison of 1,000 cases, in plain Node on the bundle the
// extension loads (dist/core.js): the coverage computed from the record, against reading the comparison
// file (JSON.parse of its text) in the same run. Coverage reads each case's matched rules, itself JSON in
// an output, so it is held to no more than the parse of the file it comes from.
import type { Figure } from '../lib/figures';
import { ms, spread, times } from '../lib/figures';
import type { CoreBundle } from '../lib/services';
import { median, round } from '../lib/stats';

const CATEGORIES = 20;
/** Rules per category, each with one sub-rule: 20 × 5 × 2 = 200 rules. */
const RULES = 5;
const CASES = 1000;
/** Rules each case's outputs say matched. */
const MATCHED = 8;
const RUNS = 15;
const WARM_UP = 3;

/** A policy version's content of 200 rules (rules and their sub-rules) in 20 categories. */
export function benchPolicy(): Record<string, unknown> {
  const categories = Array.from({ length: CATEGORIES }, (_, c) => ({
    title: `Category ${c + 1}`,
    rules: Array.from({ length: RULES }, (_, r) => ({
      title: `Rule ${c + 1}.${r + 1} about a behaviour to look for`,
      flag: r % 2 ? 'RED_FLAG' : 'GREEN_FLAG',
      sub_rules: [{ title: `Sub-rule ${c + 1}.${r + 1}.1 of the same behaviour`, flag: 'GREEN_FLAG' }],
    })),
  }));
  return { guidelines: { categories }, dispositions: { classifications: [{ name: 'Compliant' }, { name: 'Non-Compliant' }] } };
}

/** The outputs of one case as the sandbox's engine writes them: disposition, summary, matched rules, policy, evidence. */
function outputs(i: number, policy: Record<string, unknown>): { key: string; value: string; data_type: string }[] {
  const categories = (policy.guidelines as { categories: { title: string; rules: { title: string; sub_rules: { title: string }[] }[] }[] }).categories;
  // Rules spread over the policy, a few never reached (the last category's sub-rules).
  const matched = Array.from({ length: MATCHED }, (_, k) => {
    const c = categories[(i + k * 3) % (CATEGORIES - 1)]!;
    const rule = c.rules[(i + k) % RULES]!;
    return { category: c.title, rule: k % 2 ? rule.sub_rules[0]!.title : rule.title, flag: 'GREEN_FLAG', input: 'transcript', evidence: `Agent: line ${i} that shows rule ${k}, quoted from the transcript of the call.`, found: ['phrase'] };
  });
  return [
    { key: 'disposition', value: i % 3 ? 'Compliant' : 'Non-Compliant', data_type: 'text/plain' },
    { key: 'summary', value: `## Call review\n\n${'The agent followed the policy in most respects. '.repeat(8)}`, data_type: 'text/markdown' },
    { key: 'matched_rules', value: JSON.stringify(matched), data_type: 'application/json' },
    { key: 'policy', value: JSON.stringify({ id: 'p', name: 'Bench policy', version_id: 'v', version_name: 'v1', reason: 'no red flag' }), data_type: 'application/json' },
    { key: 'evidence_data', value: JSON.stringify({ rule_checks: `agent-job-${i}/rule_checks.json` }), data_type: 'application/json' },
  ];
}

/** The comparison file's text: 1,000 labelled cases on the current version now and a trial, every job read. */
export function benchComparisonText(core: CoreBundle, policy: Record<string, unknown>): string {
  const cases = Array.from({ length: CASES }, (_, i) => ({ line: i + 1, name: `case ${i + 1}`, tags: ['bench'], inputs: { transcript: `Agent: hello, call ${i}.\nCustomer: hi.`, language: 'en' }, expected: { disposition: i % 4 ? 'Compliant' : 'Non-Compliant' } }));
  const record = core.newComparison({ title: 'bench', agentId: 'a', testSet: 'bench.testset.jsonl', cases, targets: [{ id: 'now', label: 'Current version now', kind: 'current' }, { id: 'trial', label: 'Trial', kind: 'current', agentId: 'copy' }], now: new Date('2026-01-01T00:00:00Z') });
  record.cases.forEach((c, i) => {
    for (const target of ['now', 'trial']) c.runs[target] = { jobId: `${target}-${i}`, status: 3, outputs: outputs(i, policy), cost: 0.01, inputTokens: 900, outputTokens: 300, durationMs: 8000 };
  });
  return core.serializeComparison(record);
}

/** One row: coverage computed, against JSON.parse of the comparison's file, medians of the same run. */
export function ruleCoverageBench(core: CoreBundle): Figure[] {
  const policy = benchPolicy();
  const text = benchComparisonText(core, policy);
  const record = core.parseComparison(text);
  const parse: number[] = [];
  const coverage: number[] = [];
  let reached = 0;
  let total = 0;
  for (let i = 0; i < WARM_UP + RUNS; i++) {
    let start = performance.now();
    JSON.parse(text);
    const parsed = performance.now() - start;
    start = performance.now();
    const result = core.ruleCoverage(policy, record);
    const covered = performance.now() - start;
    if (!result.known) throw new Error(`The bench's comparison gave no coverage: ${result.sentence}`);
    ({ reached, total } = result);
    if (i >= WARM_UP) {
      parse.push(parsed);
      coverage.push(covered);
    }
  }
  if (total !== CATEGORIES * RULES * 2) throw new Error(`The bench's policy has ${total} rules, not ${CATEGORIES * RULES * 2}.`);
  const ours = median(coverage);
  const reference = median(parse);
  const ratio = ours / reference;
  return [{
    key: 'ruleCoverage.compute',
    title: `rule coverage: ${total} rules × ${CASES.toLocaleString('en-US')} cases`,
    ours: ms(ours),
    reference: `JSON.parse of the comparison ${ms(reference)}`,
    ratio: round(ratio, 2),
    budget: '≤ 1× reading the comparison',
    within: ratio <= 1,
    method: `A policy of ${total} rules (${CATEGORIES} categories × ${RULES} rules, each with a sub-rule) and a comparison of ${CASES} labelled cases on two targets, each output like the sandbox engine's (${MATCHED} matched rules per case; ${(text.length / 1024 / 1024).toFixed(1)} MB of JSON). Medians of ${RUNS} runs after ${WARM_UP} warm-ups, alternating in one process: ruleCoverage(content, record) on the parsed record against JSON.parse of the file's text (${times(ratio)}). ${reached} of ${total} rules reached.`,
    values: { coverageMs: coverage.map((v) => round(v, 3)), parseMs: parse.map((v) => round(v, 3)), bytes: text.length, reached, total },
    spread: spread(coverage, ms),
  }];
}
