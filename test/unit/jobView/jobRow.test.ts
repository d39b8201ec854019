import * as assert from 'node:assert/strict';
import type { AgentJob } from '../../../src/core/client';
import { jobRowText, jobVerdict, sharedText } from '../../../src/core/jobView/jobRow';
import { JobLabels, LABELS_STORED } from '../../../src/core/jobView/jobLabels';

const NOW = Date.parse('2026-11-20T10:10:00Z');
const job = (over: Partial<AgentJob> & Record<string, unknown> = {}): AgentJob =>
  ({
    id: '0b5c2d1e-1111-4222-8333-944455566677',
    agent_version_name: 'v3',
    status_code: 3,
    created_at: '2026-11-20T10:00:00Z',
    last_updated_at: '2026-11-20T10:00:12Z',
    job_inputs: [{ key: 'transcript', value: 'Customer:   I was charged\ntwice for the same order and want a refund of both charges please' }],
    metadata: { case: 'C-1042', priority: 2 },
    ...over,
  });

describe('job rows', () => {
  it('are labelled by the start of the first input, on one line, so identical versions differ', () => {
    const row = jobRowText(job(), undefined, NOW);
    assert.equal(row.label, '“Customer: I was charged twice for the…”');
    assert.equal(row.description, 'SUCCESS · v3 · 10 min ago · 12 s');
  });

  it('are labelled by a chosen metadata field when the job has it', () => {
    assert.equal(jobRowText(job(), 'case', NOW).label, 'case: C-1042');
    assert.equal(jobRowText(job(), 'priority', NOW).label, 'priority: 2');
    assert.match(jobRowText(job(), 'missing', NOW).label, /^“Customer/);
  });

  it('name a file input by its file name, and fall back to the version, then the short ID', () => {
    assert.equal(jobRowText(job({ job_inputs: [{ key: 'doc', value: '', file_name: 'invoice-17.pdf' }] }), undefined, NOW).label, 'file: invoice-17.pdf');
    const bare = jobRowText(job({ job_inputs: [] }), undefined, NOW);
    assert.equal(bare.label, 'v3');
    assert.doesNotMatch(bare.description, /v3/, 'the version is not said twice');
    assert.equal(jobRowText(job({ job_inputs: [], agent_version_name: null }), undefined, NOW).label, 'job 0b5c2d1e');
  });

  it('lead with the verdict once there is one, a reviewer’s correction first', () => {
    assert.equal(jobVerdict(job({ ui_fields: { verdict: 'refund' } })), 'refund');
    assert.equal(jobVerdict(job({ ui_fields: { verdict: 'refund' }, feedback_review: { corrected_verdict: 'escalate' } })), 'escalate (corrected)');
    assert.equal(jobVerdict(job({ ui_fields: {} })), '');
    assert.match(jobRowText(job({ ui_fields: { verdict: 'refund' } }), undefined, NOW).description, /^→ refund · SUCCESS/);
  });

  it('show a verdict only once the job finished with a result, never while pending, retrying or after a failure', () => {
    const fields = { ui_fields: { verdict: 'approve' }, feedback_review: { corrected_verdict: 'escalate' } };
    for (const status_code of [0, 1, 2, 4, 5]) {
      const row = jobRowText(job({ ...fields, status_code }), undefined, NOW);
      assert.equal(row.verdict, '', `status ${status_code}`);
      assert.doesNotMatch(row.description, /→/, `status ${status_code}`);
    }
    assert.equal(jobVerdict(job({ ...fields, status_code: 6 })), 'escalate (corrected)');
  });
});

describe('job rows of cases that start alike', () => {
  const call = (name: string, topic: string, i: number): AgentJob =>
    job({ id: `0b5c2d1e-1111-4222-8333-94445556667${i}`, job_inputs: [{ key: 'transcript', value: `Agent: Thanks for contacting Acme Support, this is ${name}. This call may be recorded.\nCustomer: Hi. ${topic}\nAgent: Let me check.` }] });
  const jobs = [call('Priya', 'My invoice is wrong.', 1), call('Sam', 'I was charged twice.', 2), call('Lea', 'The app crashes on login.', 3), call('Priya', 'I want to cancel.', 4)];

  it('skip the greeting every case shares and show the line that differs', () => {
    const shared = sharedText(jobs);
    assert.deepEqual(jobs.map((j) => jobRowText(j, undefined, NOW, shared).label), [
      '“My invoice is wrong. Agent: Let me ch…”',
      '“I was charged twice. Agent: Let me ch…”',
      '“The app crashes on login. Agent: Let …”',
      '“I want to cancel. Agent: Let me check.”',
    ]);
  });

  it('skip a shared opening phrase but never the first word of the sentence that tells the case', () => {
    const alike = ['I would like to upgrade.', 'I was charged twice.', 'I want to cancel.'].map((topic, i) => call('Sam', topic, i + 5));
    const shared = sharedText(alike);
    assert.equal(shared.lead, 'Customer: Hi. ');
    assert.equal(jobRowText(alike[0]!, undefined, NOW, shared).label, '“I would like to upgrade. Agent: Let m…”');
  });

  it('skip nothing when there are too few jobs to tell what they share', () => {
    assert.deepEqual(sharedText(jobs.slice(0, 2)), { lines: new Set(), lead: '' });
  });
});

describe('job labels kept for a connection', () => {
  const AGENT = 'a1';
  const call = (i: number, topic: string): AgentJob =>
    job({ id: `0b5c2d1e-1111-4222-8333-9444555666${String(i).padStart(2, '0')}`, job_inputs: [{ key: 'transcript', value: `Agent: Thanks for contacting Acme Support, this is Sam. This call may be recorded.\nCustomer: Hi. ${topic}` }] });
  const company = (i: number): AgentJob => job({ id: `0b5c2d1e-1111-4222-8333-9444555667${String(i).padStart(2, '0')}`, job_inputs: [{ key: 'name', value: `Company ${i}` }] });

  it('keep a job’s label the same once shown, however many jobs arrive after it', () => {
    const labels = new JobLabels();
    const first = [call(1, 'My invoice is wrong.'), call(2, 'I was charged twice.'), call(3, 'The app crashes on login.')];
    labels.learn(AGENT, first);
    const shown = first.map((j) => labels.rowText(AGENT, j, undefined, NOW).label);
    assert.equal(shown[0], '“My invoice is wrong.”');
    const others = Array.from({ length: 12 }, (_, i) => job({ id: `0b5c2d1e-1111-4222-8333-9444555669${String(i).padStart(2, '0')}`, job_inputs: [{ key: 'transcript', value: `Ticket ${i}: the printer is out of toner` }] }));
    labels.learn(AGENT, [...others, ...first]);
    assert.deepEqual(first.map((j) => labels.rowText(AGENT, j, undefined, NOW).label), shown);
  });

  it('do not keep the fallback label of a job whose inputs are not known yet', () => {
    const labels = new JobLabels();
    const stub = job({ job_inputs: undefined });
    assert.equal(labels.rowText(AGENT, stub, undefined, NOW).label, 'v3');
    assert.match(labels.rowText(AGENT, job(), undefined, NOW).label, /^“Customer/);
  });

  it('never reduce “Company 4” to “4” on a list where every input starts with the same word', () => {
    const jobs = Array.from({ length: 8 }, (_, i) => company(i + 1));
    const labels = new JobLabels();
    labels.learn(AGENT, jobs);
    assert.deepEqual(jobs.slice(0, 3).map((j) => labels.rowText(AGENT, j, undefined, NOW).label), ['“Company 1”', '“Company 2”', '“Company 3”']);
  });

  it('keep the label per label field: choosing a metadata field relabels, choosing none again restores', () => {
    const labels = new JobLabels();
    assert.equal(labels.rowText(AGENT, job(), 'case', NOW).label, 'case: C-1042');
    assert.match(labels.rowText(AGENT, job(), undefined, NOW).label, /^“Customer/);
  });
});

// The demo after a comparison: the seeded calls open "Thanks for contacting…", the test set's cases
// "Thanks for calling…". More than twenty rows read "“Agent: Thanks for calling Acme Suppor…”".
describe('job labels of an agent whose jobs open in more than one way', () => {
  const AGENT = 'a1';
  const id = (n: number): string => `0b5c2d1e-1111-4222-8333-${String(n).padStart(12, '0')}`;
  const seeded = (n: number, name: string, topic: string): AgentJob =>
    job({ id: id(n), job_inputs: [{ key: 'transcript', value: `Agent: Thanks for contacting Acme Support, this is ${name}. This call may be recorded.\nCustomer: Hi. ${topic}\nAgent: Let me check.` }] });
  const OPENING = 'Agent: Thanks for calling Acme Support, this call may be recorded for quality and training.';
  const testCase = (n: number, line: string): AgentJob => job({ id: id(100 + n), job_inputs: [{ key: 'transcript', value: `${OPENING}\nCustomer: ${line}\nAgent: I am sorry to hear that.` }] });
  const seededJobs = [seeded(1, 'Priya', 'My invoice is wrong.'), seeded(2, 'Sam', 'I was charged twice.'), seeded(3, 'Lea', 'The app crashes on login.'), seeded(4, 'Sam', 'I want to cancel.')];
  const cases = [testCase(1, 'The service was down again on Monday.'), testCase(2, 'My router keeps restarting.'), testCase(3, 'Which plan includes phone support?'), testCase(4, 'I moved and need a new billing address.')];

  it('learns what a comparison’s jobs open with from a later list, not only from the first one', () => {
    const labels = new JobLabels();
    labels.learn(AGENT, seededJobs);
    assert.equal(labels.rowText(AGENT, seededJobs[0]!, undefined, NOW).label, '“My invoice is wrong. Agent: Let me ch…”');
    labels.learn(AGENT, cases);
    const shown = cases.map((c) => labels.rowText(AGENT, c, undefined, NOW).label);
    for (const label of shown) assert.doesNotMatch(label, /Thanks for calling/, label);
    assert.equal(shown[1], '“My router keeps restarting. Agent: I …”');
    assert.equal(new Set(shown).size, cases.length, 'every case reads differently');
  });

  it('skips both openings on one list that holds both kinds of jobs', () => {
    const labels = new JobLabels();
    labels.learn(AGENT, [...cases, ...seededJobs]);
    assert.match(labels.rowText(AGENT, cases[0]!, undefined, NOW).label, /^“The service was down/);
    assert.match(labels.rowText(AGENT, seededJobs[1]!, undefined, NOW).label, /^“I was charged twice/);
  });

  it('keeps a label shown across a window reload, whatever the next window learns first', () => {
    const before = new JobLabels();
    before.learn(AGENT, cases);
    const shown = before.rowText(AGENT, cases[0]!, undefined, NOW).label;
    const after = new JobLabels();
    after.restore(JSON.parse(JSON.stringify(before.serialize())));
    after.learn(AGENT, [cases[0]!]);
    assert.equal(after.rowText(AGENT, cases[0]!, undefined, NOW).label, shown);
  });

  it('stores a bounded number of labels, the newest, and ignores stored garbage', () => {
    const labels = new JobLabels();
    let kept = 0;
    labels.onDidKeep(() => kept++);
    for (let n = 0; n < LABELS_STORED + 10; n++) labels.rowText(AGENT, job({ id: id(1000 + n), job_inputs: [{ key: 'name', value: `Company ${n}` }] }), undefined, NOW);
    assert.equal(kept, LABELS_STORED + 10);
    const stored = labels.serialize().labels;
    assert.equal(stored.length, LABELS_STORED);
    assert.equal(stored.at(-1)?.[1], `“Company ${LABELS_STORED + 9}”`);
    const other = new JobLabels();
    for (const garbage of [undefined, null, 42, 'x', { labels: 'x' }, { labels: [[1, 2], ['only one'], null] }]) other.restore(garbage);
    assert.deepEqual(other.serialize().labels, []);
  });
});

