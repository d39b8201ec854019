/** What the comparison page shows, from a comparison record: text and numbers, computed in the extension. */
import { JobStatus } from '../jobStatus';
import { caseReview } from './caseLabelling';
import { accuracyText, caseRows, summarize, type CaseRow, type TargetSummary } from './compare';
import type { ComparisonRecord } from './comparisonRecord';
import { ruleChanges, ruleChangesText } from './ruleChanges';
import { caseLabel } from './testSet';
import type { CellView, RowView, SummaryView, TargetView } from './viewProtocol';

/** The rows, targets and header figures of a comparison, as the page receives them. */
export function comparisonView(record: ComparisonRecord): { targets: TargetView[]; summaries: SummaryView[]; rows: RowView[] } {
  const rows = caseRows(record);
  return {
    targets: record.targets.map((t) => ({ label: t.label, kind: t.kind })),
    summaries: summarize(record, rows).map((s, i) => summaryView(s, record, i)),
    rows: rows.map((row) => rowView(record, row)),
  };
}

function rowView(record: ComparisonRecord, row: CaseRow): RowView {
  const c = record.cases[row.index]!;
  const review = caseReview(c);
  return {
    case: caseLabel(c),
    tags: c.tags.join(', '),
    expected: c.expected?.disposition ?? (c.expected?.outputs ? JSON.stringify(c.expected.outputs) : null),
    reviewed: review?.verdict ?? null,
    reviewDisagrees: review?.disagrees ?? false,
    changed: row.changed,
    failed: row.failed,
    mismatch: row.mismatch,
    why: c.refused ?? (row.changed ? whyChanged(record, row) : null),
    cells: record.targets.map((t, i): CellView => {
      const run = c.runs[t.id];
      const cell = row.cells[i]!;
      const tokens = run && (run.inputTokens != null || run.outputTokens != null) ? (run.inputTokens ?? 0) + (run.outputTokens ?? 0) : null;
      return {
        state: cell.state,
        values: cell.values,
        changed: cell.changed,
        mismatch: cell.mismatch ?? null,
        cost: finiteOrNull(run?.cost),
        tokens,
        durationMs: finiteOrNull(run?.durationMs),
        cached: run?.status === JobStatus.CACHED,
      };
    }),
  };
}

/** The rules whose result differs between the baseline and the first target whose outcome changed. */
function whyChanged(record: ComparisonRecord, row: CaseRow): string | null {
  const c = record.cases[row.index]!;
  const baseIndex = record.targets.findIndex((t) => t.id === record.baselineId);
  const base = record.targets[baseIndex];
  const changedIndex = row.cells.findIndex((cell, i) => i !== baseIndex && cell.changed);
  const other = record.targets[changedIndex];
  if (!base || !other) return null;
  return ruleChangesText(ruleChanges(c.runs[base.id]?.outputs, c.runs[other.id]?.outputs), base.label, other.label);
}

function summaryView(s: TargetSummary, record: ComparisonRecord, index: number): SummaryView {
  const target = record.targets[index]!;
  return {
    label: s.label,
    done: s.done,
    running: s.running,
    failures: s.failures,
    accuracy: accuracyText(s),
    changed: s.changedVsBaseline ?? null,
    cost: s.totalCost,
    tokens: s.totalTokens,
    cached: s.cached,
    p50Ms: s.p50DurationMs ?? null,
    p95Ms: s.p95DurationMs ?? null,
    outcomes: [...s.outcomes.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
    failed: target.failed ?? null,
    // Dropping is for a target that runs nothing more: a healthy one keeps its results in the comparison.
    droppable: target.failed !== undefined && target.id !== record.baselineId && record.targets.length > 2,
  };
}

function finiteOrNull(n: number | null | undefined): number | null {
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

