import * as vscode from 'vscode';
import type { AgentJob } from '../../../core/client';
import { isFinalStatus } from '../../../core/jobStatus';
import type { JobFollower } from '../../../core/store/jobFollower';
import type { ServiceStore } from '../../../core/store/serviceStore';
import type { Stores } from '../../store/stores';
import type { JobViewAction } from '../../../core/jobView/protocol';
import { ResultBatcher } from '../../../core/jobView/resultBatcher';
import { currentStatus, jobViewModel, type JobViewSources } from '../../../core/jobView/viewModel';
import { shortId } from '../../../core/jobView/jobText';
import type { Connection } from '../../connection/connection';
import { AgentCommands, JobViewIds, StateKeys } from '../../constants';
import type { ServiceDocuments } from '../../documents/serviceDocuments';
import { jobArtifactUri, jobUri } from '../../documents/documentUris';
import type { Log } from '../../log';
import { Disposable } from '../../util/disposable';
import { messageOf } from '../../util/errors';
import type { JobPanel, JobPanelDebugState, JobPanelRequest } from './jobPanel';
import { loadPanels } from '../../lazyPanels';
import { rawJobJson, runAgainArgs } from '../../../core/jobView/jobRecords';
import type { Ticker } from '../../util/ticker';
import { isJobRecord } from '../../../core/store/jobMerge';
import { parseOpenViews, restoredJobView, withOpenView, withoutOpenView, type OpenJobView } from '../../../core/jobView/openViews';

/** A job opened from a case of a comparison: what the case expects, and labelling it from the view (as from its cell). */
export interface JobLabelling {
  /** "Case … of …: expected …", and whether the job's outcome can be agreed with; undefined when the comparison is gone. */
  describe(): { text: string; canAgree: boolean } | undefined;
  /** This Is Right or Set Expected…; answers whether a label was written. */
  label(action: 'right' | 'set'): Promise<boolean>;
}

/** What opening a job starts from: the agent, the job's ID, and the job record when a list gave it. */
export interface JobTarget {
  agent: { id: string; name: string };
  jobId: string;
  job?: AgentJob;
  /** Set when opened from a comparison's case. */
  labelling?: JobLabelling;
}

/** What is known about one open job (the view model is built from it each time it changes). */
type JobState = Omit<JobViewSources, 'readAt' | 'now'> & { readAt: number; observed: JobViewSources['observed'] & object[] };

/** How the job views are named among the shared watcher's trackers. */
const TRACKER = 'jobViews';

/**
 * The job views: one panel per job (opening it again reveals it). Results come through one bulk
 * request for all views that ask at the same moment; jobs that are not final are followed by a job
 * watcher shared with the status bar and the Agents view (one bulk status request per interval for all of them) and their outputs read once they finish.
 */
export class JobViews extends Disposable {
  private readonly panels = new Map<string, JobPanel>();
  private readonly states = new Map<string, JobState>();
  private readonly records = new Map<string, vscode.Disposable>();
  private readonly labellings = new Map<string, JobLabelling>();
  private readonly batcher: ResultBatcher;
  /** The views' share of the current store's watcher: their running jobs ride in its bulk request. */
  private follower: JobFollower | undefined;
  private store: ServiceStore | undefined;
  /** True once the extension is being disposed (the window closes): its panels go, but stay kept for the next window. */
  private closing = false;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly connection: Connection,
    documents: ServiceDocuments,
    private readonly stores: Stores,
    private readonly log: Log,
    ticker: Ticker,
  ) {
    super();
    // "Running for" moves each second with the job's row and the status bar (one ticker for all three).
    this.register(ticker.every(1000, () => {
      for (const state of this.states.values()) {
        const code = state.job?.status_code ?? state.status?.status;
        if (code !== undefined && !isFinalStatus(code)) this.render(state.jobId);
      }
    }));
    // The client is looked up at each read, so a new connection is used as soon as it exists.
    this.batcher = new ResultBatcher((ids) => connection.requireClient().jobs.results(ids));
    this.register({ dispose: () => this.follower?.dispose() });
    this.register({ dispose: () => this.forgetRecords() });
    this.register(stores.onDidSwitch((store) => this.useStore(store)));
    this.useStore(stores.current);
    documents.setJobSource((agentId, jobId) => this.rawJson(agentId, jobId));
    this.register(vscode.window.registerWebviewPanelSerializer(JobViewIds.viewType, { deserializeWebviewPanel: (panel, state) => this.revive(panel, state) }));
    // The window closing disposes the panels too: what is open then is what the next window brings back.
    this.register({
      dispose: () => {
        this.closing = true;
        [...this.panels.values()].forEach((p) => p.dispose());
      },
    });
  }

  /** Follows the open views' jobs in the store of the connection now in use. */
  private useStore(store: ServiceStore | undefined): void {
    this.follower?.dispose();
    this.forgetRecords();
    this.store = store;
    this.follower = store?.follower(TRACKER);
    this.follower?.onDidChange((job) => job.status !== undefined && this.observed(job.id, job.status, job.errorMessage));
    for (const state of this.states.values()) {
      this.listenToRecord(state.jobId);
      this.follow(state);
    }
  }

  private forgetRecords(): void {
    for (const record of this.records.values()) record.dispose();
    this.records.clear();
  }

  /** The job view shows the store's record of its job whenever a list, a run or a finished poll brings a newer one. */
  private listenToRecord(jobId: string): void {
    if (!this.store || this.records.has(jobId)) return;
    this.records.set(jobId, this.store.onJob(jobId, (job) => this.adoptRecord(jobId, job)));
  }

  /** Opens the view of a job, or reveals it when it is open; reads what the store does not know. */
  async open(target: JobTarget, restored?: vscode.WebviewPanel, preserveFocus = false): Promise<void> {
    const stored = this.store?.job(target.jobId);
    // A stub (a job watched by its pasted ID) is no record: the status, its reason and the version's name are still read.
    const known = target.job ?? (stored && isJobRecord(stored) ? stored : undefined);
    const existing = this.panels.get(target.jobId);
    // The user looks at the job: a result the status bar kept offering is seen.
    this.store?.watcher.markSeen(target.jobId);
    if (target.labelling) this.labellings.set(target.jobId, target.labelling);
    if (existing) {
      existing.reveal(preserveFocus);
      this.showLabelling(target.jobId);
      if (known) this.adoptRecord(target.jobId, known);
      return;
    }
    const state: JobState = { agentId: target.agent.id, agentName: target.agent.name, jobId: target.jobId, job: known, observed: [], readAt: Date.now() };
    this.states.set(target.jobId, state);
    this.listenToRecord(target.jobId);
    const title = `Job ${shortId(target.jobId)} · ${target.agent.name}`;
    const panel = loadPanels().JobPanel.create(this.context.extensionUri, this.log, target.jobId, title, (action) => this.act(target.jobId, action), restored, preserveFocus);
    this.panels.set(target.jobId, panel);
    this.keepOpen(state);
    panel.onDidDispose(() => {
      if (!this.closing) void this.context.workspaceState.update(StateKeys.openJobViews, withoutOpenView(this.keptViews(), target.jobId));
      this.panels.delete(target.jobId);
      this.states.delete(target.jobId);
      this.labellings.delete(target.jobId);
      this.records.get(target.jobId)?.dispose();
      this.records.delete(target.jobId);
      this.follower?.unfollow([target.jobId]);
    });
    this.render(target.jobId);
    this.showLabelling(target.jobId);
    // A job the store has no record of (opened by ID): its record is read with the agent's newest jobs.
    if (!known) void this.store?.readRecords(target.agent.id);
    await this.read(target.jobId, !known);
  }

  /**
   * A job view VS Code brought back after a reload (its serializer calls this): the same job, read
   * again by ID. The page's state names it; a page never shown saved none, and its title names the job
   * among the views this extension kept open.
   */
  async revive(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const view = restoredJobView(state, panel.title, this.keptViews());
    if (!view || this.panels.has(view.jobId)) {
      panel.dispose();
      return;
    }
    try {
      // The demo's connection takes a while after a restart: the view waits for it rather than showing nothing.
      await this.connection.whenSettled();
      await this.open({ agent: { id: view.agentId, name: view.agentName }, jobId: view.jobId }, panel);
    } catch (error) {
      // Signed out or the service is away: the view shows what it could read, and Refresh tries again.
      this.log.warn(`Restoring the view of job ${view.jobId}: ${messageOf(error)}`);
    }
  }

  private keptViews(): OpenJobView[] {
    return parseOpenViews(this.context.workspaceState.get(StateKeys.openJobViews));
  }

  /** Kept for the next window: the job, and the agent it belongs to. */
  private keepOpen(state: JobState): void {
    void this.context.workspaceState.update(StateKeys.openJobViews, withOpenView(this.keptViews(), { jobId: state.jobId, agentId: state.agentId, agentName: state.agentName }));
  }

  /** The model the panel of a job last showed, and (test builds) what its page reported. */
  shownState(jobId: string): JobPanelDebugState | undefined {
    return this.panels.get(jobId)?.shownState();
  }

  /** The job's records as JSON (the raw JSON document); read from the service when no view holds them. */
  private async rawJson(agentId: string, jobId: string): Promise<string> {
    const held = this.states.get(jobId);
    if (held) return rawJobJson(held);
    const client = this.connection.requireClient();
    const [status, result] = await Promise.all([client.jobs.status(jobId), this.batcher.read(jobId)]);
    return rawJobJson({ agentId, jobId, status, result });
  }

  /**
   * Reads the status (when the list gave no record, or on Refresh) and the result (one bulk request
   * shared with other views); starts following the job while it runs.
   */
  private async read(jobId: string, withStatus: boolean): Promise<void> {
    const state = this.states.get(jobId);
    if (!state) return;
    const client = this.connection.requireClient();
    // A part that cannot be read becomes a problem shown in the view; the other parts still show.
    const settle = <T>(part: 'status' | 'result', read: Promise<T>, keep: (value: T) => void): Promise<void> =>
      read.then(
        (value) => {
          keep(value);
          state[`${part}Error`] = undefined;
        },
        (error: unknown) => {
          state[`${part}Error`] = messageOf(error);
          this.log.warn(`Reading the ${part} of job ${jobId} failed: ${messageOf(error)}`);
        },
      );
    const statusRead = withStatus ? settle('status', client.jobs.status(jobId), (status) => (state.status = status)) : Promise.resolve();
    const resultRead = settle('result', this.batcher.read(jobId), (result) => (state.result = result));
    // The job's own agent is checked even when the store knew the job (a list of its real agent brought it).
    const versionRead = this.versionName(state);
    try {
      await Promise.all([statusRead, resultRead, versionRead]);
    } finally {
      state.readAt = Date.now();
      this.render(jobId);
      this.follow(state);
    }
  }

  /**
   * A job opened by ID has no version name yet: the result names the version, the agent's versions name
   * it. The result also names the job's agent: a job pasted under another agent shows its own.
   */
  private async versionName(state: JobState): Promise<void> {
    try {
      const result = await this.batcher.read(state.jobId);
      if (result?.agent_id && result.agent_id !== state.agentId) await this.ownAgent(state, result.agent_id);
      // A job the store knows is named by its record's version already.
      if (state.job || !result?.agent_version_id) return;
      const version = await this.connection.requireClient().agents.getVersion(state.agentId, result.agent_version_id);
      state.versionName = version.version_name;
    } catch (error) {
      this.log.debug(`No version name for job ${state.jobId}: ${messageOf(error)}`);
    }
  }

  /** The job belongs to another agent than it was opened under: the view shows that agent, and reads its records from it. */
  private async ownAgent(state: JobState, agentId: string): Promise<void> {
    const agent = this.store?.agent(agentId) ?? (await this.connection.requireClient().agents.get(agentId));
    this.log.info(`Job ${state.jobId} belongs to ${agent.name} (${agentId}), not to the agent it was opened under (${state.agentId})`);
    state.agentId = agent.id;
    state.agentName = agent.name;
    this.keepOpen(state);
    this.follower?.unfollow([state.jobId]);
    if (!state.job) void this.store?.readRecords(agent.id);
  }

  private follow(state: JobState): void {
    const code = currentStatus(state);
    if (code < 0 || isFinalStatus(code)) this.follower?.unfollow([state.jobId]);
    else this.follower?.follow([{ id: state.jobId, agentId: state.agentId, status: code, createdAt: state.job?.created_at }]);
  }

  private observed(jobId: string, status: number, error: string | undefined): void {
    const state = this.states.get(jobId);
    if (!state || status === currentStatus(state)) return;
    state.observed.push({ status, at: Date.now(), error });
    state.status = { status, timestamp: Date.now() / 1000, error_message: error ?? null };
    state.readAt = Date.now();
    this.render(jobId);
    // The outputs exist once the job is final: read them (with any other view that finished meanwhile).
    if (isFinalStatus(status)) void this.read(jobId, false);
    // Finished before the user's eyes: nothing left to offer in the status bar.
    if (isFinalStatus(status) && this.panels.get(jobId)?.visible) this.store?.watcher.markSeen(jobId);
  }

  private adoptRecord(jobId: string, job: AgentJob): void {
    const state = this.states.get(jobId);
    if (!state) return;
    state.job = job;
    // The record is the service's own account (events, times): what this view saw for itself is no newer.
    if (isFinalStatus(job.status_code) && (job.status_events?.length ?? 0) > 0) {
      state.observed = [];
      state.status = undefined;
    }
    this.render(jobId);
  }

  /** The label bar of a job opened from a comparison's case (hidden for any other job). */
  private showLabelling(jobId: string): void {
    const shown = this.labellings.get(jobId)?.describe();
    this.panels.get(jobId)?.labelling(shown?.text ?? null, shown?.canAgree ?? false);
  }

  private async label(state: JobState, panel: JobPanel, action: 'right' | 'set'): Promise<void> {
    const labelling = this.labellings.get(state.jobId);
    if (!labelling) return panel.notice('Open this job from its case in a comparison to label the case.', true);
    const written = await labelling.label(action);
    this.showLabelling(state.jobId);
    if (written) panel.notice('Labelled: written into the test set as an edit to review and save.');
  }

  private render(jobId: string): void {
    const state = this.states.get(jobId);
    if (state) this.panels.get(jobId)?.show(jobViewModel({ ...state, now: Date.now() }));
  }

  /** Does what a job view's button asks (its page sends the request; tests call it as the page would). */
  async act(jobId: string, request: JobPanelRequest): Promise<void> {
    const state = this.states.get(jobId);
    const panel = this.panels.get(jobId);
    if (!state || !panel) return;
    const what = typeof request === 'string' ? request : `${request.save ? 'saving' : 'opening'} artifact ${request.artifactKey}`;
    try {
      if (typeof request === 'string') await this.perform(state, panel, request);
      else await this.artifact(state, panel, request.artifactKey, request.save);
    } catch (error) {
      this.log.error(`Job view: ${what} of job ${jobId} failed`, error);
      panel.notice(messageOf(error), true);
    }
  }

  /** Opens an artifact of the job as read-only JSON beside the view, or saves it where the user says. */
  private async artifact(state: JobState, panel: JobPanel, key: string, save: boolean): Promise<void> {
    const name = panel.shownState().model?.artifacts.find((a) => a.key === key)?.name ?? 'artifact';
    if (!save) {
      const doc = await vscode.workspace.openTextDocument(jobArtifactUri(state.agentId, state.jobId, key, name));
      await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
      return;
    }
    const base = (key.split('/').pop() ?? name).replace(/\.json$/i, '') || 'artifact';
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      title: `Save the artifact ${name} of job ${shortId(state.jobId)}`,
      defaultUri: folder ? vscode.Uri.joinPath(folder, `${base}.json`) : undefined,
      filters: { JSON: ['json'] },
    });
    if (!target) return;
    const result = await this.connection.requireClient().jobs.artifact(state.jobId, key);
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(`${JSON.stringify(result, null, 2) ?? 'null'}\n`));
    panel.notice(`Saved ${name} to ${vscode.workspace.asRelativePath(target)}.`);
  }

  private async perform(state: JobState, panel: JobPanel, action: JobViewAction): Promise<void> {
    switch (action) {
      case 'copyId':
        await vscode.env.clipboard.writeText(state.jobId);
        return panel.notice(`Copied the job ID ${state.jobId}.`);
      case 'rawJson': {
        const doc = await vscode.workspace.openTextDocument(jobUri(state.agentId, state.jobId, state.agentName));
        await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
        return;
      }
      case 'refresh':
        await this.read(state.jobId, true);
        return panel.notice('');
      case 'watch':
        await vscode.commands.executeCommand(AgentCommands.watchJob, { agentId: state.agentId, jobId: state.jobId, label: `${state.agentName} · ${state.job?.agent_version_name ?? shortId(state.jobId)}` });
        return panel.notice('Watched in the status bar.');
      case 'cancel':
        await vscode.commands.executeCommand(JobViewIds.cancelJob, { agentId: state.agentId, jobId: state.jobId });
        return this.read(state.jobId, true);
      case 'runAgain':
        await vscode.commands.executeCommand(JobViewIds.newRunFile, runAgainArgs(state));
        return;
      case 'thisIsRight':
        return this.label(state, panel, 'right');
      case 'setExpected':
        return this.label(state, panel, 'set');
    }
  }
}

