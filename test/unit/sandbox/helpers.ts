import { type RunningSandbox, type SandboxOptions, OTHER_ORGANIZATION_ID, startSandbox } from '../../../src/sandbox/server';

export { OTHER_ORGANIZATION_ID };

/** A token for a user of the second organization only. */
export const OTHER_TOKEN = 'other-org-user-token';
/** A token for a user who belongs to both organizations. */
export const BOTH_TOKEN = 'both-orgs-user-token';

/** What a call answered: status, parsed JSON body (or text) and headers. */
export interface Answer<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface CallOptions {
  body?: unknown;
  /** Sent as is (not JSON-encoded). */
  rawBody?: string | Uint8Array | FormData;
  token?: string | null;
  /** `organization_id` to add; null adds none; default: the demo organization. */
  org?: string | null;
  headers?: Record<string, string>;
}

/** A started sandbox with a call helper and the logs it wrote. */
export interface TestSandbox {
  sandbox: RunningSandbox;
  baseUrl: string;
  orgId: string;
  token: string;
  logs: string[];
  call<T = any>(method: string, path: string, options?: CallOptions): Promise<Answer<T>>;
  close(): Promise<void>;
}

/** Starts an in-memory sandbox on a free port with the demo seed, quiet, with users of the second organization. */
export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const logs: string[] = [];
  const sandbox = await startSandbox({
    port: 0,
    memory: true,
    jobStepMs: 50,
    log: (line) => logs.push(line),
    users: [
      { token: OTHER_TOKEN, organizationIds: [OTHER_ORGANIZATION_ID] },
      { token: BOTH_TOKEN, organizationIds: [OTHER_ORGANIZATION_ID, '3f6c2a1e-8b4d-4c7a-9e15-6d2b8f0a4c91'] },
    ],
    ...options,
  });
  const call = async <T>(method: string, path: string, o: CallOptions = {}): Promise<Answer<T>> => {
    const url = new URL(path, sandbox.baseUrl);
    const org = o.org === undefined ? sandbox.organizationId : o.org;
    if (org !== null && !url.searchParams.has('organization_id')) url.searchParams.set('organization_id', org);
    const headers: Record<string, string> = { ...o.headers };
    const token = o.token === undefined ? sandbox.token : o.token;
    if (token !== null) headers.Authorization = `Bearer ${token}`;
    let body: string | Uint8Array | FormData | undefined = o.rawBody;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Left as text: the test decides whether that is wrong.
    }
    return { status: response.status, body: parsed as T, text, headers: response.headers };
  };
  return { sandbox, baseUrl: sandbox.baseUrl, orgId: sandbox.organizationId, token: sandbox.token, logs, call, close: () => sandbox.close() };
}

/** Waits until `check` answers a value (polling), or fails after `timeoutMs`. */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, timeoutMs = 5000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The demo agent of that name (throws when missing). */
export async function agentNamed(t: TestSandbox, name: string): Promise<any> {
  const list = await t.call('GET', `/v1/agents/?name=${encodeURIComponent(name)}`);
  const agent = list.body.results.find((a: any) => a.name === name);
  if (!agent) throw new Error(`No agent named ${name}`);
  return agent;
}

/** A well-formed UUID that names nothing. */
export const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/**
 * A query engine double: answers after `delayMs`, FAILURE for SQL containing "fail", else one
 * result echoing the SQL. Counts its runs and whether it was closed.
 */
export function fakeQueryEngine(delayMs = 20) {
  const state = { runs: [] as string[], closed: false, created: 0 };
  const factory = () => {
    state.created++;
    return {
      async run(sql: string) {
        state.runs.push(sql);
        // Unref'd: a query still "running" when a test ends must not keep the test process alive.
        await new Promise((resolve) => setTimeout(resolve, delayMs).unref());
        if (/fail/i.test(sql)) return { status: 'FAILURE' as const, error: `Syntax error near "${sql}"` };
        const now = Date.now() / 1000;
        const summary = { read_rows: 1, read_bytes: 1, written_rows: 0, written_bytes: 0, total_rows_to_read: 1, result_rows: 1, result_bytes: 1, elapsed_ns: 1, query_id: 'q' };
        return {
          status: 'SUCCESS' as const,
          results: [{ query: sql, summary, row_count: 1, column_names: ['x'], column_types: ['String'], result_rows: [['1']], start_timestamp: now, end_timestamp: now, query_id: 'q', truncated: false }],
        };
      },
      close() {
        state.closed = true;
        return Promise.resolve();
      },
    };
  };
  return { state, factory };
}
