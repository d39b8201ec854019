// Where the query worker's code is. Bundled, `dist/queryWorker.js` sits next to the bundle that
// holds this code; from the TypeScript sources (tests, through tsx), the worker is `worker.ts`, and
// the worker thread must load tsx itself (mocha's `--require` does not reach into workers).

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WorkerOptions } from 'node:worker_threads';

/** A dev-only dependency, resolved at run time (never bundled): only the TypeScript sources need it. */
const TSX_REGISTER: string = 'tsx/cjs';

export interface WorkerLocation {
  filename: string;
  options: WorkerOptions;
}

/** How to start the query worker from here: the bundled script, or the TypeScript source through tsx. */
export function queryWorkerLocation(): WorkerLocation {
  const bundled = path.join(__dirname, 'queryWorker.js');
  if (fs.existsSync(bundled)) return { filename: bundled, options: {} };
  const source = path.join(__dirname, 'worker.ts');
  if (!fs.existsSync(source)) throw new Error(`The query worker is missing: neither ${bundled} nor ${source} exists.`);
  const tsx = require.resolve(TSX_REGISTER);
  const bootstrap = `require(${JSON.stringify(tsx)});\nrequire(${JSON.stringify(source)});`;
  return { filename: bootstrap, options: { eval: true } };
}
