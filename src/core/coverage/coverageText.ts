/** Rule coverage in words: the one line of a summary, the command line's table, and a tool's answer (unreached rules first). */
import { PATH_SEPARATOR, type PolicyRuleRef } from './policyRuleList';
import type { KnownCoverage, RuleCoverage, RuleCoverageRow, UnmatchedRuleName } from './ruleCoverage';

/** "1 rule", "23 rules". */
function count(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

/** "17 of 23 rules reached". */
export function coverageTotals(coverage: Pick<KnownCoverage, 'reached' | 'total'>): string {
  return `${coverage.reached} of ${count(coverage.total, 'rule')} reached`;
}

/** "Rule coverage: 17 of 23 rules reached by loop.testset.jsonl." — or the one sentence that says why it is not known. */
export function ruleCoverageLine(coverage: RuleCoverage, testSet: string): string {
  return coverage.known ? `Rule coverage: ${coverageTotals(coverage)} by ${testSet}.` : `Rule coverage: not known. ${coverage.sentence}`;
}

/** "12 cases; the outputs of 2 say nothing about rules." — what the figures were read from. */
export function casesReadText(coverage: KnownCoverage): string {
  const without = coverage.casesWithoutRuleInformation;
  return `${count(coverage.cases, 'case')} read on “${coverage.target.label}”${without ? `; the outputs of ${without} say nothing about rules (not run, failed, or other outputs)` : ''}.`;
}

/** The labelled cases of a row: "3 (2 Compliant, 1 Non-Compliant)", or "—". */
export function labelledText(row: Pick<RuleCoverageRow, 'labelled' | 'expected'>): string {
  if (row.labelled === 0) return '—';
  const outcomes = row.expected.map((e) => `${e.cases} ${e.outcome}`).join(', ');
  return outcomes ? `${row.labelled} (${outcomes})` : String(row.labelled);
}

/** The command line's table: a row per rule (path · title · cases · labelled), sub-rules indented. */
export function coverageTableLines(coverage: KnownCoverage): string[] {
  const rows = coverage.rules.map((row) => ({
    path: row.rule.number,
    title: `${'  '.repeat(row.rule.depth)}${row.rule.depth === 0 ? `${row.rule.category}${PATH_SEPARATOR}` : ''}${row.rule.title}`,
    cases: row.cases.length === 0 ? 'not reached' : String(row.cases.length),
    labelled: labelledText(row),
  }));
  const head = { path: 'path', title: 'rule', cases: 'cases', labelled: 'labelled' };
  const width = (key: keyof typeof head): number => Math.max(...[head, ...rows].map((r) => r[key].length));
  const [p, t, c] = [width('path'), width('title'), width('cases')];
  return [head, ...rows].map((r) => `${r.path.padEnd(p)}  ${r.title.padEnd(t)}  ${r.cases.padStart(c)}  ${r.labelled}`.trimEnd());
}

/** What the outputs name that this version does not have, and names several rules share: a line each. */
export function unmatchedLines(coverage: KnownCoverage): string[] {
  const name = (n: UnmatchedRuleName): string => `“${n.category ? `${n.category}${PATH_SEPARATOR}` : ''}${n.name}”`;
  const cases = (n: UnmatchedRuleName): string => count(n.cases.length, 'case');
  return [
    ...coverage.notInPolicy.map((n) => `Not found in this version: ${name(n)}, matched by ${cases(n)} (renamed or removed since the jobs ran; a renamed rule shows as not reached under its new title).`),
    ...coverage.ambiguous.map((n) => `Counted for no rule: ${name(n)}, matched by ${cases(n)}, names ${n.candidates?.length ?? 'several'} rules of this version (${(n.candidates ?? []).join('; ')}) and the outputs give no category to tell them apart.`),
  ];
}

/** A rule as one line: "1.2.1 Identity verification › … › title". */
export function ruleLine(rule: PolicyRuleRef): string {
  return `${rule.number} ${rule.path}`;
}

/** A rule's line in the editor: "4 cases · 3 labelled", "1 case · not labelled", or "no case reaches this rule". */
export function ruleLensText(row: Pick<RuleCoverageRow, 'cases' | 'labelled'>): string {
  const n = row.cases.length;
  if (n === 0) return 'no case reaches this rule';
  const labelled = row.labelled === 0 ? (n === 1 ? 'not labelled' : 'none labelled') : row.labelled === n && n > 1 ? 'all labelled' : `${row.labelled} labelled`;
  return `${count(n, 'case')} · ${labelled}`;
}
