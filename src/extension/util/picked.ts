/**
 * The grounds of the extension's writes (src/core/writeGate/): what the user picked in this window — a
 * tree row, a quick pick, the editor a document came from, a modal question that named the target. The
 * gate of the client that writes issues each one, for that target only; an id read from a file, a tool
 * input or an answer gets none here, and the gate then refuses the write.
 */
import type { ServiceClient } from '../../core/client';
import type { WriteGround, WriteTarget } from '../../core/writeGate/writeGate';

/** The ground of a write that makes something new (an agent, a policy, a table) and changes nothing that exists. */
export { NEW_THING } from '../../core/writeGate/writeGate';

/** Where the user picked a target, as the ground (and a refusal in the log) says it. */
export const PICKED_IN = {
  agentsView: 'the Agents view',
  policiesView: 'the Policies view',
  datasetsView: 'the Datasets view',
  tablesView: 'the Tables view',
  quickPick: 'a quick pick',
  editor: 'the editor it came from',
  jobShown: 'the job view or the watched jobs',
  comparisonView: 'the comparison view',
} as const;

/** A client, or what hands out the window's current one. */
export type ClientSource = ServiceClient | { requireClient(): ServiceClient };

/** The client of a source (the window's current one for a connection). */
export function clientOf(source: ClientSource): ServiceClient {
  return 'requireClient' in source ? source.requireClient() : source;
}

/**
 * The ground of writing `target`, which the user picked in this window (`how`: where). Issued by the gate
 * of the source's client, which must be the client that writes; undefined for a client without a gate.
 */
export function picked(source: ClientSource, target: WriteTarget, how: string): WriteGround | undefined {
  return clientOf(source).gate?.userPicked(target, how);
}

/** The target of an agent, a policy, a job, a dataset or a table, by the service's id (a table by its name). */
export const target = {
  agent: (id: string): WriteTarget => ({ kind: 'agent', id }),
  policy: (id: string): WriteTarget => ({ kind: 'policy', id }),
  job: (id: string): WriteTarget => ({ kind: 'job', id }),
  dataset: (id: string): WriteTarget => ({ kind: 'dataset', id }),
  table: (name: string): WriteTarget => ({ kind: 'table', id: name }),
};
