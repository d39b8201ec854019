/** The connection of the command line: from the environment, never from an argument (a token in argv is visible to every process). */
import { ServiceClient } from '../core/client';

/** The variables the command line reads its connection from. */
export const CONNECTION_ENV = 'Environment: AGENT_WORKBENCH_BASE_URL, AGENT_WORKBENCH_TOKEN, AGENT_WORKBENCH_ORGANIZATION_ID (optional).';

export type Env = Readonly<Record<string, string | undefined>>;

/** A client of the service the environment names, or why there is none. */
export function clientFromEnv(env: Env, userAgent: string): ServiceClient | string {
  const baseUrl = env.AGENT_WORKBENCH_BASE_URL;
  const token = env.AGENT_WORKBENCH_TOKEN;
  if (!baseUrl || !token) return 'AGENT_WORKBENCH_BASE_URL and AGENT_WORKBENCH_TOKEN must be set';
  // Every write states why its target may be written (src/core/writeGate/): a refusal is an error the command says.
  return new ServiceClient({ baseUrl, token, organizationId: env.AGENT_WORKBENCH_ORGANIZATION_ID || undefined, userAgent, writeGate: {} });
}
