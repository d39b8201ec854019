// The engine worker: judges jobs (engineRun.ts) in its own thread, so that one organization's large
// run never holds up another organization's requests on the server's thread.

import { parentPort } from 'node:worker_threads';
import type { ThreadMessage } from '../workers/threadWorker';
import { runEngine } from './engineRun';
import type { EngineAnswer, EngineThreadRequest } from './engineThreads';

const port = parentPort;
if (!port) throw new Error('the engine worker must run in a worker thread');
const post = (message: ThreadMessage<EngineAnswer>) => port.postMessage(message);
port.on('message', ({ id, request }: EngineThreadRequest) => {
  let answer: EngineAnswer;
  try {
    answer = { ok: true, outcome: runEngine(request) };
  } catch (error) {
    answer = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  post({ kind: 'outcome', id, outcome: answer });
});
post({ kind: 'ready' });
