// A benchmark workbench: code-server with the packaged .vsix and the bench runner installed, Debian's
// Chromium showing it (through the e2e suite's page object), and a typed channel to the runner
// inside the extension host. Reuses the test harness for every process it starts.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import type { Page } from 'playwright-core';
import { createProfile, installVsix, launchChromium, repoRoot, saveLogs, startCodeServer, type Profile } from '../../test/harness/index.mjs';
import { Workbench } from '../../test/e2e/support/workbench';
import { BenchEnv, type Hello, type HostTasks, SECRET_HEADER, type TaskName } from '../host/protocol';

const RUNNER_MANIFEST = {
  name: 'bench-host',
  displayName: 'Agent Workbench benchmark runner',
  description: 'Measures Agent Workbench from inside the extension host for npm run bench.',
  version: '0.0.1',
  publisher: 'agent-workbench-bench',
  private: true,
  engines: { vscode: '^1.100.0' },
  main: './extension.js',
  activationEvents: ['onStartupFinished'],
  // A reference tree in Agent Workbench's own view container, for the first-page benchmark.
  contributes: { views: { agentWorkbench: [{ id: 'agentWorkbenchBench.reference', name: 'Reference Tree' }] } },
};

/** Calls tasks of the bench runner in one extension host. */
export class HostClient {
  constructor(
    readonly hello: Hello,
    private readonly secret: string,
  ) {}

  get pid(): number {
    return this.hello.pid;
  }

  /** Runs a task in the extension host and returns its result; rejects with the host's error. */
  async call<K extends TaskName>(name: K, args?: HostTasks[K][0], timeoutMs = 120_000): Promise<HostTasks[K][1]> {
    let answer: { result?: HostTasks[K][1]; error?: string };
    let response: Response;
    try {
      response = await fetch(`http://127.0.0.1:${this.hello.port}/task/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SECRET_HEADER]: this.secret },
        body: args === undefined ? '' : JSON.stringify(args),
        signal: AbortSignal.timeout(timeoutMs),
      });
      answer = (await response.json()) as { result?: HostTasks[K][1]; error?: string };
    } catch (error) {
      // Which task hung is the one thing worth knowing when a row says it timed out.
      if (error instanceof DOMException && error.name === 'TimeoutError') throw new Error(`Host task ${name} did not answer within ${Math.round(timeoutMs / 1000)} s.`);
      throw error;
    }
    if (!response.ok) throw new Error(`Host task ${name} failed: ${answer.error ?? `HTTP ${response.status}`}`);
    return answer.result as HostTasks[K][1];
  }
}

/** Receives the runners' hellos (one per extension host the window starts). */
class HelloDesk {
  readonly server: http.Server;
  private readonly hellos: Hello[] = [];
  private waiting: (() => void) | undefined;

  constructor(private readonly secret: string) {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.headers[SECRET_HEADER] !== this.secret) return void res.writeHead(403).end();
        this.hellos.push(JSON.parse(body) as Hello);
        res.writeHead(204).end();
        this.waiting?.();
      });
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hello`;
  }

  /** The first hello from a host other than `previousPid`. */
  async next(previousPid: number | undefined, timeoutMs: number): Promise<Hello> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hello = this.hellos.find((h) => h.pid !== previousPid);
      if (hello) {
        this.hellos.splice(0, this.hellos.indexOf(hello) + 1);
        return hello;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('The bench runner never said hello: the extension host did not start (see bench/tmp/logs).');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }
}

export interface HostSession {
  workbench: Workbench;
  page: Page;
  host: HostClient;
  profile: Profile;
  /** Reloads the window (a new extension host) and returns the channel to its runner. */
  reload(): Promise<HostClient>;
  /** Copies the workbench logs to bench/tmp/logs. */
  saveLogs(): void;
  close(): Promise<void>;
}

async function installRunner(extensionsDir: string): Promise<void> {
  const dir = path.join(extensionsDir, `${RUNNER_MANIFEST.publisher}.${RUNNER_MANIFEST.name}-${RUNNER_MANIFEST.version}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(RUNNER_MANIFEST, null, 2)}\n`);
  await esbuild.build({
    entryPoints: [path.join(repoRoot, 'bench', 'host', 'extension.ts')],
    outfile: path.join(dir, 'extension.js'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    logLevel: 'warning',
    define: { __TEST_HOOKS__: 'true' },
  });
}

/** The extension as the benchmarks install it: the test build (test API, render reports, scroll measurement), packaged. */
export const testVsixPath = path.join(repoRoot, 'bench', 'tmp', 'agent-workbench-test.vsix');

/** Starts code-server (the packaged test build + runner), opens it in Chromium and waits for the runner. */
export async function startHostSession(settings: Record<string, unknown> = {}, vsixPath = testVsixPath): Promise<HostSession> {
  if (!fs.existsSync(vsixPath)) throw new Error(`${vsixPath} is missing: package first.`);
  const secret = randomBytes(16).toString('hex');
  const desk = new HelloDesk(secret);
  const profile = createProfile({ name: 'bench', settings });
  const stops: Array<() => Promise<void>> = [() => Promise.resolve(profile.dispose()), () => new Promise<void>((r) => desk.server.close(() => r()))];
  const close = async (): Promise<void> => {
    for (const stop of stops.splice(0)) await stop().catch((error: Error) => console.error(`  cleanup: ${error.message}`));
  };
  try {
    const helloUrl = await desk.listen();
    // The runner goes in first: installing the .vsix then records both in extensions.json (a folder
    // added after that would be treated as removed).
    await installRunner(profile.extensionsDir);
    await installVsix(vsixPath, profile);
    const env = { AGENT_WORKBENCH_TEST_API: '1', [BenchEnv.hello]: helloUrl, [BenchEnv.secret]: secret };
    const server = await startCodeServer({ ...profile, folder: profile.workspaceDir, env });
    stops.unshift(() => server.stop());
    const browser = await launchChromium();
    stops.unshift(() => browser.close());
    const page = await browser.context.newPage();
    // tsx compiles the benchmarks with esbuild's keepNames, which wraps named functions in an
    // `__name(fn, "name")` helper; functions handed to page.evaluate need it in the page too.
    await page.addInitScript({ content: 'globalThis.__name ??= (fn) => fn;' });
    const workbench = new Workbench(page);
    await workbench.open(server.url);
    let host = new HostClient(await desk.next(undefined, 120_000), secret);
    const session: HostSession = {
      workbench,
      page,
      profile,
      get host() {
        return host;
      },
      async reload() {
        const previous = host.pid;
        // Loading the page again ends this window's extension host and starts a fresh one.
        await workbench.open(server.url);
        host = new HostClient(await desk.next(previous, 120_000), secret);
        return host;
      },
      saveLogs: () => void saveLogs(profile, path.join(repoRoot, 'bench', 'tmp', 'logs')),
      close,
    };
    return session;
  } catch (error) {
    saveLogs(profile, path.join(repoRoot, 'bench', 'tmp', 'logs'));
    await close();
    throw error;
  }
}
