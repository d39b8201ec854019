import type { IncomingMessage } from 'node:http';
import type { TokenBook } from './auth';
import type { QueryFields } from './http/queryParams';
import type { Reply } from './http/router';
import type { JobEngine } from './engine/engineThreads';
import type { JobLifecycle } from './jobs/lifecycle';
import type { QueryTasks } from './queryTasks';
import type { SandboxDb } from './store/database';
import type { TableStore } from './tables/tableStore';

/** Size limits of request bodies. */
export interface Limits {
  /** JSON bodies; larger ones are answered 413. */
  jsonBytes: number;
  /** One uploaded file; larger ones are answered 413 and leave nothing behind. */
  uploadBytes: number;
}

/** Everything the handlers share: the store, the files folder, the timers and the limits. */
export interface SandboxApp {
  db: SandboxDb;
  filesDir: string;
  tokens: TokenBook;
  lifecycle: JobLifecycle;
  /** Judges the jobs that start, in worker threads. */
  engine: JobEngine;
  queries: QueryTasks;
  /** The organizations' uploaded tables (the tables API). */
  tables: TableStore;
  limits: Limits;
  now(): number;
  log(line: string): void;
}

/** The caller, as found from the bearer token. */
export interface AuthUser {
  id: number;
  orgIds: ReadonlySet<string>;
}

/** One request as a handler sees it. */
export interface RequestContext {
  req: IncomingMessage;
  url: URL;
  /** Path parameters, already checked to be UUIDs and lower-cased. */
  params: Record<string, string>;
  query: QueryFields;
  user: AuthUser;
  app: SandboxApp;
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

/** A 200/201/202 JSON reply. */
export function ok(body: unknown, status = 200): Reply {
  return { status, body };
}

/** 204 with no body. */
export function noContent(): Reply {
  return { status: 204 };
}
