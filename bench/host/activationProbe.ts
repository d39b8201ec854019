// Watches the extension host's CommonJS loader (Module._load, which VS Code goes through to load an
// extension) so that one extension's activation is measured the way VS Code measures it: the
// require of its main file, then the call of its activate(). The files the loader's cache gained
// during those two synchronous windows are the code loaded at activation. The hook does no work for
// any other require (no resolution, no I/O), so it costs the measured extension nothing. It must be
// installed before the extension activates.
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import type { LoadedModule } from './protocol';

type Load = (request: string, parent: unknown, isMain: boolean) => unknown;
interface Loader {
  _load: Load;
  _cache: Record<string, unknown>;
}

/** What one activation of the watched extension looked like. */
export interface ProbeResult {
  codeLoadMs: number;
  activateCallMs: number;
  activateResolvedMs: number;
  modules: LoadedModule[];
}

interface Window {
  start: number;
  end: number;
  added: string[];
}

/** A hook on Module._load for one extension's main file. */
export class ActivationProbe {
  private readonly loader = Module as unknown as Loader;
  private readonly original: Load;
  private readonly root: string;
  private codeLoad: Window | undefined;
  private activateCall: Window | undefined;
  private activateResolvedEnd: number | undefined;
  private cacheAfterActivation: Set<string> | undefined;

  constructor(private readonly mainFile: string) {
    this.root = path.dirname(path.dirname(mainFile)) + path.sep;
    this.original = this.loader._load;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the wrapper below needs its own `this` (the caller's) as well as the probe
    const probe = this;
    this.loader._load = function (this: unknown, request: string, parent: unknown, isMain: boolean): unknown {
      if (probe.codeLoad !== undefined || !probe.isMain(request)) return probe.original.call(this, request, parent, isMain);
      let exports: unknown;
      probe.codeLoad = probe.measure(() => (exports = probe.original.call(this, request, parent, isMain)));
      return probe.wrapActivate(exports);
    };
  }

  /** Puts the loader back. */
  dispose(): void {
    this.loader._load = this.original;
  }

  /** Resolves once activate() has returned and its result settled; undefined when it never ran. */
  async result(timeoutMs: number): Promise<ProbeResult | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (this.activateResolvedEnd === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    if (!this.codeLoad || !this.activateCall || this.activateResolvedEnd === undefined) return undefined;
    return {
      codeLoadMs: this.codeLoad.end - this.codeLoad.start,
      activateCallMs: this.activateCall.end - this.activateCall.start,
      activateResolvedMs: this.activateResolvedEnd - this.activateCall.start,
      modules: [...this.codeLoad.added, ...this.activateCall.added].map(describe),
    };
  }

  /** Files of the extension's folder that were loaded since activate() returned (its lazy bundles). */
  loadedSinceActivation(): LoadedModule[] {
    const before = this.cacheAfterActivation ?? new Set<string>();
    return Object.keys(this.loader._cache)
      .filter((file) => !before.has(file) && file.startsWith(this.root))
      .map(describe);
  }

  /** VS Code requires the main file by its absolute path (with or without `.js`). */
  private isMain(request: string): boolean {
    return request === this.mainFile || `${request}.js` === this.mainFile;
  }

  /** Runs `fn` synchronously and returns its time and the files the loader's cache gained meanwhile. */
  private measure(fn: () => void): Window {
    const before = new Set(Object.keys(this.loader._cache));
    const start = performance.now();
    fn();
    // The end is read before the cache is compared: that comparison is the probe's work, not the extension's.
    const end = performance.now();
    return { start, end, added: Object.keys(this.loader._cache).filter((file) => !before.has(file)) };
  }

  /** The extension's exports with activate() timed; everything else as it was. */
  private wrapActivate(exports: unknown): unknown {
    const original = (exports as { activate?: unknown } | null)?.activate;
    if (typeof original !== 'function') return exports;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the wrapper below needs its own `this` (the caller's) as well as the probe
    const probe = this;
    const activate = function (this: unknown, ...args: unknown[]): unknown {
      let result: unknown;
      try {
        probe.activateCall = probe.measure(() => (result = (original as (...a: unknown[]) => unknown).apply(this, args)));
      } finally {
        probe.cacheAfterActivation = new Set(Object.keys(probe.loader._cache));
      }
      const settled = (): void => void (probe.activateResolvedEnd = performance.now());
      void Promise.resolve(result).then(settled, settled);
      return result;
    };
    // esbuild's CommonJS exports are getters that cannot be redefined: hand VS Code a copy instead.
    return { ...(exports as object), activate };
  }
}

function describe(file: string): LoadedModule {
  let bytes = 0;
  try {
    bytes = fs.statSync(file).size;
  } catch {
    // A file that vanished since: counted as nothing.
  }
  return { file, bytes };
}
