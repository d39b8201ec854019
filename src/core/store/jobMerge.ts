/**
 * How two copies of one job become the one the store keeps. Copies come from list pages (full
 * records, possibly read before a status change), the status watcher (status and times only), a
 * run's answer (a stub) and cancels. The newest status wins, whatever order the copies arrive in;
 * every other field is taken from whichever copy has it, the fuller record first.
 */
import type { AgentJob } from '../client';
import { isFinalStatus } from '../jobStatus';

/** What a status update brings (from the watcher, a cancel, a status read). */
export interface JobStatusPatch {
  id: string;
  status_code: number;
  last_updated_at?: string | null;
  error_message?: string | null;
}

function timeOf(value: string | null | undefined): number {
  const t = value ? Date.parse(value) : Number.NaN;
  return Number.isFinite(t) ? t : Number.NEGATIVE_INFINITY;
}

/**
 * True when `incoming`'s status is at least as new as `current`'s: a later `last_updated_at`, or the
 * same (or unknown) time and not a step back from a final status to a running one.
 */
export function isNewerStatus(current: { status_code: number; last_updated_at?: string | null }, incoming: { status_code: number; last_updated_at?: string | null }): boolean {
  const now = timeOf(current.last_updated_at);
  const next = timeOf(incoming.last_updated_at);
  if (next > now) return true;
  if (next < now) return false;
  // Same or unknown time: a final status never goes back to running (a list page read before the end).
  return !(isFinalStatus(current.status_code) && !isFinalStatus(incoming.status_code));
}

/** The job the store keeps after `incoming` arrives; `current` undefined for a job not seen before. */
export function mergeJob(current: AgentJob | undefined, incoming: AgentJob): AgentJob {
  if (!current) return incoming;
  const merged: AgentJob = { ...current };
  for (const [key, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    // An empty list (a run's stub) never hides the events or inputs a fuller record brought.
    // Stryker disable next-line ConditionalExpression: skipping an empty list over an empty list keeps the same empty list.
    if (Array.isArray(value) && value.length === 0 && Array.isArray(merged[key]) && (merged[key] as unknown[]).length !== 0) continue;
    // Stryker disable next-line BooleanLiteral: nothing redefines or deletes a merged field, so `configurable` is never read.
    Object.defineProperty(merged, key, { value, enumerable: true, writable: true, configurable: true });
  }
  if (!isNewerStatus(current, incoming)) {
    merged.status_code = current.status_code;
    merged.last_updated_at = current.last_updated_at;
  }
  return merged;
}

/** The job after a status update, or undefined when the update is older than what is known. */
export function patchJob(current: AgentJob, patch: JobStatusPatch): AgentJob | undefined {
  if (!isNewerStatus(current, patch)) return undefined;
  if (current.status_code === patch.status_code && (patch.last_updated_at ?? current.last_updated_at) === current.last_updated_at) return undefined;
  return { ...current, status_code: patch.status_code, last_updated_at: patch.last_updated_at ?? current.last_updated_at };
}

/**
 * True when a copy is a record the service sent (a list page, a read: it has its events or its
 * version), not a stub the store made from a status or a run's answer: a job view opened on a stub
 * still reads the status (its failure reason) and the version's name.
 */
export function isJobRecord(job: AgentJob): boolean {
  return Array.isArray(job.status_events) || typeof job.agent_version_id === 'string' || typeof job.agent_version_name === 'string';
}
