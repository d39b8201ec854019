/**
 * Grounds by target, for work that writes to many targets (a comparison starting jobs on several agents
 * and cancelling them): what the caller vouches for, then what the write gate knows this process made.
 */
import type { ServiceClient } from '../client';
import { MADE_HERE, type WriteGate, type WriteGround, type WriteTarget } from './writeGate';

/** The ground of writing to an agent or a job, as a caller knows it; undefined: none (the gate refuses). */
export interface Grounds {
  agent?(agentId: string): WriteGround | undefined;
  job?(jobId: string): WriteGround | undefined;
  policy?(policyId: string): WriteGround | undefined;
}

/** Grounds that answer, for each target, the caller's ground first, then MADE_HERE when this process made it. */
export function groundsWith(client: Pick<ServiceClient, 'gate'>, caller: Grounds = {}): Required<Grounds> {
  const made = (target: WriteTarget): WriteGround | undefined => (client.gate?.madeHere(target) ? MADE_HERE : undefined);
  return {
    agent: (id) => caller.agent?.(id) ?? made({ kind: 'agent', id }),
    job: (id) => caller.job?.(id) ?? made({ kind: 'job', id }),
    policy: (id) => caller.policy?.(id) ?? made({ kind: 'policy', id }),
  };
}

/**
 * Grounds for the targets a user confirmed (a plan that named them): each is issued by the gate as
 * picked, for exactly these targets. Without a gate (a test's seeding client) there is nothing to ground.
 */
export function confirmedGrounds(gate: WriteGate | undefined, targets: readonly WriteTarget[], how: string): Grounds {
  if (!gate) return {};
  const issued = new Map(targets.map((t) => [`${t.kind}:${t.id}`, gate.userPicked(t, how)]));
  return {
    agent: (id) => issued.get(`agent:${id}`),
    job: (id) => issued.get(`job:${id}`),
    policy: (id) => issued.get(`policy:${id}`),
  };
}

/** Both grounds: the first that answers. */
export function eitherGrounds(a: Grounds, b: Grounds): Grounds {
  return { agent: (id) => a.agent?.(id) ?? b.agent?.(id), job: (id) => a.job?.(id) ?? b.job?.(id), policy: (id) => a.policy?.(id) ?? b.policy?.(id) };
}
