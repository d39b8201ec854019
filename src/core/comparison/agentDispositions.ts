/**
 * The dispositions an agent can be expected to give: the classifications of the policy its version
 * applies, as that policy's current version names them. Set Expected… offers them, and a test set's
 * expected values are checked against them.
 */
import type { AgentVersion, ServiceClient } from '../client';
import { policyIdOf } from '../trial/trialSetup';
import { policyDispositions } from './caseLabelling';

/** The dispositions of the policy a version applies: [] when it applies none, undefined when they cannot be read. */
export async function versionDispositions(client: ServiceClient, version: Pick<AgentVersion, 'engine_config'>, signal?: AbortSignal): Promise<string[] | undefined> {
  const policyId = policyIdOf(version);
  if (!policyId) return [];
  try {
    const policy = await client.policies.get(policyId, { signal });
    if (!policy.current_version_id) return [];
    const current = await client.policies.getVersion(policy.id, policy.current_version_id, { signal });
    return policyDispositions(current.content);
  } catch {
    return undefined;
  }
}

/** The dispositions of the policy an agent's current version applies (see {@link versionDispositions}). */
export async function agentDispositions(client: ServiceClient, agentId: string, signal?: AbortSignal): Promise<string[] | undefined> {
  try {
    return await versionDispositions(client, await client.agents.currentVersion(agentId, { signal }), signal);
  } catch {
    return undefined;
  }
}
