// The service side of the benchmarks: sandboxes started through the test harness, raw HTTP
// requests with undici (the reference every client figure is compared with), and the extension's
// own client loaded from the built bundle (`dist/core.js`), exactly the code the extension runs.
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { Pool } from 'undici';
import { repoRoot, startSandboxProcess, type Connection } from '../../test/harness/index.mjs';

/** The exports of `dist/core.js` (the client bundle the extension loads on first use). */
export type CoreBundle = typeof import('../../src/extension/core');

/** A running sandbox process. */
export type Sandbox = Connection & { pid: number; stop(): Promise<void> };

/** Starts the built sandbox CLI in memory with `seed` and any extra arguments. */
export function startSandbox(seed: 'demo' | 'large', extra: string[] = []): Promise<Sandbox> {
  // The large seed builds 10,000 agents and 100,000 jobs before it answers: give it time on a busy machine.
  return startSandboxProcess(['--memory', '--seed', seed, ...extra], { timeoutMs: 180_000 });
}

/** Loads the client bundle the way the extension does (a plain require of dist/core.js). */
export function loadCoreBundle(): CoreBundle {
  return createRequire(path.join(repoRoot, 'package.json'))(path.join(repoRoot, 'dist', 'core.js')) as CoreBundle;
}

/** One answer of a raw request. */
export interface RawAnswer<T> {
  status: number;
  body: T;
  ms: number;
}

/**
 * Plain HTTP to a sandbox with undici, no client in between: a keep-alive pool, the bearer token,
 * `organization_id` added to every path, the body read and JSON-parsed.
 */
export class RawHttp {
  readonly pool: Pool;

  constructor(readonly connection: Connection, connections = 1) {
    this.pool = new Pool(new URL(connection.baseUrl).origin, { connections });
  }

  /** `path` under the base URL (from `/v1/`), with `organization_id` added. */
  url(pathAndQuery: string): string {
    const separator = pathAndQuery.includes('?') ? '&' : '?';
    return `${pathAndQuery}${separator}organization_id=${this.connection.organizationId}`;
  }

  headers(): Record<string, string> {
    return { accept: 'application/json', authorization: `Bearer ${this.connection.token}` };
  }

  /** GET and parse; throws on a status other than 2xx. */
  async get<T = unknown>(pathAndQuery: string): Promise<RawAnswer<T>> {
    return this.send<T>('GET', pathAndQuery);
  }

  /** Any method with an optional JSON body; throws on a status other than 2xx. */
  async send<T = unknown>(method: 'GET' | 'POST' | 'DELETE', pathAndQuery: string, json?: unknown): Promise<RawAnswer<T>> {
    const started = performance.now();
    const headers = json === undefined ? this.headers() : { ...this.headers(), 'content-type': 'application/json' };
    const response = await this.pool.request({ path: this.url(pathAndQuery), method, headers, body: json === undefined ? null : JSON.stringify(json) });
    const text = await response.body.text();
    const ms = performance.now() - started;
    if (response.statusCode >= 300) throw new Error(`${method} ${pathAndQuery}: HTTP ${response.statusCode} ${text.slice(0, 300)}`);
    return { status: response.statusCode, body: (text ? JSON.parse(text) : undefined) as T, ms };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** The one agent of the large seed that holds half of its jobs (the jobs list to measure). */
export async function bulkAgentId(raw: RawHttp, name: string): Promise<string> {
  const answer = await raw.get<{ results: { id: string; name: string }[] }>(`/v1/agents/?search=${encodeURIComponent(name)}&include_job_stats=false`);
  const agent = answer.body.results.find((a) => a.name === name);
  if (!agent) throw new Error(`The large seed has no agent named "${name}".`);
  return agent.id;
}
