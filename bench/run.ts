// `npm run bench`: packages the extension, starts a fresh large-seed sandbox, runs every benchmark
// (plain Node first, then those that need the extension host and the browser, in one code-server
// session) and writes bench/results.md, bench/results.json and the table in docs/benchmarks.md. It reports
// figures out of budget and exits 0 for them; a row it could not measure is written with the reason and
// makes it exit 1. `npm run bench -- --only activation,grid` runs some of them.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureChromium, ensureCodeServer, packageTestBuild, repoRoot, vsixPath } from '../test/harness/index.mjs';
import { activation } from './benchmarks/activation';
import { clientOverhead } from './benchmarks/clientOverhead';
import { comparison } from './benchmarks/comparison';
import { comparisonView } from './benchmarks/comparisonView';
import { grid } from './benchmarks/grid';
import { jobWatching } from './benchmarks/jobWatching';
import { labelling } from './benchmarks/labelling';
import { largeTree } from './benchmarks/largeTree';
import { mcpOverhead } from './benchmarks/mcpOverhead';
import { noisyNeighbour } from './benchmarks/noisyNeighbour';
import { liveChecks } from './benchmarks/liveChecks';
import { sandboxLatency } from './benchmarks/sandboxLatency';
import { sqlCompletion, sqlCompletionInHost } from './benchmarks/sqlCompletion';
import { tableUpload } from './benchmarks/tableUpload';
import { runs } from './benchmarks/runs';
import { runToRow } from './benchmarks/runToRow';
import { ruleCoverageBench } from './benchmarks/ruleCoverage';
import { soak } from './benchmarks/soak';
import { upload } from './benchmarks/upload';
import { type Figure, notMeasured, size } from './lib/figures';
import { type HostSession, startHostSession, testVsixPath } from './lib/hostSession';
import { describeMachine, finishMachine } from './lib/machine';
import { BENCH_TABLE_PAGE, updateBenchTable, writeResults } from './lib/report';
import { RawHttp, type Sandbox, loadCoreBundle, startSandbox } from './lib/services';

const benchDir = path.join(repoRoot, 'bench');
const tmpDir = path.join(benchDir, 'tmp');
const VSIX_BUDGET = 1024 * 1024;

/** A benchmark: what it needs and, when it cannot run, the row it leaves in the table. */
interface Bench {
  name: string;
  title: string;
  budget: string;
  needsHost: boolean;
  /** Its own time limit (default {@link DEFAULT_LIMIT_MS}): past it, its row says so and the run goes on. */
  limitMs?: number;
  run(world: World): Promise<Figure[]>;
}

const DEFAULT_LIMIT_MS = 10 * 60_000;

interface World {
  sandbox: Sandbox;
  session?: HostSession;
}

const session = (world: World): HostSession => {
  if (!world.session) throw new Error('The code-server session did not start.');
  return world.session;
};

const BENCHES: Bench[] = [
  { name: 'vsix', title: '.vsix size', budget: '≤ 1 MB', needsHost: false, run: () => Promise.resolve(vsixFigures()) },
  { name: 'sandbox', title: 'sandbox: jobs page at 100,000 jobs', budget: 'p99 ≤ 20 ms', needsHost: false, run: (w) => withRaw(w.sandbox, sandboxLatency) },
  { name: 'noisyNeighbour', title: 'sandbox: noisy neighbour', budget: '≤ 2× alone', needsHost: false, run: () => noisyNeighbour() },
  { name: 'client', title: 'client overhead', budget: '≥ 0.9× raw throughput', needsHost: false, run: (w) => clientOverhead(w.sandbox, loadCoreBundle()) },
  { name: 'activation', title: 'activation', budget: '≤ 25 ms', needsHost: true, run: (w) => activation(session(w), path.join(repoRoot, 'dist')) },
  { name: 'tree', title: 'first page of a large tree', budget: '≤ 1.15× the minimal extension', needsHost: true, run: (w) => largeTree(session(w), w.sandbox) },
  // The frame rows measure a floor page beside each run of ours: twice the traces, twice the time.
  { name: 'grid', title: 'grid', budget: 'result arrived → rows ≤ 0.15 s; p95 frame ≤ 1.25× its floor', needsHost: true, limitMs: 20 * 60_000, run: (w) => grid(session(w), w.sandbox, tmpDir) },
  { name: 'comparisonView', title: 'comparison view', budget: 'first rows ≤ 150 ms after ready; p95 frame ≤ 1.25× its floor', needsHost: true, limitMs: 20 * 60_000, run: (w) => comparisonView(session(w), tmpDir) },
  { name: 'labelling', title: 'labelling 200 cases by keyboard', budget: 'key → next case p95 ≤ the page’s floor + one frame', needsHost: true, limitMs: 15 * 60_000, run: (w) => labelling(session(w), tmpDir) },
  { name: 'upload', title: 'upload 1 GiB', budget: '≥ 0.9× curl; memory growth ≤ 50 MB', needsHost: true, limitMs: 15 * 60_000, run: (w) => upload(session(w), w.sandbox, tmpDir) },
  { name: 'comparison', title: 'comparison: 1,000 cases × 3 targets', budget: '≤ 1 status poll per interval; rows ≤ 1 s after the last result; posts less than the whole', needsHost: false, run: () => comparison(loadCoreBundle()) },
  { name: 'watch', title: 'job watching', budget: '1 request per interval; 0 when nothing runs', needsHost: true, run: (w) => jobWatching(session(w), loadCoreBundle()) },
  { name: 'sqlCompletion', title: 'SQL completion, 200 tables × 50 columns', budget: 'p95 ≤ 50 ms', needsHost: false, run: () => Promise.resolve(sqlCompletion()) },
  { name: 'sqlCompletionHost', title: 'SQL completion in the extension host, 200 tables × 50 columns', budget: 'p95 ≤ 50 ms', needsHost: true, run: (w) => sqlCompletionInHost(session(w), w.sandbox) },
  { name: 'tableUpload', title: 'CSV table upload 100 MB', budget: '≥ 0.8× curl; memory growth ≤ 50 MB', needsHost: false, run: (w) => tableUpload(w.sandbox, loadCoreBundle(), tmpDir) },
  { name: 'runs', title: 'runs and results', budget: 'Run ≤ 1.5× one raw request; 1 request for 100 results', needsHost: false, run: (w) => runs(w.sandbox, loadCoreBundle()) },
  { name: 'mcp', title: 'MCP: a read tool over stdio', budget: '≤ 1.2× the same client call', needsHost: false, run: (w) => mcpOverhead(w.sandbox, loadCoreBundle()) },
  { name: 'runToRow', title: 'Run → the new row', budget: '≤ 1 round trip + one frame', needsHost: true, run: (w) => runToRow(session(w), w.sandbox) },
  { name: 'ruleCoverage', title: 'rule coverage: 200 rules × 1,000 cases', budget: '≤ 1× reading the comparison', needsHost: false, run: () => Promise.resolve(ruleCoverageBench(loadCoreBundle())) },
  { name: 'liveChecks', title: 'checks while typing', budget: 'largest document within 50 ms ≥ the size cap', needsHost: false, run: () => liveChecks(loadCoreBundle()) },
  { name: 'soak', title: 'a long session', budget: 'heap growth ≤ 10 MB', needsHost: true, limitMs: 15 * 60_000, run: (w) => soak(session(w), w.sandbox) },
];

async function withRaw(sandbox: Sandbox, fn: (raw: RawHttp) => Promise<Figure[]>): Promise<Figure[]> {
  const raw = new RawHttp(sandbox);
  try {
    return await fn(raw);
  } finally {
    await raw.close();
  }
}

/** The .vsix users get; it ships no screenshot (the details page shows only https images). */
function vsixFigures(): Figure[] {
  const bytes = fs.statSync(vsixPath).size;
  return [
    { key: 'vsix.size', title: '.vsix size', ours: size(bytes), reference: '—', ratio: null, budget: '≤ 1 MB', within: bytes <= VSIX_BUDGET, method: '`npm run package` (esbuild bundles, then vsce with .vscodeignore), size of agent-workbench.vsix.', values: { bytes } },
  ];
}

function packageExtension(): void {
  const result = spawnSync('npm', ['run', '--silent', 'package'], { cwd: repoRoot, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm run package failed:\n${(result.stdout + result.stderr).slice(-3000)}`);
}

/** curl is the upload benchmark's reference: installed from Debian when missing and running as root. */
function ensureCurl(): void {
  if (fs.existsSync('/usr/bin/curl')) return;
  if (process.getuid?.() !== 0) throw new Error('curl is missing: install it (sudo apt-get install -y curl) and run again.');
  console.log('Installing curl (Debian package)...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'curl']]) {
    const result = spawnSync('apt-get', args, { env, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed:\n${(result.stdout + result.stderr).slice(-2000)}`);
  }
}

function codeServerVersion(entry: string): string {
  const manifest = path.resolve(path.dirname(entry), '..', '..', 'package.json');
  return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** Runs one benchmark; a failure becomes a "not measured" row with the reason. */
async function runBench(bench: Bench, world: World): Promise<Figure[]> {
  const started = Date.now();
  console.log(`▶ ${bench.name}`);
  const limitMs = bench.limitMs ?? DEFAULT_LIMIT_MS;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`It did not finish within its limit of ${Math.round(limitMs / 60_000)} min.`)), limitMs);
  });
  try {
    const figures = await Promise.race([bench.run(world), limit]);
    for (const f of figures) console.log(`  ${f.title}: ${f.ours} (${f.reference}) — ${f.within ? 'within budget' : 'OUT OF BUDGET'}`);
    return figures;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`  ${bench.name} could not be measured: ${message}`);
    return [notMeasured(bench.name, bench.title, bench.budget, '', message.split('\n')[0] ?? message)];
  } finally {
    clearTimeout(timer);
    console.log(`  (${Math.round((Date.now() - started) / 1000)} s)`);
  }
}

/** `--only a,b` or `--only=a,b`: the benchmarks to run (a partial run writes to bench/tmp only). */
function onlyArgument(argv: string[]): Set<string> | undefined {
  const at = argv.indexOf('--only');
  const value = argv.find((a) => a.startsWith('--only='))?.slice('--only='.length) ?? (at >= 0 ? argv[at + 1] : undefined);
  if (!value) return undefined;
  const names = new Set(value.split(','));
  const unknown = [...names].filter((n) => !BENCHES.some((b) => b.name === n));
  if (unknown.length) throw new Error(`Unknown benchmark ${unknown.join(', ')}; there are ${BENCHES.map((b) => b.name).join(', ')}.`);
  return names;
}

async function main(): Promise<void> {
  const wanted = onlyArgument(process.argv.slice(2));
  const benches = BENCHES.filter((b) => !wanted || wanted.has(b.name));
  const startedAt = new Date();
  fs.mkdirSync(tmpDir, { recursive: true });
  console.log('Packaging the extension and preparing code-server and Chromium...');
  const [entry] = await Promise.all([ensureCodeServer(), Promise.resolve(packageExtension())]);
  // The .vsix figure is the build users get; the extension host runs the test build (its test API drives the benchmarks).
  if (benches.some((b) => b.needsHost)) await packageTestBuild(testVsixPath);
  await ensureChromium();
  if (benches.some((b) => b.name === 'upload' || b.name === 'tableUpload')) ensureCurl();
  const machine = describeMachine(codeServerVersion(entry));
  console.log('Starting the large-seed sandbox (10,000 agents, 100,000 jobs)...');
  const world: World = { sandbox: await startSandbox('large') };
  const figures: Figure[] = [];
  try {
    for (const bench of benches.filter((b) => !b.needsHost)) figures.push(...(await runBench(bench, world)));
    const hosted = benches.filter((b) => b.needsHost);
    if (hosted.length > 0) {
      try {
        world.session = await startHostSession();
      } catch (error) {
        console.error(`The code-server session could not start: ${error instanceof Error ? error.message : String(error)}`);
      }
      for (const bench of hosted) figures.push(...(await runBench(bench, world)));
    }
  } finally {
    if (figures.some((f) => f.within === null)) world.session?.saveLogs();
    await world.session?.close();
    await world.sandbox.stop();
  }
  finishMachine(machine);
  const report = { startedAt: startedAt.toISOString(), durationS: (Date.now() - startedAt.getTime()) / 1000, machine, figures };
  if (wanted) {
    fs.writeFileSync(path.join(tmpDir, 'results-partial.json'), `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nA partial run (--only): written to bench/tmp/results-partial.json, not to bench/results.*.`);
  } else {
    writeResults(benchDir, report);
    const table = updateBenchTable(path.join(repoRoot, BENCH_TABLE_PAGE), report, path.join(benchDir, 'results.md'));
    console.log(`\nWrote bench/results.md and bench/results.json${table ? ` and the table in ${BENCH_TABLE_PAGE}` : ` (${BENCH_TABLE_PAGE} has no bench markers)`}.`);
  }
  console.log(`Done in ${Math.round(report.durationS)} s.`);
  // A figure out of budget is reported; a row that could not be measured fails the run, loudly.
  const unmeasured = figures.filter((f) => f.within === null);
  if (unmeasured.length > 0) {
    console.error(`\n${unmeasured.length} row(s) could not be measured:\n${unmeasured.map((f) => `  ${f.title}: ${f.problem ?? 'no reason given'}`).join('\n')}`);
    process.exitCode = 1;
  }
}

process.on('SIGINT', () => process.exit(130));
main().then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    // The runner itself failed (packaging, the sandbox): that is not a figure, so it is an error.
    console.error(`npm run bench could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
