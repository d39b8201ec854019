/** Duplicating an agent under the name the user chose: one user action, two calls. */
import { MADE_HERE, NEW_THING } from './writeGate/writeGate';
import type { ServiceClient } from './client/client';
import type { AgentVersion } from './client/schemas/agents';
import type { UpdateAgentBody } from './client/resources/agents';
import { readMarker, withoutTrialMarker } from './trial/trialMarker';

/** The copy was made but could not be renamed: it exists under the service's name. */
export class DuplicateRenameError extends Error {
  constructor(
    /** The copy's version, as the duplicate answered it (its base agent keeps the service's name). */
    readonly copy: AgentVersion,
    readonly wantedName: string,
    override readonly cause: unknown,
  ) {
    super(`The copy was made as "${copy.base_agent.name}" but could not be renamed to "${wantedName}": ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'DuplicateRenameError';
  }
}

/**
 * Duplicates an agent and gives the copy the fields asked (at least its name). The live service's
 * duplicate takes no body, so the copy is renamed right after with PATCH; when that fails the copy
 * is kept and a {@link DuplicateRenameError} says so (the duplicate itself is never repeated).
 * The service copies the description, so a copy of a trial's copy would carry its trial marker and
 * Clean Up Trials… would offer to remove it: unless the caller gives the description (a trial does,
 * with its own marker), the marker is taken out of the copy's.
 */
export async function duplicateAgentAs(client: ServiceClient, agentId: string, fields: UpdateAgentBody & { name: string }, signal?: AbortSignal): Promise<AgentVersion> {
  // A duplicate makes a new agent; the source is only read.
  const copy = await client.agents.duplicate(agentId, { signal, ground: NEW_THING });
  const copied = copy.base_agent.description;
  const wanted = fields.description === undefined && readMarker(copied) ? { ...fields, description: withoutTrialMarker(copied!) } : fields;
  const changes = Object.entries(wanted).filter(([key, value]) => copy.base_agent[key] !== value);
  if (changes.length === 0) return copy;
  try {
    const renamed = await client.agents.patch(copy.base_agent.id, Object.fromEntries(changes), { signal, ground: MADE_HERE });
    return { ...copy, base_agent: renamed };
  } catch (error) {
    throw new DuplicateRenameError(copy, fields.name, error);
  }
}
