import * as fs from 'node:fs/promises';
import { baseUrlProblem, normalizeBaseUrl, organizationIdProblem } from '../../core/connectionSettings';
import { CONNECT_ENV } from '../constants';
import type { Log } from '../log';
import type { Connection } from './connection';

/**
 * `npm run demo` and the test harness start VS Code with `AGENT_WORKBENCH_CONNECT` naming a JSON file
 * `{baseUrl, organizationId, token}`: the extension signs in with it, so nobody types a token. The token
 * goes to SecretStorage like any other; the file is the launcher's (kept in a git-ignored folder, mode 0600).
 */
export async function applyProvisionedConnection(connection: Connection, log: Log, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const file = env[CONNECT_ENV];
  if (!file) return false;
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as { baseUrl?: unknown; organizationId?: unknown; token?: unknown };
    const { baseUrl, organizationId, token } = parsed;
    if (typeof baseUrl !== 'string' || baseUrlProblem(baseUrl)) throw new Error('baseUrl is missing or not a URL');
    if (typeof organizationId !== 'string' || organizationIdProblem(organizationId)) throw new Error('organizationId is missing or not a UUID');
    if (typeof token !== 'string' || !token) throw new Error('token is missing');
    log.addSecret(token);
    const url = normalizeBaseUrl(baseUrl);
    await connection.signIn(url, organizationId, token);
    log.info(`Signed in to ${url} with the connection named by ${CONNECT_ENV}`);
    return true;
  } catch (error) {
    log.error(`Ignoring ${CONNECT_ENV} (${file})`, error);
    return false;
  }
}
