import { JobStatus, isFinalStatus } from '../../core/jobStatus';
import { engineVerdicts } from '../engines';
import type { SandboxDb } from '../store/database';
import type { PlanStep, StoredEvent } from './jobStore';
import { parseJson } from '../util';
import { foldCase } from './jobInsert';
import { storedOutcome } from './jobOutcome';

export const RETRY_MESSAGES = [
  'Model endpoint timed out after 30 s; retrying.',
  'Rate limited by the model provider (429); retrying with backoff.',
  'Worker lost its connection to the queue; retrying.',
];
export const FAILURE_MESSAGES = [
  'Input could not be parsed: the document is encrypted or damaged.',
  'The model answered with output that does not match the expected schema.',
  'Retries exhausted: the model endpoint did not answer.',
];

const RUNNING_CODES = [JobStatus.PENDING, JobStatus.STARTED, JobStatus.RETRY].join(', ');

/**
 * The verdict and cost of a job that ends now: the engine's, judged when the job started; a job
 * without an outcome (older stores) takes a verdict of its engine from its inputs hash.
 */
function finalFigures(row: DueRow, status: number): { verdict: string | null; cost: number } {
  const outcome = storedOutcome(row.result);
  const h = parseInt(row.inputs_hash.slice(8, 16), 16);
  const cost = outcome?.cost ?? Math.round((0.002 + (h % 5000) / 100_000) * 10_000) / 10_000;
  if (status !== JobStatus.SUCCESS) return { verdict: null, cost };
  const verdicts = engineVerdicts(row.engine_class_id);
  return { verdict: outcome?.disposition ?? verdicts[h % verdicts.length]!, cost };
}

/** How many steps a slow job (demo, or `[slow]` in an input) keeps running before its last step: tens of seconds at the default pace. */
export const SLOW_STEPS = 20;

/** Jobs advanced per timer tick at most, so one tick never blocks the server for long. */
const MAX_PER_TICK = 2000;

/**
 * The steps a new job will go through after PENDING: STARTED, then (RETRY, STARTED) per retry, then
 * SUCCESS or FAILURE. Derived from a hash of its inputs, so the same inputs always take the same
 * path; markers in a text input force a path for demos and tests: `[ok]` (no retry, success),
 * `[retry]` (one retry), `[fail]` (ends in FAILURE), `[slow]` (stays running {@link SLOW_STEPS} steps before it ends,
 * long enough to watch and cancel).
 */
export function planFor(inputsText: string, hash: string): PlanStep[] {
  const h = parseInt(hash.slice(0, 8), 16);
  const text = inputsText.toLowerCase();
  const forcedOk = text.includes('[ok]');
  let retries = h % 100 < 12 ? 1 : h % 100 < 16 ? 2 : 0;
  if (text.includes('[retry]')) retries = Math.max(1, retries);
  if (forcedOk) retries = 0;
  const fails = !forcedOk && (text.includes('[fail]') || (h >>> 8) % 100 < 8);
  const steps: PlanStep[] = [{ s: JobStatus.STARTED }];
  for (let i = 0; i < retries; i++) {
    steps.push({ s: JobStatus.RETRY, e: RETRY_MESSAGES[(h + i) % RETRY_MESSAGES.length]! }, { s: JobStatus.STARTED });
  }
  steps.push(fails ? { s: JobStatus.FAILURE, e: FAILURE_MESSAGES[h % FAILURE_MESSAGES.length]! } : { s: JobStatus.SUCCESS });
  if (text.includes('[slow]')) steps[steps.length - 1]!.w = SLOW_STEPS;
  return steps;
}

/** A new stored event (the error message only for RETRY and FAILURE). */
export function nextEvent(status: number, at: number, error?: string): StoredEvent {
  return error === undefined ? [at, status] : [at, status, error];
}

interface DueRow {
  pk: number;
  agent_pk: number;
  status_code: number;
  plan: string;
  events: string;
  created_ms: number;
  inputs_hash: string;
  engine_class_id: string;
  result: string | null;
}

/**
 * Moves running jobs along their plans: one unref'd timer, every `stepMs`, advances each due job by
 * one status (so a watcher sees PENDING → … → final within a few steps).
 */
export class JobLifecycle {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: SandboxDb,
    readonly stepMs: number,
    private readonly now: () => number,
    private readonly log: (line: string) => void,
  ) {}

  /** Starts the timer. */
  start(): void {
    this.timer ??= setInterval(() => this.tickSafely(), this.stepMs);
    this.timer.unref();
  }

  /** Stops the timer. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Advances every due job by one step; answers how many moved. */
  tick(): number {
    const now = this.now();
    // Half a step of slack: a job due just after this tick would otherwise wait a whole extra step.
    const rows = this.db.all<DueRow>(
      `SELECT j.pk, j.agent_pk, j.status_code, j.plan, j.events, j.created_ms, j.inputs_hash, j.result, a.engine_class_id
       FROM jobs j JOIN agents a ON a.pk = j.agent_pk
       WHERE j.next_step_ms IS NOT NULL AND j.next_step_ms <= ? ORDER BY j.next_step_ms LIMIT ?`,
      [now + Math.floor(this.stepMs / 2), MAX_PER_TICK],
    );
    if (rows.length === 0) return 0;
    this.db.transaction(() => rows.forEach((row) => this.advance(row, now)));
    return rows.length;
  }

  /** Cancels a job that is not final; answers false when it already is. */
  cancel(jobPk: number): boolean {
    const row = this.db.get<{ status_code: number; events: string; created_ms: number }>(
      'SELECT status_code, events, created_ms FROM jobs WHERE pk = ?',
      [jobPk],
    );
    if (!row || isFinalStatus(row.status_code)) return false;
    const now = this.now();
    const events = parseJson<StoredEvent[]>(row.events) ?? [];
    events.push(nextEvent(JobStatus.CANCELLED, now));
    this.db.run(
      'UPDATE jobs SET status_code = ?, events = ?, last_updated_ms = ?, duration_ms = ?, plan = NULL, next_step_ms = NULL WHERE pk = ?',
      [JobStatus.CANCELLED, JSON.stringify(events), now, now - row.created_ms, jobPk],
    );
    return true;
  }

  private advance(row: DueRow, now: number): void {
    const plan = parseJson<PlanStep[]>(row.plan) ?? [];
    const step = plan.shift() ?? { s: JobStatus.SUCCESS };
    const events = parseJson<StoredEvent[]>(row.events) ?? [];
    events.push(nextEvent(step.s, now, step.e));
    if (!isFinalStatus(step.s)) {
      this.db.run('UPDATE jobs SET status_code = ?, events = ?, last_updated_ms = ?, plan = ?, next_step_ms = ? WHERE pk = ?', [
        step.s, JSON.stringify(events), now, JSON.stringify(plan), now + this.stepMs * Math.max(1, plan[0]?.w ?? 1), row.pk,
      ]);
      return;
    }
    const { verdict, cost } = finalFigures(row, step.s);
    const { db } = this;
    db.run(
      `UPDATE jobs SET status_code = ?, events = ?, last_updated_ms = ?, plan = NULL, next_step_ms = NULL,
         duration_ms = ?, cost = ?, verdict = ? WHERE pk = ?`,
      [step.s, JSON.stringify(events), now, now - row.created_ms, cost, verdict, row.pk],
    );
    if (verdict) db.run('UPDATE job_text SET text = text || char(10) || ? WHERE agent_pk = ? AND job_pk = ?', [foldCase(verdict), row.agent_pk, row.pk]);
  }

  /** Cancels every job of an agent that is not final; answers how many. */
  cancelAll(agentPk: number): number {
    const rows = this.db.all<{ pk: number }>(`SELECT pk FROM jobs WHERE agent_pk = ? AND status_code IN (${RUNNING_CODES}) ORDER BY pk`, [agentPk]);
    let cancelled = 0;
    this.db.transaction(() => {
      for (const row of rows) if (this.cancel(row.pk)) cancelled++;
    });
    return cancelled;
  }

  private tickSafely(): void {
    try {
      this.tick();
    } catch (error) {
      this.log(`sandbox: job lifecycle step failed: ${(error as Error).stack ?? String(error)}`);
    }
  }
}
