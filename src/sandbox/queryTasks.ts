import { found, requireOrganization } from './access';
import { type Handler, ok } from './context';
import { readJsonObject } from './http/body';
import { BodyFields } from './http/fields';
import type { Router } from './http/router';
import type { SandboxDb } from './store/database';
import { newId, parseJson } from './util';
import { submitQueryPath } from '../core/serviceDecisions';
import type { QueryEngine, QueryOutcome, QueryScope, RunOptions } from './query/index';


/** Longest SQL text accepted. */
const MAX_QUERY_LENGTH = 100_000;
/** How long closing waits for a running query before stopping the engine under it. */
const CLOSE_GRACE_MS = 2000;

/**
 * Database queries of the organizations: stored as tasks (PENDING → STARTED → SUCCESS/FAILURE)
 * and run by the query engine, which serves the organizations fairly, each one's queries in the order
 * they came. The engine is created on the first query (it starts worker threads: no cost for
 * sandboxes nobody queries).
 */
export class QueryTasks {
  private engine: Promise<QueryEngine> | undefined;
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;

  constructor(
    private readonly db: SandboxDb,
    private readonly createEngine: () => Promise<QueryEngine>,
    private readonly now: () => number,
    private readonly log: (line: string) => void,
    /** The tables an organization's queries see (its uploaded ones besides the demo tables). */
    private readonly scopeOf: (orgId: string) => QueryScope | undefined = () => undefined,
  ) {}

  /** Stores a query and queues it; answers its id. */
  submit(orgId: string, userId: number, sql: string): string {
    const id = newId();
    const now = this.now();
    this.db.run('INSERT INTO query_tasks (id, org_id, user_id, sql, status, results, error, created_ms, updated_ms) VALUES (?, ?, ?, ?, ?, NULL, NULL, ?, ?)', [
      id, orgId, userId, sql, 'PENDING', now, now,
    ]);
    this.enqueue(id, orgId, sql);
    return id;
  }

  /** Runs a statement on the same engine, after the queries its organization queued before it (the tables API's queries). */
  run(sql: string, options: RunOptions): Promise<QueryOutcome> {
    return this.track(this.runOnEngine(sql, options));
  }

  /** Queues again the tasks a previous run left unfinished (the sandbox stopped while they ran). */
  resumeUnfinished(): void {
    const rows = this.db.all<{ id: string; org_id: string; sql: string }>("SELECT id, org_id, sql FROM query_tasks WHERE status IN ('PENDING', 'STARTED') ORDER BY created_ms");
    for (const row of rows) {
      this.setStatus(row.id, 'PENDING', null, null);
      this.enqueue(row.id, row.org_id, row.sql);
    }
  }

  /**
   * Waits briefly for the running query (queued ones stay PENDING and resume on the next start
   * with a data folder), then stops the engine.
   */
  async close(): Promise<void> {
    this.closed = true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(this.inFlight), new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)))]);
    clearTimeout(timer);
    const engine = await this.engine?.catch(() => undefined);
    await engine?.close();
  }

  private enqueue(id: string, orgId: string, sql: string): void {
    void this.track(this.execute(id, orgId, sql));
  }

  /** Keeps a promise among those closing waits for, until it settles. */
  private track<T>(promise: Promise<T>): Promise<T> {
    this.inFlight.add(promise);
    void promise.finally(() => this.inFlight.delete(promise)).catch(() => undefined);
    return promise;
  }

  private async execute(id: string, orgId: string, sql: string): Promise<void> {
    if (this.closed) return;
    this.setStatus(id, 'STARTED', null, null);
    const outcome = await this.runOnEngine(sql, { scope: this.scopeOf(orgId) });
    if (outcome.status === 'SUCCESS') this.setStatus(id, 'SUCCESS', outcome.results, null);
    else this.setStatus(id, 'FAILURE', null, outcome.error);
  }

  /** Never rejects: a failing engine is a FAILURE outcome. */
  private async runOnEngine(sql: string, options: RunOptions): Promise<QueryOutcome> {
    if (this.closed) return { status: 'FAILURE', error: 'The sandbox is stopping.' };
    try {
      this.engine ??= this.createEngine();
      return await (await this.engine).run(sql, options);
    } catch (error) {
      this.log(`sandbox: query engine failed: ${(error as Error).stack ?? String(error)}`);
      return { status: 'FAILURE', error: `The query engine failed: ${(error as Error).message}` };
    }
  }

  private setStatus(id: string, status: string, results: unknown[] | null, error: string | null): void {
    // After close the database may be gone; the task then resumes on the next start.
    if (this.closed && status !== 'SUCCESS' && status !== 'FAILURE') return;
    try {
      this.db.run('UPDATE query_tasks SET status = ?, results = ?, error = ?, updated_ms = ? WHERE id = ?', [
        status, results ? JSON.stringify(results) : null, error, this.now(), id,
      ]);
    } catch (e) {
      this.log(`sandbox: could not record query ${id}: ${(e as Error).message}`);
    }
  }
}

/** POST /v1/database/query/ (our decision): `{"query": "..."}` → 202 `{worksheet_query_id, status}`. */
const submit: Handler = async (ctx) => {
  const body = await readJsonObject(ctx.req, ctx.app.limits.jsonBytes);
  const orgId = requireOrganization(ctx, body.organization_id);
  const f = new BodyFields(body);
  const sql = f.string('query', { required: true, max: MAX_QUERY_LENGTH });
  f.finish();
  const id = ctx.app.queries.submit(orgId, ctx.user.id, sql!);
  return ok({ worksheet_query_id: id, status: 'PENDING' }, 202);
};

/** GET /v1/database/query/{id}/result/: the task's status, results (when done) and error. */
const result: Handler = (ctx) => {
  const orgId = requireOrganization(ctx);
  const row = found(
    ctx.app.db.get<{ id: string; status: string; results: string | null; error: string | null }>(
      'SELECT id, status, results, error FROM query_tasks WHERE id = ? AND org_id = ?',
      [ctx.params.worksheet_query_id!, orgId],
    ),
  );
  return ok({ worksheet_query_id: row.id, status: row.status, results: parseJson(row.results) ?? [], error: row.error });
};

/** Registers the database query routes. */
export function registerQueryRoutes(router: Router<Handler>): void {
  router.add('POST', submitQueryPath, submit).add('GET', '/v1/database/query/{worksheet_query_id}/result/', result);
}
