// Renaming and deleting one version of an agent: the checks and the order of calls, shared by the
// Versions list's commands (and any later tool), over the service client.
import { isServiceError, type AgentVersion, type ServiceClient } from './client';
import { agentVersionNameProblem } from './limits';
import type { WriteGround } from './writeGate/writeGate';

/** Renames a version (PATCH), then reads it again: the service answers only a message. `ground`: why the agent may be written (the user picked the version). */
export async function renameAgentVersion(client: ServiceClient, agentId: string, versionId: string, name: string, ground?: WriteGround): Promise<AgentVersion> {
  const problem = agentVersionNameProblem(name);
  if (problem) throw new Error(`Not renamed: ${problem}.`);
  await client.agents.updateVersion(agentId, versionId, { version_name: name.trim() }, { ground });
  return client.agents.getVersion(agentId, versionId);
}

/** What deleting a version did: deleted, perhaps with a clean-up the service could not finish. */
export interface VersionDeleted {
  /** Set when the service deleted the version but says part of its clean-up failed. */
  warning?: string;
}

/**
 * Deletes a version that is not the agent's current one. The agent is read first, since another
 * window or client may have made this version current since the list was shown. `ground`: why the
 * agent may be written (the user picked the version).
 */
export async function deleteAgentVersion(client: ServiceClient, agentId: string, versionId: string, ground?: WriteGround): Promise<VersionDeleted> {
  const agent = await client.agents.get(agentId);
  if (agent.current_version_id === versionId) {
    throw new Error(`Not deleted: this is the current version of “${agent.name}”, which its jobs run. Create or restore another version first.`);
  }
  try {
    await client.agents.deleteVersion(agentId, versionId, { ground });
    return {};
  } catch (error) {
    const warning = cleanupWarning(error);
    if (warning === undefined) throw error;
    return { warning };
  }
}

/**
 * The live service answers 500 with `failed_collections` when the version was deleted but the clean-up
 * of its search collections failed: the version is gone, which the user should know, with the detail.
 */
function cleanupWarning(error: unknown): string | undefined {
  if (!isServiceError(error) || error.status !== 500) return undefined;
  const body = error.body as { detail?: unknown; failed_collections?: unknown } | undefined;
  if (!body || !Array.isArray(body.failed_collections)) return undefined;
  const detail = typeof body.detail === 'string' && body.detail.trim() ? body.detail.trim() : 'part of its clean-up failed';
  return `The version was deleted, but the service says: ${detail}`;
}
