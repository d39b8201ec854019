// Organization A's slow work for the noisy-neighbour benchmark, in a thread of its own: building its
// large bodies and reading its answers then never holds the event loop that serves organization B.
import { parentPort, workerData } from 'node:worker_threads';
import { orgCall, slowWork } from './noisyNeighbour';

const { baseUrl, token, orgId } = workerData as { baseUrl: string; token: string; orgId: string };
const a = orgCall(baseUrl, token, orgId);
let stop = false;
parentPort!.on('message', (message) => {
  if (message === 'stop') stop = true;
});

void (async () => {
  let rounds = 0;
  while (!stop) {
    await slowWork(a);
    rounds++;
    parentPort!.postMessage({ rounds, done: false });
  }
  parentPort!.postMessage({ rounds, done: true });
})();
