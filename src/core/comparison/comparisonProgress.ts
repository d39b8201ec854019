/** The comparison's progress line: what is left to do, in words, from the record and what the session is doing. */
import { casesToStart, hasStarted, jobIdsWithoutResults, unfinishedJobIds, type ComparisonRecord } from './comparisonRecord';
import type { ProgressView } from './viewProtocol';

/**
 * What the session is doing: working (starting and following; `inFlight` batches sent and not answered
 * yet; `followOnly` when it follows the jobs it has and starts nothing), following another window that
 * runs the comparison (read-only), or stopped with its reason.
 */
export type SessionPhase =
  | { kind: 'working'; inFlight?: number; followOnly?: boolean }
  | { kind: 'elsewhere'; by: string }
  | { kind: 'stopped'; reason?: string };

/** How much work a comparison still has. */
export interface WorkLeft {
  toStart: number;
  unfinished: number;
  unread: number;
  /** Batches marked sent whose answer is lost (not the ones in flight now). */
  pendingBatches: number;
  inFlight: number;
}

/** Counts what is left: cases to start, jobs not final, final jobs not read, batches in flight and batches whose answer was lost. */
export function workLeft(record: ComparisonRecord, inFlight = 0): WorkLeft {
  let toStart = 0;
  for (const indexes of casesToStart(record).values()) toStart += indexes.length;
  const sending = Math.min(inFlight, record.pending.length);
  return { toStart, unfinished: unfinishedJobIds(record).length, unread: jobIdsWithoutResults(record).length, pendingBatches: record.pending.length - sending, inFlight: sending };
}

/** The progress line of the page; null when nothing is left to do. */
export function progressView(record: ComparisonRecord, phase: SessionPhase): ProgressView | null {
  const left = workLeft(record, phase.kind === 'working' ? (phase.inFlight ?? 0) : 0);
  const nothingLeft = left.toStart === 0 && left.unfinished === 0 && left.unread === 0 && left.pendingBatches === 0 && left.inFlight === 0;
  if (nothingLeft) return null;
  const what = leftText(left);
  if (phase.kind === 'elsewhere') return { text: `${phase.by} Its progress shows here as it writes the file (read-only). Left: ${what}.`, running: true, cancellable: false, action: null };
  if (!hasStarted(record)) {
    // Nothing ran: the results before may still be read, but there is nothing to resume.
    return { text: `Not started: ${what}.`, running: phase.kind === 'working', cancellable: false, action: phase.kind === 'working' ? null : 'start' };
  }
  if (phase.kind === 'working' && phase.followOnly) {
    return { text: `Following the jobs started before: ${what}.${left.toStart > 0 ? ' Resume starts the cases that have no job.' : ''}`, running: true, cancellable: left.unfinished > 0, action: left.toStart > 0 ? 'resume' : null };
  }
  if (phase.kind === 'working') return { text: `Working: ${what}.`, running: true, cancellable: left.unfinished > 0 || left.toStart > 0, action: null };
  return { text: `${phase.reason ? `Stopped: ${phase.reason} ` : 'Stopped. '}Left: ${what}.`, running: false, cancellable: left.unfinished > 0, action: 'resume' };
}

function leftText(left: WorkLeft): string {
  const parts: string[] = [];
  if (left.toStart > 0) parts.push(`${plural(left.toStart, 'case')} to start`);
  if (left.inFlight > 0) parts.push(`${plural(left.inFlight, 'batch', 'batches')} being sent`);
  if (left.pendingBatches > 0) parts.push(`${plural(left.pendingBatches, 'batch', 'batches')} whose answer was lost`);
  if (left.unfinished > 0) parts.push(`${plural(left.unfinished, 'job')} running`);
  if (left.unread > 0) parts.push(`${plural(left.unread, 'result')} to read`);
  return parts.join(', ');
}

/** A count and its noun ("1 case", "3 cases"). */
export function plural(n: number, word: string, words = `${word}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? word : words}`;
}
