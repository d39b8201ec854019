import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { caseRows } from '../../../src/core/comparison/compare';
import { progressView } from '../../../src/core/comparison/comparisonProgress';
import { agentsToStart, newComparison, type ComparisonRecord, type ComparisonTarget } from '../../../src/core/comparison/comparisonRecord';
import { readResults, startMissing, type ComparisonService, type ResultItem } from '../../../src/core/comparison/comparisonRunner';
import { comparisonView } from '../../../src/core/comparison/comparisonView';
import { preflight, type PreflightDeps } from '../../../src/core/comparison/preflight';
import { startQuestion } from '../../../src/core/comparison/startQuestion';
import { JobStatus } from '../../../src/core/jobStatus';

const before: ComparisonTarget = { id: 'before', label: 'Results before', kind: 'baseline' };
const now: ComparisonTarget = { id: 'now', label: 'Current version now', kind: 'current' };
const v1: ComparisonTarget = { id: 'v:1', label: 'v1', kind: 'version', agentVersionId: 'ver-1' };
const signal = new AbortController().signal;
const root = path.resolve('/work-space');

function comparison(n: number, targets: ComparisonTarget[] = [before, now], inputs: (i: number) => Record<string, unknown> = (i) => ({ transcript: `call ${i}` })): ComparisonRecord {
  const cases = Array.from({ length: n }, (_, i) => ({ line: i + 2, tags: [], name: `case ${i}`, inputs: inputs(i), sourceJobId: `old-${i}` }));
  return newComparison({ title: 'Policy change', agentId: 'agent-a', agentName: 'Support QA', testSet: 'calls.testset.jsonl', cases, targets: targets.map((t) => ({ ...t })) });
}

function service(agentOf: (id: string) => string = () => 'agent-a', started: string[][] = []): Required<ComparisonService> {
  let n = 0;
  return {
    runMany: (_a, inputs) => {
      started.push(inputs.map((i) => String(i.transcript)));
      return Promise.resolve(inputs.map(() => `new-${n++}`));
    },
    runVersion: () => Promise.resolve(`new-${n++}`),
    runOne: (_a, inputs) => {
      started.push([typeof inputs.transcript === 'string' ? inputs.transcript : JSON.stringify(inputs.transcript)]);
      return Promise.resolve(`new-${n++}`);
    },
    results: (ids) => Promise.resolve(ids.map((id): ResultItem => ({ id, agent_id: agentOf(id), status: JobStatus.SUCCESS, result: [{ key: 'disposition', value: 'Compliant' }] }))),
    cancel: () => Promise.resolve(),
    statuses: (ids) => Promise.resolve(ids.map((id) => ({ id, status: JobStatus.SUCCESS, createdAt: '2026-11-01T10:00:00.000Z', lastUpdatedAt: '2026-11-01T10:00:04.000Z' }))),
  };
}

// Files inside /work-space exist as themselves; a link `outside-link` points out of it; anything else is not there.
const realpath = (p: string): Promise<string> => {
  if (p === root) return Promise.resolve(root);
  if (p.includes('outside-link')) return Promise.resolve('/elsewhere/folder/x.txt');
  return p.startsWith(root + path.sep) && !p.includes('..') ? Promise.resolve(p) : Promise.reject(new Error('ENOENT'));
};

function deps(keys: Record<string, string[]> = {}, agentOf?: (id: string) => string): PreflightDeps {
  return { inputDefinitions: (t) => Promise.resolve((keys[t.id] ?? ['transcript']).map((key) => ({ key, data_type: key === 'document' ? 'application/pdf' : 'text/plain' }))), service: service(agentOf), folders: [root], realpath };
}

describe('asking before a comparison starts', () => {
  it('asks "Start comparison" with Start before anything ran, and "Resume" only once it ran', () => {
    const record = comparison(6);
    assert.match(startQuestion(record).message, /^Start comparison "Policy change"\? This starts 6 jobs of Support QA\.$/);
    assert.equal(progressView(record, { kind: 'stopped' })?.text, 'Not started: 6 cases to start, 6 results to read.');
    assert.equal(progressView(record, { kind: 'stopped' })?.action, 'start');
    record.cases[0]!.runs.now = { jobId: 'new-0' };
    assert.match(startQuestion(record).message, /^Resume "Policy change"\? This starts 5 jobs of Support QA and follows 1 job not finished\.$/);
    assert.equal(progressView(record, { kind: 'stopped' })?.action, 'resume');
  });

  it('names the agents the jobs start on as the service names them, not as the file labels them', () => {
    // A crafted comparison: its "trial" target is a real agent, and the file calls its agent something harmless.
    const record = newComparison({ title: 'Harmless', agentId: 'agent-a', agentName: 'A trial copy', testSet: 'calls.testset.jsonl', cases: comparison(2).cases, targets: [before, now, { id: 'trial', label: 'Trial copy', kind: 'current', agentId: 'agent-real' }] });
    assert.deepEqual(agentsToStart(record), ['agent-a', 'agent-real']);
    const question = startQuestion(record, { agents: [{ id: 'agent-a', name: 'Support QA' }, { id: 'agent-real', name: 'Invoice Classifier' }] });
    assert.equal(question.message, 'Start comparison "Harmless"? This starts 4 jobs of “Support QA” (agent-a) and “Invoice Classifier” (agent-real).');
    assert.match(question.detail, /^Production: Support QA itself runs the cases/);
    assert.doesNotMatch(`${question.message} ${question.detail}`, /A trial copy/);
    record.cases.forEach((c) => (c.runs.now = { jobId: `j-${c.line}` }));
    assert.deepEqual(agentsToStart(record), ['agent-real'], 'an agent whose cases all have jobs starts nothing');
  });

  it('counts only the jobs of targets that can run: a target that cannot take the cases is left out, with its reason', async () => {
    const record = comparison(3, [before, v1, now], () => ({ transcript: 'hi', language: 'en' }));
    await preflight(record, deps({ 'v:1': ['transcript'], now: ['transcript', 'language'] }), signal);
    const question = startQuestion(record);
    assert.equal(question.button, 'Start 3 Jobs');
    assert.equal(question.starts, 3);
    assert.match(question.detail, /Left out: "v1" runs nothing: It takes no input "language"/);
  });

  it('names files outside the workspace as left out before consent, sends none of them, and runs the other cases', async () => {
    const inputs = [{ transcript: { file: 'calls/ok.txt' } }, { transcript: { file: '../../../../etc/passwd' } }, { transcript: { file: '/etc/passwd' } }, { transcript: { file: 'outside-link/x.txt' } }, { transcript: 'plain text' }];
    const record = comparison(5, [before, now], (i) => inputs[i]!);
    const checks = await preflight(record, deps(), signal);
    const question = startQuestion(record, { refused: checks.refused });
    assert.match(question.detail, /Left out, never sent: \.\.\/\.\.\/\.\.\/\.\.\/etc\/passwd \(outside the workspace\), \/etc\/passwd \(an absolute path\), outside-link\/x\.txt \(outside the workspace\)\. 3 cases with such a file fail; the other cases run\./);
    assert.match(question.detail, /Files sent to the service: calls\/ok\.txt\./);
    assert.equal(question.button, 'Start 2 Jobs');
    const started: string[][] = [];
    await startMissing(record, service(undefined, started), () => Promise.resolve(), signal);
    assert.equal(started.flat().length, 2, 'the two valid cases started');
    assert.deepEqual(caseRows(record).map((r) => r.cells[1]!.state), ['running', 'failed', 'failed', 'failed', 'running']);
    assert.match(comparisonView(record).rows[1]!.why ?? '', /not a file inside a workspace folder/);
  });

  it('leaves out, before consent, a case that gives a text where an input takes a file: nothing is sent as text in its place', async () => {
    const inputs = [{ transcript: 'call', document: { file: 'calls/ok.pdf' } }, { transcript: 'call', document: '../../../../etc/passwd' }];
    const record = comparison(2, [before, now], (i) => inputs[i]!);
    const checks = await preflight(record, deps({ now: ['transcript', 'document'] }), signal);
    assert.deepEqual(checks.refused.map((r) => r.caseIndex), [1]);
    assert.match(checks.refused[0]!.reason, /The input "document" takes a file \(application\/pdf\), and this case gives it a text/);
    const question = startQuestion(record, { refused: checks.refused });
    assert.equal(question.button, 'Start 1 Job');
    assert.match(question.detail, /Left out, never sent: "document": "\.\.\/\.\.\/\.\.\/\.\.\/etc\/passwd" \(a text where "document" takes a file\)/);
    const started: string[][] = [];
    await startMissing(record, service(undefined, started), () => Promise.resolve(), signal);
    assert.equal(started.flat().length, 1, 'only the case with a file reference started');
  });

  it('takes back the refusals when the user says no, so nothing is marked for a comparison that did not start', async () => {
    const record = comparison(1, [before, now], () => ({ transcript: { file: '/etc/passwd' } }));
    const checks = await preflight(record, deps(), signal);
    assert.ok(record.cases[0]!.refused);
    checks.undo();
    assert.equal(record.cases[0]!.refused, undefined);
  });

  it("names another agent's unfinished job as left alone, and does not count it as followed", async () => {
    const record = comparison(2);
    record.cases.forEach((c, i) => void (c.runs.now = { jobId: i === 0 ? 'ours' : 'theirs' }));
    const checks = await preflight(record, deps({}, (id) => (id === 'theirs' ? 'agent-b' : 'agent-a')), signal);
    const question = startQuestion(record, { foreign: checks.foreign });
    assert.match(question.message, /follows 1 job not finished\.$/);
    assert.match(question.detail, /Left alone: 1 job of another agent \(theirs\): not followed, never cancelled from here\./);
  });
});

describe('the comparison page while another window runs it, or after a reload', () => {
  it('says another window runs it, with no Resume and no Cancel', () => {
    const record = comparison(2);
    record.cases.forEach((c, i) => void (c.runs.now = { jobId: `n-${i}` }));
    const progress = progressView(record, { kind: 'elsewhere', by: 'Another VS Code window (extension host process 42) is running this comparison.' })!;
    assert.match(progress.text, /^Another VS Code window .* is running this comparison\. Its progress shows here as it writes the file \(read-only\)\./);
    assert.deepEqual([progress.cancellable, progress.action], [false, null]);
  });

  it('follows the jobs it started before a reload without offering Resume, unless cases have no job', () => {
    const record = comparison(2);
    record.cases[0]!.runs.now = { jobId: 'n-0' };
    const following = progressView(record, { kind: 'working', followOnly: true })!;
    assert.match(following.text, /^Following the jobs started before: 1 case to start, 1 job running/);
    assert.equal(following.action, 'resume');
    record.cases[1]!.runs.now = { jobId: 'n-1' };
    assert.equal(progressView(record, { kind: 'working', followOnly: true })!.action, null);
  });
});

describe("a comparison's targets and results before", () => {
  it('offers Drop This Target only on a target that runs nothing more', () => {
    const record = comparison(1, [before, v1, now]);
    assert.deepEqual(comparisonView(record).summaries.map((s) => s.droppable), [false, false, false]);
    record.targets[1]!.failed = 'It takes no input "language".';
    assert.deepEqual(comparisonView(record).summaries.map((s) => s.droppable), [false, true, false]);
  });

  it('shows the durations of the results before, and their p50 / p95', async () => {
    const record = comparison(3);
    await readResults(record, service(), signal);
    const summary = comparisonView(record).summaries[0]!;
    assert.deepEqual([summary.p50Ms, summary.p95Ms], [4000, 4000]);
    assert.deepEqual(comparisonView(record).rows.map((r) => r.cells[0]!.durationMs), [4000, 4000, 4000]);
  });
});

describe('what a comparison does to production', () => {
  it('says in words that the real agent runs the cases and nothing is changed', () => {
    assert.match(startQuestion(comparison(2)).detail, /^Production: Support QA itself runs the cases \(its jobs show in its Jobs list and cost as usual\); no policy or version is changed\./);
  });

  it('says production is not touched when only a trial copy runs', () => {
    const record = comparison(2, [before, { id: 'trial', label: 'Trial', kind: 'current', agentId: 'agent-copy' }]);
    assert.match(startQuestion(record).detail, /^Production is not touched: the cases run on a trial copy\./);
  });
});
