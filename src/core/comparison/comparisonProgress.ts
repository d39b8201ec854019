/** The comparison's progress line: what is left to do, in words, from the record and what the session is doing. */
import { casesToStart, jobIdsWithoutResults, unfinishedJobIds, type ComparisonRecord } from './comparisonRecord';
import type { ProgressView } from './viewProtocol';

/** What the session is doing: working (starting, following), or stopped with a reason (or none). */
export type SessionPhase = { kind: 'working' } | { kind: 'stopped'; reason?: string };

/** How much work a comparison still has. */
export interface WorkLeft {
  toStart: number;
  unfinished: number;
  unread: number;
  pendingBatches: number;
}

/** Counts what is left: cases to start, jobs not final, final jobs not read, batches whose answer was not recorded. */
export function workLeft(record: ComparisonRecord): WorkLeft {
  let toStart = 0;
  for (const indexes of casesToStart(record).values()) toStart += indexes.length;
  return { toStart, unfinished: unfinishedJobIds(record).length, unread: jobIdsWithoutResults(record).length, pendingBatches: record.pending.length };
}

/** The progress line of the page; null when nothing is left to do. */
export function progressView(record: ComparisonRecord, phase: SessionPhase): ProgressView | null {
  const left = workLeft(record);
  const nothingLeft = left.toStart === 0 && left.unfinished === 0 && left.unread === 0 && left.pendingBatches === 0;
  if (nothingLeft) return null;
  const parts: string[] = [];
  if (left.toStart > 0) parts.push(`${plural(left.toStart, 'case')} to start`);
  if (left.pendingBatches > 0) parts.push(`${plural(left.pendingBatches, 'batch', 'batches')} whose answer was lost`);
  if (left.unfinished > 0) parts.push(`${plural(left.unfinished, 'job')} running`);
  if (left.unread > 0) parts.push(`${plural(left.unread, 'result')} to read`);
  const what = parts.join(', ');
  if (phase.kind === 'working') return { text: `Working: ${what}.`, running: true, cancellable: left.unfinished > 0 || left.toStart > 0 };
  return { text: `${phase.reason ? `Stopped: ${phase.reason} ` : 'Stopped. '}Left: ${what}.`, running: false, cancellable: left.unfinished > 0 };
}

function plural(n: number, word: string, words = `${word}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? word : words}`;
}
