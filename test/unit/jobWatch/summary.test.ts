import * as assert from 'node:assert/strict';
import { JobStatus } from '../../../src/core/jobStatus';
import { elapsedText, jobFullTitle, jobTitle, statusWord, summarize, withRecordTimes, type WatchedJob } from '../../../src/core/jobWatch';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const { PENDING, STARTED, RETRY, SUCCESS, FAILURE, CANCELLED, CACHED } = JobStatus;

/** A watched job with sensible defaults. */
function job(status: number | undefined, extra: Partial<WatchedJob> = {}): WatchedJob {
  return { id: '3f2b8c1e-0d4a-4c57-9a1e-6b5f0e2d9c11', status, watchedAt: NOW - 60_000, ...extra };
}

const ago = (ms: number): string => new Date(NOW - ms).toISOString();

describe('job watch summary', () => {
  it('is empty when nothing is watched', () => {
    assert.deepEqual(summarize([], NOW), { running: 0, byStatus: {}, text: '', anyRunning: false });
  });

  it('shows one job by name with its status and how long it has run', () => {
    const summary = summarize([job(STARTED, { label: 'nightly eval', createdAt: ago(185_000) })], NOW);
    assert.equal(summary.text, 'nightly eval: running · 3 min 05 s');
    assert.equal(summary.running, 1);
    assert.equal(summary.anyRunning, true);
  });

  it('names an unlabelled job by the start of its ID and cuts a long label', () => {
    assert.equal(summarize([job(PENDING, { createdAt: ago(5000) })], NOW).text, '3f2b8c1e: pending · 5 s');
    // An agent and version name fit ("Support Call QA · v4 – refund promise"); a longer label is cut.
    const fits = job(SUCCESS, { label: 'Support Call QA · v4 – refund promise', createdAt: ago(70_000), lastUpdatedAt: ago(10_000) });
    assert.equal(summarize([fits], NOW).text, 'Support Call QA · v4 – refund promise: succeeded · took 1 min 00 s');
    const long = job(SUCCESS, { label: 'a very long agent name that will not fit in the status bar at all', createdAt: ago(70_000), lastUpdatedAt: ago(10_000) });
    assert.equal(summarize([long], NOW).text, 'a very long agent name that will not fit in the…: succeeded · took 1 min 00 s');
  });

  it('counts several jobs by group in a fixed order', () => {
    const jobs = [job(SUCCESS), job(PENDING), job(FAILURE), job(STARTED), job(CACHED), job(SUCCESS)];
    const summary = summarize(jobs, NOW);
    assert.equal(summary.text, '2 running · 1 failed · 3 done');
    assert.equal(summary.running, 2);
    assert.deepEqual(summary.byStatus, { [PENDING]: 1, [STARTED]: 1, [SUCCESS]: 2, [FAILURE]: 1, [CACHED]: 1 });
    assert.equal(summary.anyRunning, true);
  });

  it('counts a retrying job as running and names cancelled jobs apart', () => {
    assert.equal(summarize([job(RETRY), job(CANCELLED), job(CANCELLED)], NOW).text, '1 running · 2 cancelled');
  });

  it('stops the spinner once every job is over', () => {
    const summary = summarize([job(SUCCESS), job(FAILURE), job(STARTED, { notFound: true })], NOW);
    assert.equal(summary.anyRunning, false);
    assert.equal(summary.running, 1, 'the last status known of the lost job');
    assert.equal(summary.text, '1 failed · 1 done · 1 not found');
  });

  it('spins while a job watched by ID waits for its first status', () => {
    const summary = summarize([job(undefined)], NOW);
    assert.equal(summary.text, '3f2b8c1e: checking… · 1 min 00 s');
    assert.equal(summary.anyRunning, true);
    assert.equal(summary.running, 0);
    assert.equal(summarize([job(undefined), job(STARTED)], NOW).text, '1 running · 1 checking');
  });
});

describe('job status words and elapsed time', () => {
  it('uses plain words for every status', () => {
    const words = [PENDING, STARTED, RETRY, SUCCESS, FAILURE, CANCELLED, CACHED].map((s) => statusWord(job(s)));
    assert.deepEqual(words, ['pending', 'running', 'retrying', 'succeeded', 'failed', 'cancelled', 'done (cached)']);
    assert.equal(statusWord(job(9)), 'unknown(9)');
    assert.equal(statusWord(job(STARTED, { notFound: true })), 'not found');
    assert.equal(statusWord(job(SUCCESS, { notFound: true })), 'succeeded', 'a final status outlives a later loss');
  });

  it('counts a running job from its creation until now', () => {
    assert.equal(elapsedText(job(STARTED, { createdAt: ago(12_400) }), NOW), '12 s');
    assert.equal(elapsedText(job(STARTED, { createdAt: ago(2 * 3_600_000 + 600_000) }), NOW), '2 h 10 min');
  });

  it('counts from when watching started when the creation time is unknown', () => {
    assert.equal(elapsedText(job(STARTED, { createdAt: 'not a date' }), NOW), '1 min 00 s');
  });

  it('stops counting when the job finished', () => {
    const finished = job(SUCCESS, { createdAt: ago(90_000), finishedAt: NOW - 30_000, lastUpdatedAt: ago(1000) });
    assert.equal(elapsedText(finished, NOW), 'took 1 min 00 s', 'finishedAt wins over lastUpdatedAt');
    assert.equal(elapsedText(job(FAILURE, { createdAt: ago(90_000), lastUpdatedAt: ago(60_000) }), NOW), 'took 30 s');
    assert.equal(elapsedText(job(FAILURE, { createdAt: ago(90_000) }), NOW), '', 'no end time known');
  });

  it('shows 0 s rather than a negative time when the service clock is ahead', () => {
    assert.equal(elapsedText(job(STARTED, { createdAt: new Date(NOW + 4000).toISOString() }), NOW), '0 s');
    assert.equal(elapsedText(job(STARTED, { createdAt: ago(400) }), NOW), '0 s');
  });

  it('shows no time for a job the service lost', () => {
    assert.equal(elapsedText(job(STARTED, { createdAt: ago(5000), notFound: true }), NOW), '');
  });
});

describe('job titles in the status bar', () => {
  const watched = (label: string): WatchedJob => ({ id: '0b5c2d1e-1111-4222-8333-944455566677', label, status: JobStatus.STARTED, watchedAt: 0 });

  it('are cut at the end of a word, never inside one, and keep the whole title for the tooltip', () => {
    const label = 'Support Call QA · v4 – refund promise handled with escalation to a supervisor';
    const title = jobTitle(watched(label));
    assert.ok(title.length <= 48, title);
    assert.match(title, /…$/);
    assert.ok(label.startsWith(title.slice(0, -1)), title);
    assert.match(label.slice(title.length - 1), /^[\s,;:.–—-]/, `cut inside a word: ${title}`);
    assert.equal(jobFullTitle(watched(label)), label);
  });

  it('stay whole when they fit, and fall back to the short ID without a label', () => {
    assert.equal(jobTitle(watched('Invoice Classifier · v2')), 'Invoice Classifier · v2');
    assert.equal(jobTitle(watched('  ')), '0b5c2d1e');
  });
});

describe('a job watched after it finished', () => {
  const T = Date.parse('2026-11-20T10:00:00Z');
  const watched: WatchedJob = { id: '0b5c2d1e-1111-4222-8333-944455566677', label: 'Refund Request Reviewer · 0b5c2d1e', status: JobStatus.SUCCESS, watchedAt: T + 600_000, finishedAt: T + 7_000 };

  it('makes up no duration from when it was watched', () => {
    assert.equal(elapsedText(watched, T + 601_000), '');
  });

  it('says how long it took once its record is read, by the service’s times', () => {
    const record = { created_at: new Date(T).toISOString(), last_updated_at: new Date(T + 7_000).toISOString(), status_events: [] };
    const job = withRecordTimes(watched, record);
    assert.equal(elapsedText(job, T + 601_000), 'took 7 s');
    assert.match(summarize([job], T + 601_000).text, /succeeded · took 7 s$/);
    assert.equal(withRecordTimes(watched, { created_at: new Date(T + 600_000).toISOString() }), watched, 'a stub made from a status is no record');
  });
});
