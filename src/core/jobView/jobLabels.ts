/**
 * The labels of one connection's jobs, kept. What an agent's jobs open with (a greeting every case
 * begins with) is learnt from every job the store is given — lists, runs, a comparison's jobs — and
 * for each way they open (see `sharedOpenings`). A job's label, once made from its own content, never
 * changes: not when more jobs arrive, nor after a window reload (the labels shown are stored, the most
 * recent ones). Every place that names a job (rows, pickers, the status bar, notifications) asks here,
 * so a job reads the same everywhere.
 */
import type { AgentJob } from '../client';
import { Emitter } from '../jobWatch/emitter';
import type { Subscription } from '../jobWatch/types';
import { jobRowText, leadingLinesOf, NOTHING_SHARED, openingKey, sharedOpenings, tellingLabel, type JobRowText, type SharedText } from './jobRow';

/** How many jobs that open alike an agent needs before their opening is skipped in labels. */
export const JOBS_TO_LEARN_FROM = 3;

/** Per agent, how many jobs' openings are remembered (the newest given). */
export const OPENINGS_KEPT_PER_AGENT = 500;

/** How many labels are stored for the next window (the most recently made). */
export const LABELS_STORED = 2000;

/** The stored form of the labels shown: `[key, label]` pairs, oldest first. */
export interface StoredLabels {
  version: 1;
  labels: [string, string][];
}

/** Kept labels of the jobs of one connection. */
export class JobLabels {
  /** Per agent: each job's first lines, by job ID. */
  private readonly leading = new Map<string, Map<string, string[]>>();
  /** Per agent: its openings as last worked out (dropped when a new job arrives). */
  private readonly openings = new Map<string, Map<string, SharedText>>();
  private readonly kept = new Map<string, string>();
  private readonly keptChanged = new Emitter<[]>();

  /** Learns how an agent's jobs open from these jobs (with those it was given before). */
  learn(agentId: string, jobs: readonly AgentJob[]): void {
    let known = this.leading.get(agentId);
    let added = false;
    for (const job of jobs) {
      const lines = leadingLinesOf(job);
      if (!lines || known?.has(job.id)) continue;
      if (!known) this.leading.set(agentId, (known = new Map<string, string[]>()));
      known.set(job.id, lines);
      added = true;
    }
    if (!added || !known) return;
    for (const id of known.keys()) {
      if (known.size <= OPENINGS_KEPT_PER_AGENT) break;
      known.delete(id);
    }
    this.openings.delete(agentId);
  }

  /** The row text of a job: its label as first made from its content, the rest (status, times) as of now. */
  rowText(agentId: string | undefined, job: AgentJob, labelField: string | undefined, now: number = Date.now()): JobRowText {
    const label = this.labelOf(agentId, job, labelField);
    return jobRowText(job, labelField, now, label === undefined ? this.sharedFor(agentId, job) : NOTHING_SHARED, label);
  }

  /** The label made from the job's content (kept from its first showing); undefined while nothing tells it apart yet (a stub with no inputs). */
  labelOf(agentId: string | undefined, job: AgentJob, labelField: string | undefined): string | undefined {
    const key = `${labelField?.trim() ?? ''}\n${job.id}`;
    const kept = this.shownLabel(job.id, labelField);
    if (kept !== undefined) return kept;
    // A stub (a run's answer, a status) has no inputs yet: its fallback label is not kept.
    const label = tellingLabel(job, labelField, this.sharedFor(agentId, job)) || undefined;
    if (label !== undefined) this.keep(key, label);
    return label;
  }

  /** The label a job was shown with (in this window or, stored, in an earlier one), if any. */
  shownLabel(jobId: string, labelField: string | undefined): string | undefined {
    return this.kept.get(`${labelField?.trim() ?? ''}\n${jobId}`);
  }

  /** Fires when a label is kept for the first time (to store them for the next window). */
  onDidKeep(listener: () => void): Subscription {
    return this.keptChanged.on(listener);
  }

  /** The labels to store: the most recent `LABELS_STORED`, plain JSON. */
  serialize(): StoredLabels {
    return { version: 1, labels: [...this.kept] };
  }

  /** Takes back the labels a previous window showed (garbage ignored); labels made since stay. */
  restore(data: unknown): void {
    const pairs = (data as { labels?: unknown } | undefined)?.labels;
    if (!Array.isArray(pairs)) return;
    const restored = pairs.filter((p): p is [string, string] => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string' && p[0].length <= 300 && p[1].length <= 300);
    const made = [...this.kept];
    this.kept.clear();
    for (const [key, label] of [...restored.slice(-LABELS_STORED), ...made]) this.kept.set(key, label);
    this.trim();
  }

  private keep(key: string, label: string): void {
    this.kept.set(key, label);
    this.trim();
    this.keptChanged.fire();
  }

  private trim(): void {
    for (const key of this.kept.keys()) {
      if (this.kept.size <= LABELS_STORED) break;
      this.kept.delete(key);
    }
  }

  /** What the jobs that open like this one share (nothing when too few do). */
  private sharedFor(agentId: string | undefined, job: AgentJob): SharedText {
    const lines = agentId === undefined ? undefined : leadingLinesOf(job);
    if (agentId === undefined || !lines) return NOTHING_SHARED;
    let openings = this.openings.get(agentId);
    if (!openings) {
      openings = sharedOpenings(this.leading.get(agentId)?.values() ?? [], JOBS_TO_LEARN_FROM);
      this.openings.set(agentId, openings);
    }
    return openings.get(openingKey(lines)) ?? NOTHING_SHARED;
  }
}
