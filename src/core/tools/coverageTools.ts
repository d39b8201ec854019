/** Rule coverage: which rules of a policy a test set exercises, read from its newest comparison. */
import * as path from 'node:path';
import * as z from 'zod';
import { isServiceError } from '../client';
import { casesReadText, coverageTotals, labelledText, ruleLine, unmatchedLines } from '../coverage/coverageText';
import { readRuleCoverage, type CoveragePolicy, type RuleCoverageReport } from '../coverage/readRuleCoverage';
import { parsePolicyFile } from '../trial/policyFile';
import { listText } from './answers';
import { confinedPath, readConfined } from './confinement';
import { defineTool, ToolRefusal, type ToolContext } from './toolTypes';

/** Most case names given per rule in the structured answer. */
const MAX_CASE_NAMES = 20;

const CoverageInput = z.strictObject({
  test_set: z.string().min(1).max(1000).describe('The test set (*.testset.jsonl or *.csv), relative to the workspace folder; its newest comparison beside it is read.'),
  policy_id: z.string().min(1).max(200).optional().describe('The policy (read_policy lists them); its current version unless version_id.'),
  version_id: z.string().min(1).max(200).optional().describe('With policy_id: another version to cover.'),
  policy_file: z.string().min(1).max(1000).optional().describe('Instead of policy_id: a *.policy.json of the workspace (an edit under review).'),
  comparison: z.string().min(1).max(1000).optional().describe('A *.comparison.json to read instead of the newest one of the test set.'),
  target: z.string().min(1).max(200).optional().describe("The comparison's target whose outputs count (its id); default the trial's, else the current version now."),
});
type CoverageInput = z.infer<typeof CoverageInput>;

const RuleRefSchema = z.object({ number: z.string(), path: z.string(), json_path: z.array(z.union([z.string(), z.number()])) });
const NameSchema = z.object({ name: z.string(), category: z.string().nullable(), cases: z.number().int(), candidates: z.array(z.string()).optional() });
/** What the tool answers as data: the policy covered, where the outputs were read, and the coverage (or why it is not known). */
const CoverageOutput = z.object({
  policy: z.object({ id: z.string().nullable(), name: z.string(), versionId: z.string().nullable(), versionName: z.string().nullable(), current: z.boolean(), source: z.string().optional() }),
  test_set: z.string(),
  comparison_file: z.string(),
  target: z.object({ id: z.string(), label: z.string() }).nullable(),
  known: z.boolean(),
  sentence: z.string().optional(),
  reached: z.number().int().optional(),
  total: z.number().int().optional(),
  cases: z.number().int().optional(),
  cases_without_rule_information: z.number().int().optional(),
  unreached: z.array(RuleRefSchema).optional(),
  rules: z.array(RuleRefSchema.extend({ cases: z.number().int(), labelled: z.number().int(), expected: z.array(z.object({ outcome: z.string(), cases: z.number().int() })), case_names: z.array(z.string()) })).optional(),
  not_in_policy: z.array(NameSchema).optional(),
  ambiguous: z.array(NameSchema).optional(),
});

export const ruleCoverageTool = defineTool({
  name: 'rule_coverage',
  title: 'Rule coverage of a policy',
  kind: 'read',
  description:
    "Which rules of a policy a test set exercises: from the test set's newest comparison, per rule (category, rule, sub-rule) the cases whose outputs say it matched and how many of them are labelled, the rules no case reaches listed first. Ask it before proposing an edit to a policy: an edit to a rule no case reaches is not checked by try_policy_edit, so add cases for it first. Reads the policy and a local comparison file; starts no job, costs nothing.",
  input: CoverageInput,
  output: CoverageOutput,
  reads: (i) => `the rule coverage of ${i.policy_file ?? `policy ${i.policy_id ?? '?'}`} by ${i.test_set}`,
  async run(i, ctx) {
    const policy = await policyOf(i, ctx);
    const testSet = await confinedPath(ctx.root, i.test_set, 'test_set');
    const comparison = i.comparison ? await confinedPath(ctx.root, i.comparison, 'comparison') : undefined;
    const report = await readRuleCoverage(ctx.client, { policy, testSet, comparison, root: ctx.root!, targetId: i.target, signal: ctx.signal }).catch((error: unknown) => {
      // The core says what is missing in one sentence; only the service's own failures stay errors.
      throw error instanceof Error && !isServiceError(error) ? new ToolRefusal(error.message) : error;
    });
    return coverageAnswer(report, path.relative(ctx.root!, report.comparisonFile), i.test_set);
  },
});

async function policyOf(i: CoverageInput, ctx: ToolContext): Promise<CoveragePolicy> {
  if (i.policy_file && i.policy_id) throw new ToolRefusal('`policy_file`: give policy_file or policy_id, not both.');
  if (i.policy_file) {
    const file = parsePolicyFile((await readConfined(ctx.root, i.policy_file, 'policy_file')).text);
    return { content: file.content, name: file.name, source: i.policy_file, policyId: file.policyId, versionId: file.baseVersionId };
  }
  if (!i.policy_id) throw new ToolRefusal('`policy_id`: give the policy (policy_id) or a policy file (policy_file).');
  return { policyId: i.policy_id, versionId: i.version_id };
}

/** The answer: the totals, the rules not reached first, then the reached ones with their cases, then names this version lacks. */
function coverageAnswer(report: RuleCoverageReport, comparisonFile: string, testSet: string): { text: string; data: z.infer<typeof CoverageOutput> } {
  const { coverage, policy } = report;
  const of = `${policy.name}${policy.id ? ` (${policy.id})` : ''}${policy.source ? ` as in ${policy.source}` : `, version ${policy.versionName ?? policy.versionId ?? '?'}${policy.current ? ' (current)' : ''}`}`;
  const common = { policy, test_set: testSet, comparison_file: comparisonFile, target: coverage.target ?? null };
  if (!coverage.known) return { text: `Rule coverage of ${of} by ${testSet} (read from ${comparisonFile}): ${coverage.sentence}`, data: { ...common, known: false, sentence: coverage.sentence } };
  const reached = coverage.rules.filter((r) => r.cases.length > 0);
  const text = [
    `Rule coverage of ${of} by ${testSet}: ${coverageTotals(coverage)}. Read from ${comparisonFile}: ${casesReadText(coverage)}`,
    coverage.unreached.length ? listText(`Not reached by any case (${coverage.unreached.length}):`, coverage.unreached.map(ruleLine)) : 'Every rule is reached by a case.',
    ...(reached.length ? [listText('Reached (cases · labelled):', reached.map((r) => `${ruleLine(r.rule)} — ${r.cases.length} · ${labelledText(r)}`))] : []),
    ...unmatchedLines(coverage),
  ].join('\n');
  const rule = (r: (typeof coverage.rules)[number]) => ({
    number: r.rule.number, path: r.rule.path, json_path: r.rule.jsonPath, cases: r.cases.length, labelled: r.labelled, expected: r.expected,
    case_names: r.cases.slice(0, MAX_CASE_NAMES).map((c) => c.name),
  });
  const names = (list: typeof coverage.notInPolicy) => list.map((n) => ({ name: n.name, category: n.category ?? null, cases: n.cases.length, ...(n.candidates ? { candidates: n.candidates } : {}) }));
  return {
    text,
    data: {
      ...common, known: true, reached: coverage.reached, total: coverage.total, cases: coverage.cases, cases_without_rule_information: coverage.casesWithoutRuleInformation,
      unreached: coverage.unreached.map((r) => ({ number: r.number, path: r.path, json_path: r.jsonPath })),
      rules: coverage.rules.map(rule), not_in_policy: names(coverage.notInPolicy), ambiguous: names(coverage.ambiguous),
    },
  };
}
