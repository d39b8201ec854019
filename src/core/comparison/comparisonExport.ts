/** A comparison as CSV (a row per case), JSON (the rows and the summary) and a Markdown summary for a pull request. */
import { caseReview } from './caseLabelling';
import { duration } from '../format';
import { CSV, delimitedText } from '../grid/delimited';
import { accuracyText, caseRows, correctnessLine, failureReason, summarize, transitions, type CaseRow, type TargetSummary } from './compare';
import { runOf, type ComparisonRecord } from './comparisonRecord';
import { caseLabel } from './testSet';
import { coverageTotals } from '../coverage/coverageText';
import type { RuleCoverage } from '../coverage/ruleCoverage';

/** Column names and rows of the case table: case, expected, then per target its state, keys, cost, tokens, duration. */
export function comparisonTable(record: ComparisonRecord, rows: readonly CaseRow[] = caseRows(record)): { names: string[]; rows: (string | null)[][] } {
  const names = ['case', 'tags', 'expected', 'changed', 'mismatch'];
  for (const t of record.targets) {
    names.push(`${t.label}: status`, ...record.keys.map((k) => `${t.label}: ${k}`), `${t.label}: cost`, `${t.label}: tokens`, `${t.label}: duration ms`, `${t.label}: job`);
  }
  const body = rows.map((row) => {
    const c = record.cases[row.index]!;
    const cells: (string | null)[] = [caseLabel(c), c.tags.length > 0 ? c.tags.join(';') : null, c.expected?.disposition ?? null, String(row.changed), String(row.mismatch)];
    record.targets.forEach((t, i) => {
      const run = c.runs[t.id];
      const cell = row.cells[i]!;
      const tokens = run && (run.inputTokens != null || run.outputTokens != null) ? String((run.inputTokens ?? 0) + (run.outputTokens ?? 0)) : null;
      cells.push(cell.state, ...cell.values, numberText(run?.cost), tokens, numberText(run?.durationMs), run?.jobId ?? null);
    });
    return cells;
  });
  return { names, rows: body };
}

function numberText(n: number | null | undefined): string | null {
  return typeof n === 'number' && Number.isFinite(n) ? String(n) : null;
}

/** The case table as CSV text. */
export function comparisonCsv(record: ComparisonRecord): string {
  const table = comparisonTable(record);
  return delimitedText({ names: table.names, rows: table.rows }, CSV);
}

/** The summary and the case rows as JSON (numbers as numbers). */
export function comparisonJson(record: ComparisonRecord): string {
  const rows = caseRows(record);
  const summaries = summarize(record, rows).map((s) => ({ ...s, outcomes: [...s.outcomes].map(([outcome, count]) => ({ outcome, count })) }));
  const cases = rows.map((row) => {
    const c = record.cases[row.index]!;
    return {
      case: caseLabel(c),
      tags: c.tags,
      expected: c.expected ?? null,
      // A reviewer's correction the service records for the case's job, and whether the label says otherwise.
      review: caseReview(c) ?? null,
      changed: row.changed,
      mismatch: row.mismatch,
      // A list in the order of `targets`: two targets may share a label, and keys like `__proto__` are data.
      targets: record.targets.map((t, i) => ({
        target: t.id,
        label: t.label,
        state: row.cells[i]!.state,
        values: record.keys.map((k, j) => ({ key: k, value: row.cells[i]!.values[j] ?? null })),
        job_id: runOf(c, t.id)?.jobId ?? null,
        error: failureReason(t, runOf(c, t.id), c.refused) ?? null,
      })),
    };
  });
  const targets = record.targets.map((t) => ({ id: t.id, label: t.label, kind: t.kind, failed: t.failed ?? null }));
  const json = { title: record.title, agent_id: record.agentId, test_set: record.testSet, keys: record.keys, complete: incompleteNote(record, rows) === undefined, targets, summary: summaries, cases };
  return `${JSON.stringify(json, null, 2)}\n`;
}

/** A gate's verdict as the summary says it: the thresholds given, and a sentence per one not met (none: met). */
export interface MarkdownGate {
  thresholds: string[];
  failed: string[];
}

/** What a summary may say besides the comparison itself. */
export interface MarkdownOptions {
  /** Changed cases listed before "…and N more" (default 20). */
  maxChangedCases?: number;
  /** A trial's coverage of the policy it tried (coverage/ruleCoverage.ts): said in one line under the test set's. */
  ruleCoverage?: RuleCoverage;
  /** The verdict of the gate the run was given (CI's thresholds); none: no gate. */
  gate?: MarkdownGate;
  /** The test set's cases left out before anything ran, a line each. */
  leftOut?: readonly string[];
}

/** A Markdown summary to paste into a pull request: the gate's verdict, the figures per target, the cases that changed with their expected outcome, and the run's cost. */
export function comparisonMarkdown(record: ComparisonRecord, options: MarkdownOptions = {}): string {
  const maxChangedCases = options.maxChangedCases ?? 20;
  const rows = caseRows(record);
  const summaries = summarize(record, rows);
  const lines = [`### ${mdText(record.title)}`, '', ...correctnessMarkdown(record, rows, summaries), ...gateMarkdown(options.gate), `Test set \`${mdCode(record.testSet)}\`, ${record.cases.length} case${record.cases.length === 1 ? '' : 's'}, compared on \`${mdCode(record.keys.join(', '))}\`.`, ''];
  if (options.ruleCoverage) lines.push(coverageMarkdown(options.ruleCoverage, record.testSet), '');
  const incomplete = incompleteNote(record, rows);
  if (incomplete) lines.push(`> **Incomplete:** ${incomplete}`, '');
  if (options.leftOut?.length) lines.push(`> **Left out:** ${options.leftOut.length} line${options.leftOut.length === 1 ? '' : 's'} of the test set did not run:`, ...options.leftOut.map((l) => `> - ${mdText(l)}`), '');
  lines.push('| target | accuracy | changed | failures | cost | tokens | p50 | p95 |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const s of summaries) lines.push(summaryLine(s));
  lines.push('', runCostLine(record));
  const changed = rows.filter((r) => r.changed);
  lines.push('', changed.length === 0 ? 'No case changed its outcome.' : `**${changed.length} case${changed.length === 1 ? '' : 's'} changed:**`);
  if (changed.length > 0) {
    lines.push('', `| case | expected | ${record.targets.map((t) => mdText(t.label)).join(' | ')} |`, `| --- | --- |${record.targets.map(() => ' --- |').join('')}`);
    for (const row of changed.slice(0, maxChangedCases)) {
      const c = record.cases[row.index]!;
      lines.push(`| ${mdText(caseLabel(c))} | ${mdText(c.expected?.disposition ?? '–')} | ${row.cells.map((cell) => mdText(cell.values[0] ?? cell.state)).join(' | ')} |`);
    }
    if (changed.length > maxChangedCases) lines.push('', `…and ${changed.length - maxChangedCases} more.`);
  }
  return `${lines.join('\n')}\n`;
}

// "Rule coverage: 17 of 23 rules reached by `loop.testset.jsonl`.", or why it is not known.
function coverageMarkdown(coverage: RuleCoverage, testSet: string): string {
  return coverage.known ? `Rule coverage: ${coverageTotals(coverage)} by \`${mdCode(testSet)}\`.` : `Rule coverage: not known. ${mdText(coverage.sentence)}`;
}

/** The gate's verdict, first thing after the correctness: met, or not with the thresholds missed. */
function gateMarkdown(gate: MarkdownGate | undefined): string[] {
  if (!gate) return [];
  const given = `(${gate.thresholds.join(', ')})`;
  return [gate.failed.length === 0 ? `**Gate met** ${given}.` : `**Gate not met** ${given}: ${gate.failed.join('; ')}.`, ''];
}

/** What the jobs this run started cost, as the service reported it (the results before were only read). */
function runCostLine(record: ComparisonRecord): string {
  const ran = record.targets.filter((t) => t.kind !== 'baseline');
  const runs = record.cases.flatMap((c) => ran.map((t) => c.runs[t.id]).filter((run) => run !== undefined));
  const costs = runs.map((run) => run.cost).filter((cost): cost is number => typeof cost === 'number' && Number.isFinite(cost));
  const jobs = `${runs.length} job${runs.length === 1 ? '' : 's'}`;
  if (costs.length === 0) return `Cost of this run: not reported by the service (${jobs}).`;
  const total = costs.reduce((sum, cost) => sum + cost, 0);
  return `Cost of this run: ${total.toFixed(4)} credits over ${jobs}${costs.length < runs.length ? ` (${runs.length - costs.length} without a reported cost)` : ''}.`;
}

function summaryLine(s: TargetSummary): string {
  const accuracy = accuracyText(s);
  const changed = s.changedVsBaseline === undefined ? 'baseline' : String(s.changedVsBaseline);
  const ms = (v: number | undefined): string => (v === undefined ? '–' : duration(v));
  const cached = s.cached > 0 && s.cached === s.done;
  const cost = cached ? 'cached' : `${s.totalCost.toFixed(4)}${s.cached ? ` (${s.cached} cached)` : ''}`;
  return `| ${mdText(s.label)} | ${accuracy} | ${changed} | ${s.failures} | ${cost} | ${cached ? 'cached' : s.totalTokens} | ${cached ? 'cached' : ms(s.p50DurationMs)} | ${cached ? 'cached' : ms(s.p95DurationMs)} |`;
}

/**
 * What the comparison does to correctness, first: per target against the baseline, the accuracy line
 * and a table of right/wrong on the baseline × right/wrong on the target, with counts.
 */
function correctnessMarkdown(record: ComparisonRecord, rows: readonly CaseRow[], summaries: readonly TargetSummary[]): string[] {
  const base = record.targets.findIndex((t) => t.id === record.baselineId);
  if (base < 0) return [];
  if (summaries.every((s) => s.expected === 0)) return ['No finished case is labelled, so nothing says which outcome is right: add `expected` to the test set\'s cases.', ''];
  const lines: string[] = [];
  record.targets.forEach((target, i) => {
    if (i === base) return;
    const t = transitions(record, base, i, rows);
    const baseLabel = mdText(record.targets[base]!.label);
    lines.push(`**${mdText(target.label)}** against ${baseLabel}: ${correctnessLine(summaries[base]!, summaries[i]!, t)}; ${t.stayedWrong.length} stayed wrong, ${t.stayedRight.length} stayed right.`, '');
    lines.push(`| ${baseLabel} ↓ · ${mdText(target.label)} → | right | wrong |`, '| --- | ---: | ---: |');
    lines.push(`| right | ${t.stayedRight.length} | ${t.becameWrong.length} |`, `| wrong | ${t.becameRight.length} | ${t.stayedWrong.length} |`, '');
  });
  return lines;
}

/** Why the figures are not final (cases not finished, targets failed), in words; undefined when complete. */
export function incompleteNote(record: ComparisonRecord, rows: readonly CaseRow[] = caseRows(record)): string | undefined {
  const parts: string[] = [];
  record.targets.forEach((t, i) => {
    const open = rows.filter((r) => r.cells[i]!.state === 'running' || r.cells[i]!.state === 'none').length;
    if (t.failed !== undefined) parts.push(`${mdText(t.label)} failed (${mdText(t.failed)})`);
    else if (open > 0) parts.push(`${mdText(t.label)} has ${open} case${open === 1 ? '' : 's'} not finished`);
  });
  return parts.length ? `${parts.join('; ')}.` : undefined;
}

// Every line break a renderer honours: quoted text stays on its line, so it can never start a heading or a tag.
const LINE_BREAKS = /[\r\n\u2028\u2029\u0085]+/g;

// Service and file text in a table cell must not break the table or turn into markup.
function mdText(text: string): string {
  return text.replace(LINE_BREAKS, ' ').replace(/[\\`*_{}[\]()#+!|<>~&]/g, (ch) => `\\${ch}`);
}

// Inside a code span only a backtick or a line break escapes; a pipe would still split a table row.
function mdCode(text: string): string {
  return text.replace(LINE_BREAKS, ' ').replaceAll('`', "'").replaceAll('|', '\\|');
}
