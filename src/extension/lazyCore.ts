import * as path from 'node:path';

/** The shape of `dist/core.js`. */
export type Core = typeof import('./core');

let loaded: Core | undefined;

/** Loads the client bundle the first time it is needed (after activation), then returns the same module. */
export function loadCore(): Core {
  // A computed path keeps esbuild from inlining the module into the activation bundle.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand from a path computed at run time (see above)
  loaded ??= require(path.join(__dirname, 'core.js')) as Core;
  return loaded;
}
