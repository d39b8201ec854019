// Where a worker's code is. Bundled, `dist/<name>.js` sits next to the bundle that holds this code;
// from the TypeScript sources (tests, through tsx), it is a source file, and the worker thread must
// load tsx itself (mocha's `--require` does not reach into workers).

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WorkerOptions } from 'node:worker_threads';

/** A dev-only dependency, resolved at run time (never bundled): only the TypeScript sources need it. */
const TSX_REGISTER: string = 'tsx/cjs';

export interface WorkerLocation {
  filename: string;
  options: WorkerOptions;
}

/** How to start a worker from here: the bundled script (`<name>.js`), or its TypeScript source through tsx. */
export function workerLocation(bundledName: string, sourceFromHere: string, label: string): WorkerLocation {
  const bundled = path.join(__dirname, `${bundledName}.js`);
  if (fs.existsSync(bundled)) return { filename: bundled, options: {} };
  const source = path.join(__dirname, sourceFromHere);
  if (!fs.existsSync(source)) throw new Error(`The ${label} is missing: neither ${bundled} nor ${source} exists.`);
  const tsx = require.resolve(TSX_REGISTER);
  const bootstrap = `require(${JSON.stringify(tsx)});\nrequire(${JSON.stringify(source)});`;
  return { filename: bootstrap, options: { eval: true } };
}
