/**
 * Which service operations write, and what each writes: the gate's table. A POST, PUT, PATCH or DELETE
 * the table does not know is refused (a new write operation must say here what it writes before it can
 * be sent), so no write slips past the gate by being new.
 */

/** What a write changes on the service. */
export type TargetKind = 'agent' | 'policy' | 'job' | 'dataset' | 'table';

/** One thing a write changes, by the service's id (a table by its name). */
export interface WriteTarget {
  kind: TargetKind;
  id: string;
}

/** What an operation writes: an existing thing of a kind, something new (its target is made by the call), or nothing (a query). */
export type OperationWrites = TargetKind | 'new' | 'nothing';

/** Every operation of the client that is not a GET, and what it writes. */
export const WRITE_OPERATIONS: Readonly<Record<string, OperationWrites>> = Object.freeze({
  createAgent: 'new',
  updateAgent: 'agent',
  patchAgent: 'agent',
  deleteAgent: 'agent',
  // The source is only read: the duplicate is a new agent.
  duplicateAgent: 'new',
  createAgentVersion: 'agent',
  updateAgentVersion: 'agent',
  deleteAgentVersion: 'agent',
  runAgent: 'agent',
  runAgentVersion: 'agent',
  runAgentMany: 'agent',
  runAgentSync: 'agent',
  cancelAllJobs: 'agent',
  cancelJob: 'job',
  createPolicy: 'new',
  updatePolicy: 'policy',
  deletePolicy: 'policy',
  createPolicyVersion: 'policy',
  uploadDatasetFile: 'dataset',
  deleteDatasetFile: 'dataset',
  uploadTable: 'new',
  deleteTable: 'table',
  // Read-only SQL: the service runs it, nothing changes.
  queryTables: 'nothing',
  submitQuery: 'nothing',
  // POSTs that read.
  getJobStatuses: 'nothing',
  getJobResults: 'nothing',
});

/** Operations that start paid work (jobs). */
export const PAID_OPERATIONS: ReadonlySet<string> = new Set(['runAgent', 'runAgentVersion', 'runAgentMany', 'runAgentSync']);

/** The key of a target in the gate's records. */
export function targetKey(target: WriteTarget): string {
  return `${target.kind}:${target.id}`;
}

/** "agent 1f3…": a target as a refusal names it. */
export function targetText(target: WriteTarget): string {
  return `${target.kind} ${target.id}`;
}
