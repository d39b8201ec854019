import * as vscode from 'vscode';
import type { AgentJob, AgentVersion, BaseAgent } from '../../core/client';
import { JobStatus } from '../../core/jobStatus';
import { isOutcomeUnknown, outcomeUnknownMessage } from '../../core/outcomeUnknown';
import { runFileName } from '../../core/runs/runFilePath';
import type { AgentsView } from '../agents/agentsView';
import type { Connection } from '../connection/connection';
import type { Stores } from '../store/stores';
import { loadCore } from '../lazyCore';
import type { Log } from '../log';
import { messageOf } from '../util/errors';
import type { CheckedRun, RunFiles, RunSource } from './runFiles';
import type { RunTargets } from './runTargets';

/** What a run started. */
export interface StartedRun {
  agentId: string;
  jobIds: string[];
}

/** What a new run file is made of. */
export interface NewRunFile {
  agent: BaseAgent;
  version: AgentVersion;
  /** The run file names the version (Run This Version); else the agent's current version runs. */
  pinVersion: boolean;
  inputs?: Record<string, unknown> | Array<Record<string, unknown>>;
  metadata?: Record<string, unknown>;
}

/**
 * Starts runs: checks the run file (nothing is sent when it has problems), sends one request (a batch
 * is one request), shows the new jobs at the top of the agent's Jobs list and watches them in the
 * status bar. A run whose answer was lost is never sent again.
 */
export class Runner {
  constructor(
    private readonly connection: Connection,
    private readonly view: AgentsView,
    private readonly targets: RunTargets,
    private readonly files: RunFiles,
    private readonly stores: Stores,
    private readonly log: Log,
  ) {}

  /** Checks and runs a run file's text. */
  async run(source: RunSource): Promise<StartedRun> {
    const run = await this.files.check(source, true);
    const jobIds = await this.send(source, run);
    this.started(run, jobIds);
    return { agentId: run.plan.agentId, jobIds };
  }

  /** Opens a new run file: untitled, with the path it saves to (`<workspace>/<agent>.agentrun.json`), so Save keeps it as a test case. */
  async open(spec: NewRunFile): Promise<vscode.Uri> {
    const { agent, version, pinVersion } = spec;
    // Known before the editor opens, so completion and squiggles work from the first keystroke.
    await this.targets.resolve(agent.id, pinVersion ? version.id : undefined).catch(() => undefined);
    const text = loadCore().runFileText({
      agentId: agent.id,
      agentName: agent.name,
      version: pinVersion ? { id: version.id, name: version.version_name } : undefined,
      definitions: version.input_definitions,
      inputs: spec.inputs,
      metadata: spec.metadata,
    });
    const uri = await freeUntitledUri(agent.name);
    const doc = uri ? await vscode.workspace.openTextDocument(uri) : await vscode.workspace.openTextDocument({ language: 'json', content: text });
    if (uri) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
      await vscode.workspace.applyEdit(edit);
    }
    await vscode.window.showTextDocument(doc, { preview: false });
    return doc.uri;
  }

  private async send(source: RunSource, run: CheckedRun): Promise<string[]> {
    const { plan, target } = run;
    const client = this.connection.requireClient();
    const what = plan.batch ? `the batch of ${plan.inputSets.length} jobs of ${target.agentName}` : `the job of ${target.agentName}`;
    try {
      // The user clicked Run on this file, whose agent the service resolved: that click picks the agent.
      const ground = client.gate?.userPicked({ kind: 'agent', id: plan.agentId }, 'Run in a run file');
      return await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Starting ${what}…` }, () => loadCore().startJobs(client, plan, undefined, ground));
    } catch (error) {
      const core = loadCore();
      if (isOutcomeUnknown(error)) {
        this.log.warn(`Run of ${plan.agentId}: outcome unknown (${messageOf(error)})`);
        this.view.reloadJobs(plan.agentId);
        throw new Error(outcomeUnknownMessage({ happened: `${what} started`, readAgain: "the agent's jobs" }, error));
      }
      const placed = core.isServiceError(error) && this.files.showServiceErrors(source, error, run);
      throw new Error(`Not run: ${messageOf(error)}${placed ? ' (underlined in the run file)' : ''}`);
    }
  }

  private started(run: CheckedRun, jobIds: string[]): void {
    const { plan, target } = run;
    showStartedJobs(this.stores, this.log, { agentId: plan.agentId, agentName: target.agentName, versionName: target.versionName, jobIds, inputSets: plan.inputSets, metadata: plan.metadata });
  }
}

/** What a started run is shown with. */
export interface StartedJobs {
  agentId: string;
  agentName: string;
  versionName: string;
  jobIds: readonly string[];
  inputSets: readonly Record<string, unknown>[];
  metadata?: Record<string, unknown>;
}

/**
 * Shows jobs just started wherever they were started from (a run file, a language model tool): on top
 * of the agent's Jobs list and watched in the status bar.
 */
export function showStartedJobs(stores: Stores, log: Log, run: StartedJobs): void {
  const { jobIds } = run;
  const batch = jobIds.length > 1;
  const now = new Date().toISOString();
  // What the rows are labelled by (the inputs, the metadata) is known here: the rows tell the jobs apart at once.
  const jobs: AgentJob[] = jobIds.map((id, i) => ({
    id,
    status_code: JobStatus.PENDING,
    created_at: now,
    agent_version_name: run.versionName,
    status_events: [],
    metadata: batch ? {} : (run.metadata ?? {}),
    job_inputs: jobInputsOf(run.inputSets[i] ?? {}),
  }));
  const store = stores.require();
  store.jobsStarted(run.agentId, jobs);
  const group = batch ? `batch:${jobIds[0] ?? now}` : undefined;
  jobIds.forEach((id, i) => {
    const label = batch ? `${run.agentName} · ${i + 1}/${jobIds.length}` : `${run.agentName} · ${run.versionName}`;
    store.watcher.watch({ id, label, agentId: run.agentId, status: JobStatus.PENDING, createdAt: now, group });
  });
  log.info(`Started ${jobIds.length} job(s) of ${run.agentName} (${run.agentId}): ${jobIds.join(', ')}`);
  vscode.window.setStatusBarMessage(`$(play) Started ${jobIds.length === 1 ? 'a job' : `${jobIds.length} jobs`} of ${run.agentName}`, 5000);
}

/** `untitled:<workspace>/<agent>.agentrun.json`, numbered past files and editors that already use the name; none without a folder. */
async function freeUntitledUri(agentName: string): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return undefined;
  const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.path));
  for (let attempt = 1; ; attempt++) {
    const candidate = vscode.Uri.joinPath(folder.uri, runFileName(agentName, attempt));
    if (open.has(candidate.path)) continue;
    try {
      await vscode.workspace.fs.stat(candidate);
    } catch {
      return candidate.with({ scheme: 'untitled' });
    }
  }
}

/** A run's inputs as the job list shows them (text as text, files by name, JSON as its text). */
function jobInputsOf(inputs: Record<string, unknown>): AgentJob['job_inputs'] {
  return Object.entries(inputs).map(([key, value]) => {
    if (typeof value === 'string') return { key, value };
    const file = value as { name?: unknown; path?: unknown } | null;
    if (file && typeof file === 'object' && (typeof file.name === 'string' || typeof file.path === 'string')) return { key, file_name: String(file.name ?? file.path).split(/[\\/]/).pop() ?? '' };
    return { key, value: JSON.stringify(value) };
  });
}
