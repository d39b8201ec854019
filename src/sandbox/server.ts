import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { registerAgentDeleteRoutes } from './agents/deleteRoutes';
import { registerAgentRoutes } from './agents/agentRoutes';
import { registerVersionRoutes } from './agents/versionRoutes';
import { TokenBook } from './auth';
import type { Handler, SandboxApp } from './context';
import { reconcileFiles } from './datasets/datasetStore';
import { registerDatasetRoutes } from './datasets/datasetRoutes';
import { type FaultReport, type FaultRule, FaultMode, generateAdminSecret, isLoopback } from './faults/index';
import { Router } from './http/router';
import { registerJobRoutes } from './jobs/jobRoutes';
import { JobLifecycle } from './jobs/lifecycle';
import { registerPolicyRoutes } from './policies/policyRoutes';
import { registerPolicyVersionRoutes } from './policies/policyVersionRoutes';
import { type QueryEngine, createQueryEngine } from './query/index';
import { QueryTasks, registerQueryRoutes } from './queryTasks';
import { type JobEngine, createJobEngine } from './engine/engineThreads';
import { createRequestHandler } from './requestHandler';
import { loadContractMode } from './contractMode';
import { registerDiscoveryRoutes } from './discoveryRoutes';
import { registerResultRoutes } from './jobs/resultRoutes';
import { registerRunRoutes } from './jobs/runRoutes';
import { type SandboxUserOption, checkUserOptions, syncUsers } from './sandboxUsers';
import { DEMO_ORGANIZATION_ID } from './seed/base';
import { SEED_NAMES, type SeedName, applySeed } from './seed/seeds';
import { type Store, openStore } from './store/openStore';
import { registerTableRoutes } from './tables/tableRoutes';
import { TableStore } from './tables/tableStore';

export { DEMO_ORGANIZATION_ID, OTHER_ORGANIZATION_ID } from './seed/base';
export type { FaultReport, FaultRule } from './faults/index';

export interface SandboxOptions {
  /** Default 4010; 0 = a free port. */
  port?: number;
  /** Default 127.0.0.1 (a warning goes to the log when bound elsewhere). */
  host?: string;
  /** Persisted SQLite file and uploaded files; ignored when `memory`. */
  dataDir?: string;
  /** In memory (uploads go to a temporary folder removed on close). */
  memory?: boolean;
  /** Applied only when the store is new. Default `demo`. */
  seed?: SeedName;
  users?: SandboxUserOption[];
  /** Job lifecycle speed: time between status steps (default 1500). */
  jobStepMs?: number;
  /** Default: stderr. */
  log?: (line: string) => void;
  /** Largest uploaded file in bytes (default 2 GiB, and never more than a file size the interface can express). */
  maxUploadBytes?: number;
  /** Largest JSON body in bytes (default 10 MB). */
  maxJsonBytes?: number;
  /** Makes the database query engine; default: the engine of src/sandbox/query (tests pass a fake). */
  queryEngineFactory?: () => QueryEngine | Promise<QueryEngine>;
  /** Makes the engine that judges jobs; default: worker threads (tests wrap it to watch it work). */
  jobEngineFactory?: () => JobEngine;
  /** Fault rules in force from the start (default none: the fault mode is off). See `faults/rules.ts`. */
  faults?: FaultRule[];
  /** The secret of the admin endpoint `/__admin/faults` (at least 16 characters); default: random per start. */
  adminSecret?: string;
  /**
   * The sandbox's time, for tests that move it themselves: its store is seeded at this clock's now, and
   * jobs move only when `advanceJobs` is called (no job timer). Default: the system clock and the timer.
   */
  clock?: { now(): number };
}

export interface RunningSandbox {
  baseUrl: string;
  organizationId: string;
  token: string;
  port: number;
  /** Opens `/__admin/faults` to requests from this machine that send it in `X-Sandbox-Admin`. */
  adminSecret: string;
  /** Replaces the fault rules in force (throws on a bad rule, leaving the old ones). */
  setFaults(rules: FaultRule[]): void;
  /** Ends the fault mode: no rules. */
  clearFaults(): void;
  /** The rules in force with how many requests each one hit. */
  faultReport(): FaultReport[];
  /** Moves every job due at the clock's now by one step, as the job timer does; answers how many moved. */
  advanceJobs(): number;
  close(): Promise<void>;
}

const DEFAULT_PORT = 4010;
const DEFAULT_HOST = '127.0.0.1';
/** A dataset file's size is a 32-bit signed integer in the interface (section 8). */
const MAX_FILE_SIZE = 2_147_483_647;

/** Starts the sandbox: opens (or creates and seeds) the store, starts the job timer and listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const seed = options.seed ?? 'demo';
  if (!SEED_NAMES.includes(seed)) throw new Error(`Unknown seed "${String(seed)}"; use ${SEED_NAMES.join(', ')}.`);
  checkUserOptions(options.users ?? []);
  const faults = new FaultMode(options.faults ?? [], options.adminSecret ?? generateAdminSecret());
  const stepMs = Math.max(1, options.jobStepMs ?? 1500);
  const store = await openStore({
    dataDir: options.dataDir, memory: options.memory ?? !options.dataDir, log,
    initialize: (db, filesDir) => applySeed(db, filesDir, seed, options.clock?.now() ?? Date.now(), stepMs),
  });
  try {
    const { app, token } = createApp(store, options, log, stepMs);
    const host = options.host ?? DEFAULT_HOST;
    const contract = await loadContractMode(log);
    const server = await listen(createRequestHandler(app, buildRouter(), faults, contract), options.port ?? DEFAULT_PORT, host);
    if (!options.clock) app.lifecycle.start();
    app.queries.resumeUnfinished();
    if (!isLoopback(host)) log(`sandbox: WARNING: listening on ${host}, reachable from other machines; the sandbox is for local use.`);
    const port = (server.address() as AddressInfo).port;
    return {
      baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, organizationId: DEMO_ORGANIZATION_ID, token, port,
      adminSecret: faults.adminSecret,
      setFaults: (rules) => faults.book.set(rules),
      clearFaults: () => faults.book.clear(),
      faultReport: () => faults.book.report(),
      advanceJobs: () => app.lifecycle.tick(),
      close: once(() => stop(server, app, () => store.close())),
    };
  } catch (error) {
    store.close();
    throw error;
  }
}

/** Brings an open store in line with this start (users, files) and builds what the handlers share. */
function createApp(store: Store, options: SandboxOptions, log: (line: string) => void, stepMs: number): { app: SandboxApp; token: string } {
  const { db } = store;
  const token = syncUsers(db, options.users ?? [], Date.now());
  const cleaned = reconcileFiles(db, store.filesDir);
  if (cleaned.files + cleaned.rows > 0) log(`sandbox: removed ${cleaned.files} stray file(s) and ${cleaned.rows} record(s) of missing files`);
  const clock = options.clock;
  const now = clock ? () => clock.now() : () => Date.now();
  const tables = new TableStore(db, store.filesDir);
  tables.reconcile(now());
  const app: SandboxApp = {
    db, filesDir: store.filesDir, tokens: new TokenBook(db), now, log, tables,
    lifecycle: new JobLifecycle(db, stepMs, now, log),
    engine: (options.jobEngineFactory ?? createJobEngine)(),
    queries: new QueryTasks(db, async () => (options.queryEngineFactory ?? createQueryEngine)(), now, log, (orgId) => tables.scope(orgId)),
    limits: { jsonBytes: options.maxJsonBytes ?? 10 * 1024 * 1024, uploadBytes: Math.min(options.maxUploadBytes ?? 2 * 1024 ** 3, MAX_FILE_SIZE) },
  };
  return { app, token };
}

/** Every route of the service the sandbox offers. */
function buildRouter(): Router<Handler> {
  const router = new Router<Handler>();
  registerAgentRoutes(router);
  registerVersionRoutes(router);
  registerAgentDeleteRoutes(router);
  registerJobRoutes(router);
  registerPolicyRoutes(router);
  registerPolicyVersionRoutes(router);
  registerDatasetRoutes(router);
  registerQueryRoutes(router);
  registerRunRoutes(router);
  registerResultRoutes(router);
  registerDiscoveryRoutes(router);
  registerTableRoutes(router);
  return router;
}


function listen(handler: http.RequestListener, port: number, host: string): Promise<http.Server> {
  return new Promise((resolve, reject) => {
    const server = http.createServer(handler);
    // Large uploads on a slow disk may take longer than Node's default of five minutes per request.
    server.requestTimeout = 60 * 60 * 1000;
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** Stops accepting, ends open connections, stops timers and the query engine, then flushes and closes the store. */
async function stop(server: http.Server, app: SandboxApp, closeStore: () => void): Promise<void> {
  app.lifecycle.stop();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // Requests still running get a moment to answer; then their connections are cut.
  const cut = setTimeout(() => server.closeAllConnections(), 1000);
  await closed;
  clearTimeout(cut);
  await app.queries.close();
  await app.engine.close();
  closeStore();
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= fn());
}
