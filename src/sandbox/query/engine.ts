// The query engine the sandbox server uses: worker threads shared fairly by the organizations (one
// organization's slow query never stands in front of another's), with a per-query timeout that
// terminates the thread (the next query starts a fresh one).

import { WorkerPool } from '../workers/workerPool';
import { workerLocation } from '../workers/workerLocation';
import { checkReadOnlyQuery } from './statementGuard';
import { failure, type QueryEngine, type QueryEngineOptions, type QueryOutcome, type RunOptions, type WorkerRequest } from './types';

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_ROWS = 200_000;
/** Organizations whose queries run at the same time (a thread each: every thread holds its own demo warehouse). */
const DEFAULT_THREADS = 2;

/** Creates the engine; no thread starts until the first query. */
export function createQueryEngine(options: QueryEngineOptions = {}): QueryEngine {
  const pool = new WorkerPool<WorkerRequest, QueryOutcome>({
    location: () => workerLocation('queryWorker', '../query/worker.ts', 'query worker'),
    threads: options.threads ?? DEFAULT_THREADS,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    failure,
    what: 'query engine',
    timedOut: (limit) => `Query timed out after ${limit}`,
  });
  const maxRows = Math.max(options.maxRows ?? DEFAULT_MAX_ROWS, 0);
  return {
    run(sql: string, runOptions: RunOptions = {}): Promise<QueryOutcome> {
      // Checked here too, so a refused statement never needs a thread.
      const verdict = checkReadOnlyQuery(sql);
      if (!verdict.ok) return Promise.resolve(failure(verdict.error));
      const request = { sql, maxRows: Math.min(maxRows, runOptions.maxRows ?? maxRows), scope: runOptions.scope };
      return pool.run(runOptions.scope?.orgId ?? '', request);
    },
    close: () => pool.close(),
  };
}
