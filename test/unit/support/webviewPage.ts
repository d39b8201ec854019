// A webview page in headless Chromium, outside VS Code: the same markup, style sheet, bundled script
// and Content Security Policy as in the webview, with a stand-in for VS Code's messaging. Page tests
// drive it like a user; the benchmark reads its timings.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { createNonce, webviewHtml } from '../../../src/extension/webview/webviewHtml';
import { launchChromium } from '../../harness/index.mjs';

const root = path.resolve(__dirname, '../../..');

/** The page's window, as far as these helpers use it (the tests type-check without the DOM library). */
interface Window {
  postMessage(message: unknown, targetOrigin: string): void;
}

/** Which page to open: its script's entry, its style sheet and its static markup (paths from the repository root). */
export interface PageSpec {
  entry: string;
  css: string;
  body: string;
  title: string;
}

/** Bundles the page script the way esbuild.mjs does (not minified, so failures read). */
async function bundlePage(entry: string): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [path.join(root, entry)],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    write: false,
    logLevel: 'warning',
    // The test build: pages report what they painted and can scroll on request.
    define: { __TEST_HOOKS__: 'true' },
  });
  return result.outputFiles[0]?.text ?? '';
}

// Stands in for VS Code: acquireVsCodeApi, kept state, and a record of CSP violations and dialogs.
const INIT = `
  window.__sent = [];
  window.__violations = [];
  // Like VS Code, the page's state outlives a reload of the page.
  window.acquireVsCodeApi = () => ({
    postMessage: (m) => { window.__sent.push(m); window.__toHost(m); },
    getState: () => JSON.parse(sessionStorage.getItem('vscode-state') ?? 'null') ?? undefined,
    setState: (s) => sessionStorage.setItem('vscode-state', JSON.stringify(s)),
  });
  document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
`;

export interface WebviewTestPage<HostMessage, PageMessage extends { type: string }> {
  page: Page;
  /** Sends a message as the extension would. */
  post(message: HostMessage): Promise<void>;
  /** Waits for the page to send a message of this type that passes `test`. */
  next<T extends PageMessage['type']>(type: T, test?: (m: Extract<PageMessage, { type: T }>) => boolean, timeoutMs?: number): Promise<Extract<PageMessage, { type: T }>>;
  /** Reloads the page (as VS Code does when a hidden panel is shown again) and waits for its `ready`. */
  reload(): Promise<void>;
  /** Everything the page sent so far. */
  sent: PageMessage[];
  /** CSP violations and dialogs (alert, confirm) the page caused. */
  violations(): Promise<string[]>;
  dialogs: string[];
  close(): Promise<void>;
}

/** Opens a page in a fresh headless Chromium, served from 127.0.0.1 on a free port. */
export async function openWebviewPage<HostMessage, PageMessage extends { type: string }>(spec: PageSpec, viewport = { width: 1200, height: 800 }): Promise<WebviewTestPage<HostMessage, PageMessage>> {
  const script = await bundlePage(spec.entry);
  const css = fs.readFileSync(path.join(root, spec.css), 'utf8');
  const server = http.createServer((request, response) => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const files: Record<string, [string, string]> = {
      '/': ['text/html', webviewHtml({ title: spec.title, cspSource: origin, nonce: createNonce(), scriptUri: `${origin}/page.js`, styleUris: [`${origin}/page.css`], body: spec.body })],
      '/page.js': ['text/javascript', script],
      '/page.css': ['text/css', css],
    };
    const file = files[request.url ?? ''];
    response.writeHead(file ? 200 : 404, { 'content-type': file?.[0] ?? 'text/plain' }).end(file?.[1] ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await launchChromium({ viewport });
  const page = await browser.context.newPage();
  const sent: PageMessage[] = [];
  // Messages no waiter has taken yet: `next` looks here first.
  const inbox: PageMessage[] = [];
  const waiters: { type: string; test: (m: never) => boolean; resolve: (m: never) => void }[] = [];
  await page.exposeFunction('__toHost', (message: PageMessage) => {
    sent.push(message);
    const waiter = waiters.find((w) => w.type === message.type && w.test(message as never));
    if (!waiter) return void inbox.push(message);
    waiters.splice(waiters.indexOf(waiter), 1);
    waiter.resolve(message as never);
  });
  // Errors inside the page fail the tests that depend on them; printing them says why.
  page.on('pageerror', (error) => console.error(`${spec.title} page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') console.error(`${spec.title} page console: ${message.text()}`);
  });
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.addInitScript(INIT);
  const ready = new Promise<void>((resolve) => waiters.push({ type: 'ready', test: () => true, resolve: () => resolve() }));
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  await ready;
  return {
    page,
    sent,
    dialogs,
    post: async (message) => {
      await page.evaluate((m) => (globalThis as unknown as Window).postMessage(m, '*'), message as unknown);
    },
    next(type, test = () => true, timeoutMs = 10_000) {
      const earlier = inbox.find((m) => m.type === type && test(m as never));
      if (earlier) inbox.splice(inbox.indexOf(earlier), 1);
      return new Promise((resolve, reject) => {
        if (earlier) return resolve(earlier as never);
        const timer = setTimeout(() => reject(new Error(`The page sent no "${type}" message in ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ type, test: test, resolve: (m: never) => (clearTimeout(timer), resolve(m)) });
      });
    },
    async reload() {
      // What the page said before it reloaded is history.
      inbox.length = 0;
      const ready = new Promise<void>((resolve) => waiters.push({ type: 'ready', test: () => true, resolve: () => resolve() }));
      await page.reload();
      await ready;
    },
    violations: () => page.evaluate(() => (globalThis as unknown as { __violations: string[] }).__violations),
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
