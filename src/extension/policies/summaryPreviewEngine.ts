import * as path from 'node:path';

/** The shape of `dist/summary.js` (Handlebars, the JSON reading and the sample builder). */
export type SummaryEngine = typeof import('../../core/summary');

let loaded: SummaryEngine | undefined;

/** Loads the summary engine the first time a preview needs it, then returns the same module. */
export function loadSummaryEngine(): SummaryEngine {
  // A computed path keeps esbuild from inlining Handlebars into the activation bundle.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand from a path computed at run time (see above)
  loaded ??= require(path.join(__dirname, 'summary.js')) as SummaryEngine;
  return loaded;
}
