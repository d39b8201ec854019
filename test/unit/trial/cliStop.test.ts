import * as assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/cli';
import type { CliProcess, StopSignal } from '../../../src/cli/stopSignals';
import type { ServiceClient } from '../../../src/core/client';
import { parseComparison } from '../../../src/core/comparison/comparisonRecord';
import { testCaseLine } from '../../../src/core/comparison/testSet';
import { JobStatus } from '../../../src/core/jobStatus';
import { policyFileText } from '../../../src/core/trial/policyFile';
import { findLeftovers, removeLeftovers } from '../../../src/core/trial/trialEnd';
import { DEMO_LOOP_POLICY_ID } from '../../../src/sandbox/seed/demoLoop';
import { ROOT, TSX_NODE } from '../sandbox/cliProcess';
import { eventually, startTestSandbox, type TestSandbox } from '../sandbox/helpers';
import { clientOf, editedDemoPolicy, LOOP_CASE } from './trialHelpers';

/** The command line as a user runs it: its own process, stopped by real signals. */
interface CliChild {
  child: ChildProcess;
  stderr(): string;
  exited: Promise<number | null>;
}

describe('agent-workbench try stopped by Ctrl+C or SIGTERM (jobs that never finish on their own)', function () {
  this.timeout(60_000);
  let t: TestSandbox;
  let client: ServiceClient;
  let dir: string;
  const children: ChildProcess[] = [];
  before(async () => {
    // A sandbox whose jobs move only when told to: the trial's jobs stay running until cancelled.
    t = await startTestSandbox({ clock: { now: () => Date.now() } });
    client = clientOf(t);
  });
  after(async () => {
    await client.close();
    await t.close();
  });
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'aw-stop-'));
    const edit = await editedDemoPolicy(client);
    await fs.writeFile(path.join(dir, 'quality.policy.json'), policyFileText({ id: DEMO_LOOP_POLICY_ID, name: edit.name }, edit.baseVersionId, edit.content));
    await fs.writeFile(path.join(dir, 'loop.testset.jsonl'), `${testCaseLine(LOOP_CASE)}\n`);
  });
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    t.sandbox.clearFaults();
    await removeLeftovers(client, await findLeftovers(client));
    await fs.rm(dir, { recursive: true, force: true });
  });

  const env = (): Record<string, string> => ({ AGENT_WORKBENCH_BASE_URL: t.baseUrl, AGENT_WORKBENCH_TOKEN: t.token, AGENT_WORKBENCH_ORGANIZATION_ID: t.orgId });
  const tryArgs = (): string[] => ['try', '--policy', path.join(dir, 'quality.policy.json'), '--test-set', path.join(dir, 'loop.testset.jsonl'), '--out', dir];

  function spawnCli(args: string[]): CliChild {
    const child = spawn(TSX_NODE[0], [...TSX_NODE.slice(1), 'src/cli/main.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env() }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.resume();
    return { child, stderr: () => stderr, exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
  }

  /** The trial's job ids once both its targets' jobs are started (the comparison file names them). */
  async function runningJobs(): Promise<string[]> {
    return eventually(
      async () => {
        const text = await fs.readFile(path.join(dir, 'loop.trial.comparison.json'), 'utf8').catch(() => undefined);
        const runs = text ? parseComparison(text).cases[0]?.runs : undefined;
        return runs?.now?.jobId && runs.trial?.jobId ? [runs.now.jobId, runs.trial.jobId] : undefined;
      },
      30_000,
      'the trial’s jobs to start',
    );
  }

  async function agentCount(): Promise<number> {
    let n = 0;
    for await (const _agent of client.agents.items({ include_job_stats: false })) n++;
    return n;
  }

  it('Ctrl+C cancels the running jobs, removes the copies, says so on stderr and exits 130', async () => {
    const agentsBefore = await agentCount();
    const cli = spawnCli(tryArgs());
    const [realJob] = await runningJobs();
    assert.equal((await findLeftovers(client)).length, 2, 'the trial policy and agent copy exist while it runs');
    // Counts the cancel requests (the copy's job goes with the copy, so its status cannot be read after).
    t.sandbox.setFaults([{ kind: 'latency', path: '/v1/agents/jobs/*/cancel/', method: 'POST', ms: 0 }]);
    cli.child.kill('SIGINT');
    assert.equal(await cli.exited, 130, cli.stderr());
    assert.match(cli.stderr(), /Stopping: cancelling 2 jobs and removing the trial copies…/);
    assert.match(cli.stderr(), /Stopped: removed 2 trial copies; nothing of the trial is left\./);
    assert.deepEqual(await findLeftovers(client), [], 'no copy is left');
    assert.equal(await agentCount(), agentsBefore);
    assert.equal(t.sandbox.faultReport()[0]!.hits, 2, 'both jobs were asked to stop');
    assert.deepEqual((await client.jobs.statuses([realJob!])).map((s) => s.status), [JobStatus.CANCELLED], 'the real agent’s job was cancelled');
    await assert.rejects(fs.access(path.join(dir, 'loop.trial.json')), 'the trial file goes with its copies');
  });

  it('a second Ctrl+C during the clean-up exits at once, naming the trial file and agent-workbench clean-up', async () => {
    const cli = spawnCli(tryArgs());
    await runningJobs();
    // Deleting an agent hangs: the clean-up cannot finish before the second Ctrl+C.
    t.sandbox.setFaults([{ kind: 'latency', path: '/v1/agents/*', method: 'DELETE', ms: 60_000 }]);
    cli.child.kill('SIGINT');
    await eventually(() => t.sandbox.faultReport()[0]!.hits > 0 || undefined, 20_000, 'the clean-up to delete the copy');
    cli.child.kill('SIGINT');
    assert.equal(await cli.exited, 130, cli.stderr());
    assert.match(cli.stderr(), /Stopped at once, before the clean-up finished\. .*loop\.trial\.json names it\. Run agent-workbench clean-up/);
    assert.equal((await findLeftovers(client)).length, 2, 'the copies are still there for clean-up');
  });

  it('after a run killed mid-trial (SIGKILL, as a crash or a second Ctrl+C leaves it), a rerun refuses to overwrite its trial file; clean-up lists the copies, and --yes removes them', async () => {
    const cli = spawnCli(tryArgs());
    await runningJobs();
    cli.child.kill('SIGKILL');
    await cli.exited;
    t.sandbox.clearFaults();
    const trialFile = path.join(dir, 'loop.trial.json');
    const recorded = await fs.readFile(trialFile, 'utf8');
    const agentsBefore = await agentCount();

    const err: string[] = [];
    const io = { out: () => undefined, err: (line: string) => void err.push(line) };
    assert.equal(await runCli(tryArgs(), env(), io), 2);
    assert.match(err.join('\n'), /loop\.trial\.json records a trial whose copies are still on the service \(Agent “Support Call QA · trial .*; Policy “.*\): a new run would overwrite it\. Remove them with agent-workbench clean-up --yes/);
    assert.equal(await fs.readFile(trialFile, 'utf8'), recorded, 'the trial file is unchanged');
    assert.equal(await agentCount(), agentsBefore, 'the refused run made nothing');

    const out: string[] = [];
    const listing = { out: (line: string) => void out.push(line), err: (line: string) => void err.push(line) };
    assert.equal(await runCli(['clean-up'], env(), listing), 1);
    assert.match(out.join('\n'), /Agent “Support Call QA · trial .* · [^”]+” \([^)]*, 1 job\)/);
    assert.equal(await runCli(['clean-up', '--yes'], env(), listing), 0, err.join('\n'));
    assert.deepEqual(await findLeftovers(client), []);
    assert.equal(await agentCount(), agentsBefore - 1);
  });

  it('SIGTERM through an injected process stops the run the same way and answers 143', async () => {
    const host = new FakeProcess();
    const err: string[] = [];
    const done = runCli(tryArgs(), env(), { out: () => undefined, err: (line) => err.push(line) }, host);
    await runningJobs();
    host.send('SIGTERM');
    assert.equal(await done, 143, err.join('\n'));
    assert.match(err.join('\n'), /Stopping: cancelling 2 jobs and removing the trial copies… \(SIGTERM again stops at once and leaves them\)/);
    assert.deepEqual(await findLeftovers(client), []);
    assert.equal(host.listeners('stop').length, 0, 'the run stops watching signals when it ends');
  });
});

/** A process whose signals a test sends. */
class FakeProcess extends EventEmitter implements CliProcess {
  exits: number[] = [];
  onStop(listener: (signal: StopSignal) => void): () => void {
    this.on('stop', listener);
    return () => this.off('stop', listener);
  }
  exit(code: number): void {
    this.exits.push(code);
  }
  send(signal: StopSignal): void {
    this.emit('stop', signal);
  }
}
