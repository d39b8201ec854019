// The sandbox's engine as the server uses it: jobs are judged in worker threads shared fairly by the
// organizations (see workers/), never on the thread that answers requests.

import { WorkerPool } from '../workers/workerPool';
import { workerLocation } from '../workers/workerLocation';
import type { EngineOutcome, EngineRequest } from './engineRun';

/** Main thread to engine thread. */
export interface EngineThreadRequest {
  id: number;
  request: EngineRequest;
}

/** Engine thread to main thread: the outcome, or why there is none. */
export type EngineAnswer = { ok: true; outcome: EngineOutcome } | { ok: false; error: string };

/** Judges jobs off the server's thread. */
export interface JobEngine {
  /** The outcome of one job of an organization; rejects with a sentence when the engine could not judge it. */
  judge(orgId: string, request: EngineRequest): Promise<EngineOutcome>;
  close(): Promise<void>;
}

/** Threads of the engine: organizations judged at the same time. */
const ENGINE_THREADS = 2;
/** Judging is linear in rules × input; this bound only stops a thread that hangs. */
const ENGINE_TIMEOUT_MS = 60_000;

/** Creates the engine; no thread starts until the first job. */
export function createJobEngine(): JobEngine {
  const pool = new WorkerPool<EngineThreadRequest, EngineAnswer>({
    location: () => workerLocation('engineWorker', '../engine/worker.ts', 'engine worker'),
    threads: ENGINE_THREADS,
    timeoutMs: ENGINE_TIMEOUT_MS,
    failure: (error) => ({ ok: false, error }),
    what: 'engine',
    timedOut: (limit) => `The engine did not judge the job within ${limit}.`,
  });
  return {
    async judge(orgId, request) {
      const answer = await pool.run(orgId, { request });
      if (!answer.ok) throw new Error(answer.error);
      return answer.outcome;
    },
    close: () => pool.close(),
  };
}
