/**
 * Starting the jobs of a checked run: one request for the job of an input set, one request for a batch
 * of the current version; a batch of a chosen version goes one request a set. The one function behind
 * Run (run files), the `run_agent` tool and anything else that starts jobs from inputs.
 */
import type { ServiceClient } from '../client';
import type { RunPlan } from './runCheck';
import type { WriteGround } from '../writeGate/writeGate';

/** Jobs of a batch of a chosen version started before a request failed (so nothing is sent twice). */
export class PartlyStarted extends Error {
  constructor(
    readonly jobIds: string[],
    readonly reason: unknown,
  ) {
    super(`${jobIds.length} job${jobIds.length === 1 ? '' : 's'} started (${jobIds.join(', ')}) before a request failed: ${reason instanceof Error ? reason.message : String(reason)}`);
    this.name = 'PartlyStarted';
  }
}

/**
 * Starts the plan's jobs; answers their ids in the order of its input sets. `ground` says why the plan's
 * agent may be run (the user picked it, or confirmed the plan that named it): a run file's or a tool
 * input's agent id is only a candidate.
 */
export async function startJobs(client: ServiceClient, plan: RunPlan, signal: AbortSignal | undefined, ground: WriteGround | undefined): Promise<string[]> {
  const opts = { signal, ground };
  if (plan.batch && !plan.versionId) return client.agents.runMany(plan.agentId, plan.inputSets, opts);
  const body = (inputs: Record<string, unknown>) => ({ inputs, ...(plan.metadata ? { metadata: plan.metadata } : {}) });
  if (!plan.batch) {
    const inputs = plan.inputSets[0] ?? {};
    return [plan.versionId ? await client.agents.runVersion(plan.agentId, plan.versionId, body(inputs), opts) : await client.agents.run(plan.agentId, body(inputs), opts)];
  }
  const ids: string[] = [];
  for (const inputs of plan.inputSets) {
    try {
      ids.push(await client.agents.runVersion(plan.agentId, plan.versionId!, body(inputs), opts));
    } catch (error) {
      if (ids.length === 0) throw error;
      throw Object.assign(new PartlyStarted(ids, error), { outcomeUnknown: (error as { outcomeUnknown?: boolean }).outcomeUnknown === true });
    }
  }
  return ids;
}
