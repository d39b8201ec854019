// The query worker: builds the demo warehouse once, then answers one query at a time, each in the
// database of its organization (see scopedDatabases.ts). It runs in its own thread so a slow query
// cannot block the server; the engine terminates it on timeout.

import { parentPort } from 'node:worker_threads';
import { loadSqlite } from '../sqlite';
import { readCatalog } from './catalog';
import { buildDemoDatabase } from './demoDatabase';
import { executeQuery } from './execute';
import { ScopedDatabases } from './scopedDatabases';
import { failure, type QueryOutcome, type WorkerMessage, type WorkerRequest } from './types';

async function serve(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('the query worker must run in a worker thread');
  const SQL = await loadSqlite();
  const db = buildDemoDatabase(SQL);
  // Exporting reopens the database, which forgets `query_only`: it is set again right after.
  const demoBytes = db.export();
  db.run('PRAGMA query_only = ON');
  const databases = new ScopedDatabases(SQL, demoBytes, { db, catalog: readCatalog(db) });
  const post = (message: WorkerMessage) => port.postMessage(message);
  port.on('message', (request: WorkerRequest) => {
    let outcome: QueryOutcome;
    try {
      const scoped = databases.forScope(request.scope);
      outcome = executeQuery(scoped.db, scoped.catalog, request.sql, request.maxRows);
    } catch (error) {
      // executeQuery turns SQLite errors into outcomes; anything else is a bug, but one query's, not the worker's.
      outcome = failure(`The query engine failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    post({ kind: 'outcome', id: request.id, outcome });
  });
  post({ kind: 'ready' });
}

serve().catch((error: unknown) => {
  // Rethrown outside the promise so the engine sees it as the worker's 'error' event.
  setImmediate(() => {
    throw error;
  });
});
