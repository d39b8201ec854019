import * as assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { INIT_TRY } from '../../../src/cli/initFiles';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * The command line as a team installs it: the bundles built into a scratch copy of the package, packed
 * with `npm pack` (what .npmignore lets in), installed from the tarball into an empty folder with no
 * registry, and run from there.
 */
describe('the command line package (packed, installed into an empty folder, run from there)', function () {
  this.timeout(240_000);
  let scratch: string;
  let bin: string;
  let tarballFiles: string[];
  let installed: string;
  let manifestAfterPack: string;
  before(async () => {
    scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'aw-pack-'));
    const pkg = path.join(scratch, 'pkg');
    await fs.mkdir(pkg);
    await fs.mkdir(path.join(pkg, 'scripts'));
    for (const file of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', '.npmignore', 'scripts/packManifest.mjs']) await fs.copyFile(path.join(root, file), path.join(pkg, file));
    await run(process.execPath, [path.join(root, 'esbuild.mjs'), '--sandbox-only', `--out=${pkg}`], { cwd: root });
    const packed = await run(npm, ['pack', '--json', '--pack-destination', scratch], { cwd: pkg });
    const info = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    tarballFiles = info[0]!.files.map((f) => f.path).sort();
    const project = path.join(scratch, 'project');
    await fs.mkdir(project);
    await fs.writeFile(path.join(project, 'package.json'), '{"name":"a-team-repo","private":true}\n');
    await run(npm, ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', path.join(scratch, info[0]!.filename)], { cwd: project });
    bin = path.join(project, 'node_modules', '.bin', 'agent-workbench');
    installed = path.join(project, 'node_modules', 'agent-workbench');
    manifestAfterPack = await fs.readFile(path.join(pkg, 'package.json'), 'utf8');
  });
  after(() => fs.rm(scratch, { recursive: true, force: true }));

  it('carries the command line, the sandbox and its workers, and nothing of the sources or the extension', () => {
    assert.deepEqual(tarballFiles, ['CHANGELOG.md', 'LICENSE', 'README.md', 'dist/cli.js', 'dist/engineWorker.js', 'dist/queryWorker.js', 'dist/sandbox.js', 'dist/sql-wasm.wasm', 'package.json']);
  });

  it('installs a manifest whose main is absent or a file it carries, while the extension keeps its main for VS Code', async () => {
    const manifest = JSON.parse(await fs.readFile(path.join(installed, 'package.json'), 'utf8')) as { main?: string; bin?: Record<string, string> };
    if (manifest.main !== undefined) await fs.access(path.join(installed, manifest.main));
    await fs.access(path.join(installed, manifest.bin!['agent-workbench']!));
    assert.equal(manifestAfterPack, await fs.readFile(path.join(root, 'package.json'), 'utf8'), 'packing leaves package.json as it was');
    assert.equal((JSON.parse(manifestAfterPack) as { main?: string }).main, './dist/extension.js');
  });

  it('prints its help, and each command its own, from the installed bin and through npx', async () => {
    const help = await run(bin, ['--help']);
    assert.match(help.stdout, /^Usage: agent-workbench <command>/);
    assert.match((await run(bin, ['mcp', '--help'])).stdout, /--read-only/);
    const viaNpx = await run(npm, ['exec', '--offline', '--', 'agent-workbench', '--help'], { cwd: path.dirname(path.dirname(path.dirname(bin))) });
    assert.match(viaNpx.stdout, /^Usage: agent-workbench <command>/, 'npx gives the command its --help, not npm');
  });

  it('gives the sandbox’s own help and mistakes in its words, as the installed command names them', async () => {
    const help = await run(bin, ['sandbox', '--help']);
    assert.match(help.stdout, /^Usage: agent-workbench sandbox \[options\]/);
    assert.match(help.stdout, /--seed NAME/);
    assert.doesNotMatch(help.stdout + help.stderr, /npm run sandbox/);
    const bad = await run(bin, ['sandbox', '--bogus']).then(() => assert.fail('an unknown option must not start the sandbox'), (error: { code: number; stderr: string }) => error);
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr, 'agent-workbench sandbox: unknown option --bogus.\nSee agent-workbench sandbox --help.\n');
  });

  it('walks the docs’ recipe from a folder with only the package: init, the sandbox, then the trial passes its gate', async () => {
    // The commands as docs/command-line.md gives them (Getting started without the editor), run as written.
    const docs = await fs.readFile(path.join(root, 'docs', 'command-line.md'), 'utf8');
    const recipe = docs.split('## Getting started without the editor')[1]!.split('```sh\n')[1]!.split('```')[0]!;
    const command = (name: string): string[] => {
      const line = recipe.split('\n').find((l) => l.startsWith(`npx agent-workbench ${name} `) || l === `npx agent-workbench ${name}`);
      assert.ok(line, `the recipe runs agent-workbench ${name}`);
      return line.replace(/#.*$/, '').replace(/>.*$/, '').trim().split(/\s+/).slice(2);
    };
    const tryArgs = command('try');
    assert.equal(`npx agent-workbench ${tryArgs.join(' ')}`, INIT_TRY, 'the README init writes gives the same command');
    assert.ok(docs.includes(`    - ${INIT_TRY}\n`), 'so does the CI job');
    const folder = path.dirname(path.dirname(path.dirname(bin)));
    const init = await run(bin, command('init'), { cwd: folder });
    assert.match(init.stdout, /^Wrote README\.md, \.env\.example, \.gitignore, cases\/support-call-qa\.testset\.jsonl, policies\/quality\.policy\.json\./);
    // A free port instead of the recipe's 4010, and quicker jobs; the ready line read from stdout instead of sandbox.json.
    const sandboxArgs = command('sandbox').map((a) => (a === '4010' ? '0' : a));
    const sandbox = spawn(bin, [...sandboxArgs, '--job-step-ms', '50'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const ready = await new Promise<{ baseUrl: string; organizationId: string; token: string }>((resolve, reject) => {
        sandbox.stdout.once('data', (d: Buffer) => resolve(JSON.parse(d.toString().split('\n')[0]!) as { baseUrl: string; organizationId: string; token: string }));
        sandbox.once('exit', (code) => reject(new Error(`the sandbox ended (${code})`)));
      });
      const env = { ...process.env, AGENT_WORKBENCH_BASE_URL: ready.baseUrl, AGENT_WORKBENCH_TOKEN: ready.token, AGENT_WORKBENCH_ORGANIZATION_ID: ready.organizationId };
      const tried = await run(bin, tryArgs, { env, cwd: folder });
      assert.match(tried.stdout, /Support Call QA: accuracy 58% → 75%: 3 cases became right, 1 became wrong\./);
      assert.match(await fs.readFile(path.join(folder, 'trial', 'support-call-qa.trial.comparison.md'), 'utf8'), /\*\*Gate met\*\*/);
    } finally {
      sandbox.kill('SIGTERM');
    }
  });
  it('stops a trial cleanly on Ctrl+C from the installed command: its jobs cancelled, its copies removed, exit 130, and clean-up finds nothing left', async () => {
    const folder = await fs.mkdtemp(path.join(scratch, 'stop-'));
    await run(bin, ['init'], { cwd: folder });
    // Jobs that take minutes per step: the trial is still running when it is stopped.
    const sandbox = spawn(bin, ['sandbox', '--port', '0', '--memory', '--job-step-ms', '600000'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const ready = await new Promise<{ baseUrl: string; organizationId: string; token: string }>((resolve, reject) => {
        sandbox.stdout.once('data', (d: Buffer) => resolve(JSON.parse(d.toString().split('\n')[0]!) as { baseUrl: string; organizationId: string; token: string }));
        sandbox.once('exit', (code) => reject(new Error(`the sandbox ended (${code})`)));
      });
      const env = { ...process.env, AGENT_WORKBENCH_BASE_URL: ready.baseUrl, AGENT_WORKBENCH_TOKEN: ready.token, AGENT_WORKBENCH_ORGANIZATION_ID: ready.organizationId };
      const trial = spawn(bin, ['try', '--policy', 'policies/quality.policy.json', '--test-set', 'cases/support-call-qa.testset.jsonl', '--out', 'trial'], { cwd: folder, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      trial.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      trial.stdout.resume();
      const exited = new Promise<number | null>((resolve) => trial.on('exit', (code) => resolve(code)));
      // Started once its comparison file names jobs.
      const comparison = path.join(folder, 'trial', 'support-call-qa.trial.comparison.json');
      for (let i = 0; i < 600; i++) {
        const text = await fs.readFile(comparison, 'utf8').catch(() => '');
        if (/"jobId"/.test(text)) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      trial.kill('SIGINT');
      assert.equal(await exited, 130, stderr);
      assert.match(stderr, /Stopping: cancelling \d+ jobs? and removing the trial copies/);
      assert.match(stderr, /Stopped: removed \d+ trial cop(y|ies); nothing of the trial is left\./);
      const left = await run(bin, ['clean-up'], { env, cwd: folder });
      assert.match(left.stdout, /^No trial copy of .+ is left on the service\./);
    } finally {
      sandbox.kill('SIGTERM');
    }
  });
});
