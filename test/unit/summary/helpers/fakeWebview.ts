// A tiny stand-in for the webview's DOM, enough to run the Summary Preview page in plain Node.
// Every HTML-parsing sink throws, so a test fails the moment the page would parse a string as HTML.
import * as esbuild from 'esbuild';
import * as path from 'node:path';
import * as vm from 'node:vm';

const ROOT = path.join(__dirname, '..', '..', '..', '..');
/** The page's TypeScript source, and its style sheet (in media/, the only folder the webview loads from). */
export const PAGE_SOURCE = path.join(ROOT, 'src', 'webview', 'summaryPreview', 'main.ts');
export const PAGE_STYLE = path.join(ROOT, 'media', 'summaryPreview', 'main.css');

let bundled: string | undefined;

/** The page script bundled the way esbuild.mjs does (not minified, so failures read). */
export function pageScript(): string {
  bundled ??= esbuild.buildSync({ entryPoints: [PAGE_SOURCE], bundle: true, platform: 'browser', format: 'iife', target: 'es2022', write: false, logLevel: 'warning' }).outputFiles[0]?.text ?? '';
  return bundled;
}

const HTML_SINKS = ['innerHTML', 'outerHTML', 'srcdoc'];

/** An element of the fake page: text, value, attributes, classes and listeners. */
export class FakeElement {
  textContent = '';
  value = '';
  hidden = false;
  disabled = false;
  readonly attributes = new Map<string, string>();
  readonly classes = new Set<string>();
  readonly listeners = new Map<string, ((event: unknown) => void)[]>();
  readonly classList = {
    add: (c: string) => void this.classes.add(c),
    remove: (c: string) => void this.classes.delete(c),
    toggle: (c: string, on?: boolean) => ((on ?? !this.classes.has(c)) ? this.classes.add(c) : this.classes.delete(c), this.classes.has(c)),
    contains: (c: string) => this.classes.has(c),
  };

  constructor(readonly id: string) {
    for (const sink of HTML_SINKS) {
      Object.defineProperty(this, sink, {
        get: () => '',
        set: () => {
          throw new Error(`#${id}.${sink} was set: the page must never parse HTML`);
        },
      });
    }
  }

  insertAdjacentHTML(): never {
    throw new Error(`#${this.id}.insertAdjacentHTML was called: the page must never parse HTML`);
  }
  setAttribute(name: string, value: string): void {
    if (/^on/i.test(name) || name === 'style') throw new Error(`#${this.id} got an inline ${name} attribute`);
    this.attributes.set(name, value);
  }
  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }
  addEventListener(type: string, listener: (event: unknown) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  dispatch(type: string, event: Record<string, unknown> = {}): void {
    for (const listener of this.listeners.get(type) ?? []) listener({ preventDefault: () => undefined, ...event });
  }
}

export interface FakeWebview {
  element(id: string): FakeElement;
  /** Messages the page sent to the extension. */
  sent: unknown[];
  state: unknown;
  warnings: string[];
  /** Delivers a message as the webview host would (or from another origin, with `fromHost: false`). */
  receive(message: unknown, fromHost?: boolean): void;
  /** Runs the timers that are due after `ms` more milliseconds. */
  advance(ms: number): void;
}

/** Loads the page script into a fake page whose elements have the given IDs. */
export function loadPage(ids: readonly string[]): FakeWebview {
  const elements = new Map(ids.map((id) => [id, new FakeElement(id)]));
  const windowListeners: ((event: unknown) => void)[] = [];
  const origin = 'vscode-webview://host';
  let now = 0;
  let timers: { id: number; at: number; run: () => void }[] = [];
  let nextTimer = 1;
  const page: FakeWebview = {
    element: (id) => {
      const element = elements.get(id);
      if (!element) throw new Error(`no #${id}`);
      return element;
    },
    sent: [],
    state: undefined,
    warnings: [],
    receive: (message, fromHost = true) => {
      for (const listener of windowListeners) listener({ data: message, origin: fromHost ? origin : 'https://elsewhere.example' });
    },
    advance: (ms) => {
      now += ms;
      const due = timers.filter((t) => t.at <= now);
      timers = timers.filter((t) => t.at > now);
      for (const timer of due) timer.run();
    },
  };
  const document = {
    getElementById: (id: string) => elements.get(id) ?? null,
    write: () => {
      throw new Error('document.write was called');
    },
  };
  const context = {
    document,
    window: { origin, addEventListener: (type: string, listener: (event: unknown) => void) => type === 'message' && windowListeners.push(listener) },
    acquireVsCodeApi: () => ({ postMessage: (m: unknown) => page.sent.push(structuredClone(m)), setState: (s: unknown) => (page.state = structuredClone(s)), getState: () => page.state }),
    setTimeout: (run: () => void, ms: number) => {
      timers.push({ id: nextTimer, at: now + ms, run });
      return nextTimer++;
    },
    clearTimeout: (id: number | undefined) => {
      timers = timers.filter((t) => t.id !== id);
    },
    console: { warn: (...args: unknown[]) => page.warnings.push(args.join(' ')), log: () => undefined, error: () => undefined },
  };
  vm.runInNewContext(pageScript(), context, { filename: PAGE_SOURCE });
  return page;
}
