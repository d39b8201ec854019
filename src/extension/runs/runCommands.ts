import * as vscode from 'vscode';
import type { BaseAgent, CancelAllJobs } from '../../core/client';
import { JobStatus, isActiveStatus, jobStatusName } from '../../core/jobStatus';
import type { JobWatcher } from '../../core/jobWatch';
import type { Stores } from '../store/stores';
import { isRunFilePath } from '../../core/runs/runFilePath';
import { AgentNode, VersionNode } from '../agents/agentNodes';
import { pickAgent, pickVersion } from '../agents/agentPickers';
import type { AgentsView } from '../agents/agentsView';
import { JobNode } from '../agents/jobNodes';
import { registerCommand } from '../commands/commandRunner';
import type { Connection } from '../connection/connection';
import { RunCommands } from '../constants';
import { parseViewUri } from '../documents/documentUris';
import { loadCore } from '../lazyCore';
import type { Log } from '../log';
import { CancelledError } from '../util/errors';
import { PICKED_IN, picked, target } from '../util/picked';
import type { Runner, StartedRun } from './runner';
import type { RunTargets } from './runTargets';

/** Arguments other parts pass (the job view's Run Again and Cancel, tests). */
interface NewRunFileArgs {
  agentId: string;
  versionId?: string;
  inputs?: Record<string, unknown> | Array<Record<string, unknown>>;
  metadata?: Record<string, unknown>;
}
type JobRef = JobNode | { agentId?: string; jobId?: string; id?: string };

/** Run Agent…, Run This Version…, run a run file, Run Agent on File(s)…, Cancel Job, Cancel All Running Jobs. */
export function registerRunCommands(view: AgentsView, connection: Connection, runner: Runner, targets: RunTargets, stores: Stores, log: Log): vscode.Disposable[] {
  const client = () => connection.requireClient();
  return [
    registerCommand(log, RunCommands.runAgent, async (node?: AgentNode | { agentId: string }) => {
      const agent = node instanceof AgentNode ? node.agent : node?.agentId ? await client().agents.get(node.agentId) : await pickAgent(view, 'Run Agent: choose the agent');
      return runner.open({ agent, version: await client().agents.currentVersion(agent.id), pinVersion: false });
    }),
    registerCommand(log, RunCommands.runVersion, async (arg?: VersionNode | vscode.Uri) => {
      if (arg instanceof VersionNode) return runner.open({ agent: arg.agent, version: arg.version, pinVersion: true });
      const target = parseViewUri((arg) ?? vscode.window.activeTextEditor?.document.uri ?? vscode.Uri.parse('untitled:'));
      if (target?.kind === 'agentVersion') {
        const [agent, version] = await Promise.all([client().agents.get(target.agentId), client().agents.getVersion(target.agentId, target.versionId)]);
        return runner.open({ agent, version, pinVersion: true });
      }
      const agent = await pickAgent(view, 'Run This Version: choose the agent');
      return runner.open({ agent, version: await pickVersion(view, agent, `Run a version of ${agent.name}`), pinVersion: true });
    }),
    registerCommand(log, RunCommands.newRunFile, async (args: NewRunFileArgs) => {
      const agent = await client().agents.get(args.agentId);
      const version = args.versionId ? await client().agents.getVersion(agent.id, args.versionId) : await client().agents.currentVersion(agent.id);
      return runner.open({ agent, version, pinVersion: !!args.versionId, inputs: args.inputs, metadata: args.metadata });
    }),
    registerCommand(log, RunCommands.runFile, async (uri?: vscode.Uri): Promise<StartedRun> => {
      const doc = uri instanceof vscode.Uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
      if (!doc || !isRunFilePath(doc.uri.path)) throw new Error('Open a run file (a file named *.agentrun.json) to run it.');
      return runner.run({ text: doc.getText(), uri: doc.uri });
    }),
    registerCommand(log, RunCommands.runOnFiles, (uri?: vscode.Uri, uris?: vscode.Uri[], agentId?: string) => runOnFiles(view, runner, targets, uris?.length ? uris : uri ? [uri] : [], agentId)),
    registerCommand(log, RunCommands.cancelJob, (arg?: JobRef) => cancelJob(connection, stores, arg)),
    registerCommand(log, RunCommands.cancelAllJobs, async (node?: AgentNode | { agentId: string }, confirmed?: boolean) => {
      const agent = node instanceof AgentNode ? node.agent : node?.agentId ? await client().agents.get(node.agentId) : await pickAgent(view, 'Cancel All Running Jobs: choose the agent');
      // Its dialog names the agent (as the service does) before anything is sent: that answer picks it.
      return cancelAll(connection, stores, agent, confirmed === true);
    }),
  ];
}

/** Run Agent on File(s)…: one file opens a run file to review; several start one job per file (files cannot go in a batch). */
async function runOnFiles(view: AgentsView, runner: Runner, targets: RunTargets, uris: vscode.Uri[], agentId?: string): Promise<StartedRun[] | vscode.Uri> {
  const files: vscode.Uri[] = [];
  for (const uri of uris) if ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.File) files.push(uri);
  if (!files.length) throw new Error('Choose one or more files in the Explorer (folders cannot be run).');
  const agent: BaseAgent = agentId ? await view.client().agents.get(agentId) : await pickAgent(view, `Run Agent on ${files.length === 1 ? 'File' : `${files.length} Files`}: choose the agent`);
  const target = await targets.resolve(agent.id, undefined, true);
  const core = loadCore();
  const fileInputs = target.definitions.filter((d) => core.inputKind(d) === 'file');
  if (!fileInputs.length) throw new Error(`${agent.name} takes no file inputs (it takes ${target.definitions.map((d) => `${d.key} (${d.data_type ?? 'text'})`).join(', ') || 'no inputs'}).`);
  const [only] = fileInputs;
  const key = only && fileInputs.length === 1 ? only.key : await pickFileInput(fileInputs);
  const inputsFor = (file: vscode.Uri): Record<string, unknown> => ({ [key]: vscode.workspace.asRelativePath(file, false) });
  const [single] = files;
  if (single && files.length === 1) return runner.open({ agent, version: target.version, pinVersion: false, inputs: inputsFor(single) });
  const others = target.definitions.filter((d) => d.key !== key).map((d) => `${d.key} = ${JSON.stringify(d.example ?? '')}`);
  const go = `Start ${files.length} Jobs`;
  const answer = await vscode.window.showInformationMessage(
    `Start ${files.length} jobs of ${agent.name}, one per file (as "${key}")?`,
    { modal: true, detail: others.length ? `The other inputs take their examples: ${others.join(', ')}.` : undefined },
    go,
  );
  if (answer !== go) throw new CancelledError();
  const started: StartedRun[] = [];
  // One after the other: a refused file stops nothing else, and nothing is sent twice.
  for (const file of files) {
    const text = core.runFileText({ agentId: agent.id, agentName: agent.name, definitions: target.definitions, inputs: inputsFor(file) });
    started.push(await runner.run({ text }));
  }
  return started;
}

async function pickFileInput(definitions: ReadonlyArray<{ key: string; data_type?: string | null; description?: string | null }>): Promise<string> {
  const pick = await vscode.window.showQuickPick(
    definitions.map((d) => ({ label: d.key, description: d.data_type ?? undefined, detail: d.description ?? undefined })),
    { title: 'Which input takes the file?' },
  );
  if (!pick) throw new CancelledError();
  return pick.label;
}

async function cancelJob(connection: Connection, stores: Stores, arg?: JobRef): Promise<number | undefined> {
  const store = stores.require();
  const ref = arg instanceof JobNode ? { agentId: arg.agentId, jobId: arg.jobId } : { agentId: arg?.agentId, jobId: arg?.jobId ?? arg?.id };
  const jobId = ref.jobId ?? (await askRunningJob(store.watcher));
  const client = connection.requireClient();
  // A row of the Agents view, the job view's or the watched jobs' Cancel, or the pick above: the job the user chose.
  const how = arg instanceof JobNode ? PICKED_IN.agentsView : ref.jobId ? PICKED_IN.jobShown : PICKED_IN.quickPick;
  await client.jobs.cancel(jobId, { ground: picked(client, target.job(jobId), how) });
  const [status] = await statusesAfterCancel(connection, [jobId]);
  // Every place the job appears (rows, status bar, job view, comparison) shows what the service has now.
  if (status) store.patchJobs([{ id: jobId, status_code: status.status, last_updated_at: status.last_updated_at }]);
  void store.watcher.refreshNow();
  const word = !status
    ? 'Cancel sent'
    : status.status === JobStatus.CANCELLED
      ? 'Job cancelled'
      : isActiveStatus(status.status)
        ? 'Cancel sent; the job has not stopped yet'
        : `The job had already ended: ${jobStatusName(status.status)}`;
  vscode.window.setStatusBarMessage(`$(circle-slash) ${word}`, 5000);
  return status?.status;
}

async function askRunningJob(watcher: JobWatcher): Promise<string> {
  const running = watcher.jobs().filter((j) => j.status === undefined || isActiveStatus(j.status));
  const pick = await vscode.window.showQuickPick(running.map((j) => ({ label: j.label ?? j.id, description: j.id, id: j.id })), { title: 'Cancel Job: choose a watched job' });
  if (!pick) throw new CancelledError();
  return pick.id;
}

async function cancelAll(connection: Connection, stores: Stores, agent: BaseAgent, confirmed: boolean): Promise<CancelAllJobs> {
  const store = stores.require();
  const go = 'Cancel All Running Jobs';
  if (!confirmed) {
    const answer = await vscode.window.showWarningMessage(`Cancel every running job of ${agent.name}?`, { modal: true, detail: 'Pending, started and retrying jobs are stopped; finished jobs are not touched. This cannot be undone.' }, go);
    if (answer !== go) throw new CancelledError();
  }
  const client = connection.requireClient();
  const result = await client.agents.cancelAllJobs(agent.id, { ground: picked(client, target.agent(agent.id), 'the confirmation of Cancel All Running Jobs') });
  const count = result.targeted_count;
  void vscode.window.showInformationMessage(`Asked the service to cancel ${count} running job${count === 1 ? '' : 's'} of ${agent.name}.${result.note ? ` ${result.note}` : ''}`);
  // The rows and the watched jobs show what the service has now, not what we hope.
  const ids = [...new Set([...store.activeJobsOf(agent.id).map((j) => j.id), ...store.watcher.jobs().filter((j) => j.agentId === agent.id).map((j) => j.id)])];
  const statuses = await statusesAfterCancel(connection, ids);
  store.patchJobs(statuses.map((s) => ({ id: s.id, status_code: s.status, last_updated_at: s.last_updated_at })));
  void store.watcher.refreshNow();
  return result;
}

/** The statuses after a cancel; the cancel itself is done, so a failed read only leaves the rows to the next poll. */
async function statusesAfterCancel(connection: Connection, ids: string[]): Promise<Array<{ id: string; status: number; last_updated_at?: string | null }>> {
  try {
    return await connection.requireClient().jobs.statuses(ids);
  } catch {
    return [];
  }
}
