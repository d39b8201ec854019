/**
 * What the extension knows about one connection's service — agents with their job statistics, and
 * jobs with their status, label fields and verdict — in one place that every view, command, job view,
 * comparison and the status bar read and subscribe to. Trees only display it: a list page, a run's
 * answer, a status poll or a cancel goes into the store, and one change reaches every place the agent
 * or job appears. The job watcher belongs to the store. Pure: no VS Code, tested in plain Node.
 */
import type { AgentJob, BaseAgent } from '../client';
import { newerJobStats } from '../agentJobStats';
import { isFinalStatus } from '../jobStatus';
import { Emitter } from '../jobWatch/emitter';
import { JobWatcher } from '../jobWatch/jobWatcher';
import { type Clock, type JobStatusSource, type JobWatcherOptions, realClock, type Subscription, type WatchedJob } from '../jobWatch/types';
import { JobLabels } from '../jobView/jobLabels';
import { JobFollower } from './jobFollower';
import { NEWEST_PAGE_SIZE, NewestJobsPoller } from './newestJobs';
import { mergeJob, patchJob, type JobStatusPatch } from './jobMerge';

/** Where the store reads: job statuses (for its watcher) and an agent's newest jobs (full records of jobs that just finished). */
export interface StoreSource extends JobStatusSource {
  /** The first page of an agent's jobs, newest first, unfiltered (`pageSize` when a small page will do). */
  recentJobs(agentId: string, signal: AbortSignal, pageSize?: number): Promise<{ count: number; results: AgentJob[] }>;
}

/** What one change touched. */
export interface StoreChange {
  agents: ReadonlySet<string>;
  jobs: ReadonlySet<string>;
  /** Jobs started (here, in a comparison, or elsewhere and just read) since the last change, by agent. */
  started: ReadonlyArray<{ agentId: string; jobIds: readonly string[] }>;
}

/** What a list read tells beyond its items: the total it matches, and whether a filter narrowed it. */
export interface ListKnowledge {
  count: number;
  unfiltered: boolean;
}

/** How long after a job finishes its full record is read (jobs finishing together share the read). */
export const RECORD_READ_DELAY_MS = 400;

/** The store of one connection. Dispose it to stop its watcher, timers and reads. */
export class ServiceStore {
  readonly watcher: JobWatcher;
  /** The labels of the jobs, kept once shown (rows, pickers and the status bar name a job alike). */
  readonly labels = new JobLabels();
  private readonly agents = new Map<string, BaseAgent>();
  private readonly jobs = new Map<string, AgentJob>();
  private readonly agentOfJob = new Map<string, string>();
  private readonly changed = new Emitter<[StoreChange]>();
  private readonly jobListeners = new Map<string, Set<(job: AgentJob) => void>>();
  /** Agents whose jobs finished and whose newest records are to be read. */
  private readonly toRead = new Set<string>();
  private readTimer: unknown;
  private readonly reads = new AbortController();
  private readonly readsInFlight = new Map<string, Promise<void>>();
  private readonly newest: NewestJobsPoller;
  private disposed = false;

  constructor(
    private readonly source: StoreSource,
    /** `listIntervalMs`: how often a shown Jobs list reads its newest page (the watch interval when absent). */
    options: JobWatcherOptions & { listIntervalMs?: number },
    private readonly clock: Clock = realClock,
  ) {
    this.watcher = new JobWatcher(source, options, clock);
    this.watcher.onDidUpdate((jobs) => this.fromWatcher(jobs));
    this.newest = new NewestJobsPoller((agentId) => this.readRecords(agentId, NEWEST_PAGE_SIZE), options.listIntervalMs ?? options.intervalMs, clock);
  }

  /**
   * The agents whose Jobs lists are shown (visible, window focused): each one's newest page is read
   * once per list refresh interval, and jobs started elsewhere arrive as `started`. Empty stops it.
   */
  showJobLists(agentIds: readonly string[]): void {
    this.newest.show(agentIds);
  }

  /** How often shown Jobs lists read their newest page (the jobs refresh setting). */
  setListIntervalMs(ms: number): void {
    this.newest.setIntervalMs(ms);
  }

  /** The newest copy of an agent, if any list or read brought it. */
  agent(id: string): BaseAgent | undefined {
    return this.agents.get(id);
  }

  /** The newest copy of a job, if anything brought it. */
  job(id: string): AgentJob | undefined {
    return this.jobs.get(id);
  }

  /** The agent a job belongs to, when known. */
  agentIdOf(jobId: string): string | undefined {
    return this.agentOfJob.get(jobId);
  }

  /**
   * What a watched job is named by in the status bar and its notifications: its label, as its row in
   * the Jobs list has it, once the store knows what tells it apart (its inputs or the metadata field);
   * until then the label it was watched with ("Support Call QA · v4").
   */
  labelOfWatched(job: WatchedJob, labelField?: string): string | undefined {
    const record = this.jobs.get(job.id);
    const agentId = job.agentId ?? this.agentOfJob.get(job.id);
    // After a reload the job's record is read again a moment later; the label it was shown with is kept already.
    return (record ? this.labels.labelOf(agentId, record, labelField) : this.labels.shownLabel(job.id, labelField)) || job.label;
  }

  /** The jobs of an agent the store knows that are not final (to cancel, to follow). */
  activeJobsOf(agentId: string): AgentJob[] {
    return [...this.jobs.values()].filter((job) => this.agentOfJob.get(job.id) === agentId && !isFinalStatus(job.status_code));
  }

  /** Agents as a list, a read or an edit brought them. Job statistics never go back in time. */
  putAgents(agents: readonly BaseAgent[]): void {
    const ids = new Set<string>();
    for (const agent of agents) {
      const known = this.agents.get(agent.id);
      // Only the last job is carried over (the count of an agents list is the newer one): `unfiltered` is false.
      const stats = known?.most_recent_job ? newerJobStats(agent, { count: 0, createdAt: [known.most_recent_job], unfiltered: false }) : undefined;
      this.agents.set(agent.id, stats ? { ...agent, ...stats } : agent);
      ids.add(agent.id);
    }
    this.fire({ agents: ids });
  }

  /** Jobs of an agent as a list page or a read brought them; an unfiltered list also brings the agent's job count. */
  putJobs(agentId: string, jobs: readonly AgentJob[], list?: ListKnowledge): void {
    const ids = new Set<string>();
    for (const job of jobs) if (this.take(agentId, job)) ids.add(job.id);
    this.labels.learn(agentId, jobs);
    const agents = list ? this.noteStats(agentId, { count: list.count, createdAt: jobs.map((job) => job.created_at), unfiltered: list.unfiltered }) : new Set<string>();
    this.fire({ jobs: ids, agents });
  }

  /** Jobs just started (a run, a comparison): known at once everywhere, counted on the agent, followed until final. */
  jobsStarted(agentId: string, jobs: readonly AgentJob[]): void {
    const fresh = jobs.filter((job) => !this.jobs.has(job.id));
    for (const job of jobs) this.take(agentId, job);
    this.labels.learn(agentId, jobs);
    const agent = this.agents.get(agentId);
    const agents = new Set<string>();
    if (agent && fresh.length) {
      const newest = fresh.map((job) => job.created_at).sort().at(-1);
      const next = { ...agent };
      if (typeof agent.job_count === 'number') next.job_count = agent.job_count + fresh.length;
      // Stryker disable next-line EqualityOperator: at the same instant either string names the same last job.
      if (newest && (!agent.most_recent_job || Date.parse(newest) > Date.parse(agent.most_recent_job))) next.most_recent_job = newest;
      this.agents.set(agentId, next);
      agents.add(agentId);
    }
    this.fire({ jobs: new Set(jobs.map((job) => job.id)), agents, started: fresh.length ? [{ agentId, jobIds: fresh.map((job) => job.id) }] : [] });
  }

  /** Newer statuses (a cancel's answer, a status read): older ones than what is known are ignored. */
  patchJobs(patches: readonly JobStatusPatch[]): void {
    this.applyPatches(patches, new Set());
  }

  /** Applies status patches; `ids` holds jobs already changed (the watcher's new stubs), told about with them. */
  private applyPatches(patches: readonly JobStatusPatch[], ids: Set<string>): void {
    for (const patch of patches) {
      const current = this.jobs.get(patch.id);
      const next = current && patchJob(current, patch);
      if (!next) continue;
      this.jobs.set(patch.id, next);
      ids.add(patch.id);
      if (isFinalStatus(next.status_code)) this.readRecordSoon(patch.id);
    }
    this.fire({ jobs: ids });
  }

  /**
   * Reads an agent's newest jobs into the store now (a job view opened by ID wants its record); views
   * opened together share one read. Resolves when done, never rejects.
   */
  readRecords(agentId: string, pageSize?: number): Promise<void> {
    let read = this.readsInFlight.get(agentId);
    if (!read) {
      read = this.readRecent(agentId, pageSize).finally(() => this.readsInFlight.delete(agentId));
      this.readsInFlight.set(agentId, read);
    }
    return read;
  }

  /** Hears every change: what agents and jobs changed, and jobs started. */
  onDidChange(listener: (change: StoreChange) => void): Subscription {
    return this.changed.on(listener);
  }

  /** Hears the changes of one job only (a job view, a comparison's case). */
  onJob(id: string, listener: (job: AgentJob) => void): Subscription {
    let set = this.jobListeners.get(id);
    if (!set) this.jobListeners.set(id, (set = new Set()));
    set.add(listener);
    return {
      dispose: () => {
        set.delete(listener);
        // Stryker disable next-line ConditionalExpression,EqualityOperator: whether an empty set stays in the map is memory only; the listeners called are the same.
        if (set.size === 0 && this.jobListeners.get(id) === set) this.jobListeners.delete(id);
      },
    };
  }

  /** A part's share of the watcher: jobs it follows ride in the one bulk status request. */
  follower(owner: string): JobFollower {
    return new JobFollower(this.watcher, owner);
  }

  /** Stops the watcher, timers and reads; what is known stays readable. */
  dispose(): void {
    // Stryker disable next-line ConditionalExpression: disposing twice repeats steps that are each harmless the second time; the guard only skips them.
    if (this.disposed) return;
    this.disposed = true;
    this.reads.abort();
    this.newest.dispose();
    // Stryker disable next-line ConditionalExpression,EqualityOperator: clearing no timer is harmless.
    if (this.readTimer !== undefined) this.clock.clearTimeout(this.readTimer);
    this.watcher.dispose();
    this.changed.clear();
    this.jobListeners.clear();
  }

  /** Keeps the newer copy of a job; true when what is kept changed. */
  private take(agentId: string, job: AgentJob): boolean {
    const current = this.jobs.get(job.id);
    const next = mergeJob(current, job);
    this.agentOfJob.set(job.id, agentId);
    if (current && JSON.stringify(current) === JSON.stringify(next)) return false;
    this.jobs.set(job.id, next);
    return true;
  }

  private noteStats(agentId: string, list: { count: number; createdAt: readonly string[]; unfiltered: boolean }): Set<string> {
    const agent = this.agents.get(agentId);
    const newer = agent && newerJobStats(agent, list);
    if (!agent || !newer) return new Set();
    this.agents.set(agentId, { ...agent, ...newer });
    return new Set([agentId]);
  }

  private fromWatcher(updates: readonly WatchedJob[]): void {
    // Stryker disable next-line ArrayDeclaration: a stray item names no known job and is skipped like an unknown one.
    const patches: JobStatusPatch[] = [];
    const stubs = new Set<string>();
    for (const update of updates) {
      if (update.status === undefined) continue;
      if (!this.jobs.has(update.id)) {
        // A job known only to the watcher (watched by ID, restored after a reload): a stub to build on.
        // Its first status is news to every listener, and a finished one still wants its record read.
        if (!update.agentId) continue;
        this.take(update.agentId, { id: update.id, status_code: update.status, created_at: update.createdAt ?? new Date(update.watchedAt).toISOString(), last_updated_at: update.lastUpdatedAt ?? null });
        stubs.add(update.id);
        if (isFinalStatus(update.status)) this.readRecordSoon(update.id);
      }
      patches.push({ id: update.id, status_code: update.status, last_updated_at: update.lastUpdatedAt ?? null });
    }
    this.applyPatches(patches, stubs);
  }

  /** A job finished: its full record (events, verdict, outputs' fields) is read with the agent's newest jobs. */
  private readRecordSoon(jobId: string): void {
    const agentId = this.agentOfJob.get(jobId);
    if (!agentId || this.disposed) return;
    this.toRead.add(agentId);
    if (this.readTimer !== undefined) return;
    this.readTimer = this.clock.setTimeout(() => {
      this.readTimer = undefined;
      const agents = [...this.toRead];
      this.toRead.clear();
      for (const id of agents) void this.readRecords(id);
    }, RECORD_READ_DELAY_MS);
  }

  private async readRecent(agentId: string, pageSize?: number): Promise<void> {
    try {
      const page = await this.source.recentJobs(agentId, this.reads.signal, pageSize);
      if (this.disposed) return;
      const fresh = this.startedElsewhere(agentId, page.results);
      this.putJobs(agentId, page.results, { count: page.count, unfiltered: true });
      if (fresh.length) this.fire({ started: [{ agentId, jobIds: fresh.map((job) => job.id) }] });
    } catch {
      // The rows keep their status; the record is read with the list next time it is shown.
    }
  }

  /** Jobs of a newest page the store did not know, newer than the newest it knew of the agent: started elsewhere. */
  private startedElsewhere(agentId: string, page: readonly AgentJob[]): AgentJob[] {
    let newest = Number.NEGATIVE_INFINITY;
    for (const job of this.jobs.values()) if (this.agentOfJob.get(job.id) === agentId) newest = Math.max(newest, Date.parse(job.created_at) || Number.NEGATIVE_INFINITY);
    // An agent none of whose jobs is known yet has no list to add to: its list reads them when shown.
    if (newest === Number.NEGATIVE_INFINITY) return [];
    return page.filter((job) => !this.jobs.has(job.id) && Date.parse(job.created_at) > newest);
  }

  private fire(change: Partial<StoreChange>): void {
    const full: StoreChange = { agents: change.agents ?? new Set(), jobs: change.jobs ?? new Set(), started: change.started ?? [] };
    if (this.disposed || (!full.agents.size && !full.jobs.size && !full.started.length)) return;
    this.changed.fire(full);
    for (const id of full.jobs) {
      const job = this.jobs.get(id);
      const listeners = this.jobListeners.get(id);
      if (job && listeners) for (const listener of [...listeners]) listener(job);
    }
  }
}
