/**
 * The labels of one connection's jobs, kept: what an agent's jobs share (a greeting every case opens
 * with) is learnt once, from the first list that shows enough of them, and a job's label, once made
 * from its own content, stays the same however many jobs arrive after it. Every place that names a job
 * (rows, pickers, the status bar) asks here, so a job reads the same everywhere.
 */
import type { AgentJob } from '../client';
import { jobRowText, NOTHING_SHARED, sharedText, tellingLabel, type JobRowText, type SharedText } from './jobRow';

/** How many jobs with a text input a list needs before what they share is fixed for their agent. */
export const JOBS_TO_LEARN_FROM = 3;

/** Kept labels of the jobs of one connection. */
export class JobLabels {
  private readonly shared = new Map<string, SharedText>();
  private readonly kept = new Map<string, string>();

  /** Learns what an agent's jobs share from a list of them, once: later lists never change it. */
  learn(agentId: string, jobs: readonly AgentJob[]): void {
    if (this.shared.has(agentId)) return;
    const withText = jobs.filter((job) => job.job_inputs?.some((input) => !input.file_name && input.value?.trim()));
    if (withText.length >= JOBS_TO_LEARN_FROM) this.shared.set(agentId, sharedText(withText));
  }

  /** The row text of a job: its label as first made from its content, the rest (status, times) as of now. */
  rowText(agentId: string | undefined, job: AgentJob, labelField: string | undefined, now: number = Date.now()): JobRowText {
    const shared = (agentId && this.shared.get(agentId)) || NOTHING_SHARED;
    const key = `${labelField?.trim() ?? ''}\n${job.id}`;
    let label = this.kept.get(key);
    if (label === undefined) {
      // A stub (a run's answer, a status) has no inputs yet: its fallback label is not kept.
      label = tellingLabel(job, labelField, shared) || undefined;
      if (label !== undefined) this.kept.set(key, label);
    }
    return jobRowText(job, labelField, now, shared, label);
  }
}
