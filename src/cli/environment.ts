/** The connection of the command line: from the environment, never from an argument (a token in argv is visible to every process). */
import { ServiceClient } from '../core/client';
import { baseUrlProblem, organizationIdProblem } from '../core/connectionSettings';
import { UsageError } from './usageError';

/** The variables the command line reads its connection from. */
export const CONNECTION_ENV = 'Environment: AGENT_WORKBENCH_BASE_URL, AGENT_WORKBENCH_TOKEN and AGENT_WORKBENCH_ORGANIZATION_ID, all three (agent-workbench sandbox prints them for the sandbox).';

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * A client of the service the environment names; a `UsageError` naming the variable when one is missing
 * or wrong, before anything is asked of the service. The organization is required: every call but the
 * current user's takes it, and the service has no call that lists the organizations of a user, so the
 * command line cannot find it (docs/service.md, Endpoints).
 */
export function clientFromEnv(env: Env, userAgent: string): ServiceClient {
  const baseUrl = env.AGENT_WORKBENCH_BASE_URL?.trim();
  const token = env.AGENT_WORKBENCH_TOKEN;
  const organizationId = env.AGENT_WORKBENCH_ORGANIZATION_ID?.trim();
  if (!baseUrl || !token) throw new UsageError('AGENT_WORKBENCH_BASE_URL and AGENT_WORKBENCH_TOKEN must be set.');
  const urlProblem = baseUrlProblem(baseUrl);
  if (urlProblem) throw new UsageError(`AGENT_WORKBENCH_BASE_URL is not a service URL: ${urlProblem}.`);
  if (!organizationId) {
    throw new UsageError("AGENT_WORKBENCH_ORGANIZATION_ID must be set: the id of the organization to work in (a UUID; the service has no call that lists a user's organizations).");
  }
  const organizationProblem = organizationIdProblem(organizationId);
  if (organizationProblem) throw new UsageError(`AGENT_WORKBENCH_ORGANIZATION_ID is not an organization id: ${organizationProblem}.`);
  // Every write states why its target may be written (src/core/writeGate/): a refusal is an error the command says.
  return new ServiceClient({ baseUrl, token, organizationId, userAgent, writeGate: {} });
}
