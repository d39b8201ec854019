// The rule for reaching src/core from the extension, whatever the file:
// - `import type` from anywhere: it costs nothing at run time.
// - A plain import only of a small core module that itself imports no package and neither the client nor
//   the zod schemas (format, limits, jobStatus, the store, the protocols…): it lands in dist/extension.js,
//   which VS Code evaluates at activation, so it must stay small (the "code loaded at activation" row of
//   bench/results.md).
// - Everything else — the client, zod schemas, checks built on them — through `loadCore()` (exported by
//   src/extension/core.ts into dist/core.js), and Handlebars and SQL editing through `lazyBundle`.
// So one file may do both: a direct import for a tiny helper and `loadCore()` for the client is the rule,
// not an inconsistency. test/unit/build/testHooks.test.ts fails when a package or the client reaches
// the activation bundle.
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

/** A bundle of dist/ loaded the first time it is needed (not at activation), then the same module each time. */
export function lazyBundle<T>(file: string): () => T {
  let module: T | undefined;
  // A computed path keeps esbuild from inlining the module into the activation bundle.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, on purpose (see above)
  return () => (module ??= require(path.join(__dirname, file)) as T);
}
