import * as vscode from 'vscode';
import { elapsedText, jobTitle, statusGroup, statusWord, type WatchedJob } from '../../core/jobWatch';
import { JobNode } from '../agents/jobNodes';
import { shownWatchedJob } from '../agents/jobPresentation';
import { registerCommand } from '../commands/commandRunner';
import { AgentCommands, RunCommands } from '../constants';
import { parseViewUri } from '../documents/documentUris';
import type { Log } from '../log';
import { CancelledError } from '../util/errors';
import type { Stores } from '../store/stores';
import type { JobWatcher } from '../../core/jobWatch';
import type { ServiceClient } from '../../core/client';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Watch Job (from a job node, `{agentId, jobId}`, an open job document, or a pasted ID), the watched-jobs list, Stop All. */
export function registerJobWatchCommands(stores: Stores, log: Log, client: () => ServiceClient): vscode.Disposable[] {
  const watcher = (): JobWatcher => stores.require().watcher;
  const watchById = (id: string): void => {
    const jobs = watcher();
    jobs.watch({ id });
    void resolveAgent(jobs, client, id, stores).catch((error: unknown) => log.debug(`Watched job ${id}: its agent could not be read (${String(error)})`));
  };
  return [
    registerCommand(log, AgentCommands.watchJob, async (arg?: unknown) => {
      if (arg instanceof JobNode) {
        const job = arg.job;
        watcher().watch({ id: job.id, label: `${arg.agentName} · ${job.agent_version_name ?? job.id.slice(0, 8)}`, agentId: arg.agentId, status: job.status_code, createdAt: job.created_at });
        return;
      }
      // `{agentId, jobId}` from the job view and other commands.
      const ids = arg as { agentId?: unknown; jobId?: unknown; label?: unknown } | undefined;
      if (typeof ids?.jobId === 'string' && typeof ids.agentId === 'string') {
        watcher().watch({ id: ids.jobId, agentId: ids.agentId, label: typeof ids.label === 'string' ? ids.label : undefined });
        return;
      }
      if (typeof ids?.jobId === 'string' && UUID.test(ids.jobId.trim())) {
        watchById(ids.jobId.trim());
        return;
      }
      const target = parseViewUri((arg as vscode.Uri | undefined) ?? vscode.window.activeTextEditor?.document.uri ?? vscode.Uri.parse('untitled:'));
      if (target?.kind === 'job') {
        watcher().watch({ id: target.jobId, agentId: target.agentId });
        return;
      }
      const id = await vscode.window.showInputBox({
        title: 'Watch Job',
        prompt: 'The ID of the job to watch; the status bar shows it until you dismiss it.',
        placeHolder: '0b5c2d1e-1111-4222-8333-944455566677',
        validateInput: (v) => (UUID.test(v.trim()) ? undefined : 'A job ID is a UUID'),
      });
      if (!id) throw new CancelledError();
      watchById(id.trim());
    }),
    registerCommand(log, AgentCommands.stopWatchingAll, () => watcher().unwatchAll()),
    registerCommand(log, AgentCommands.showWatchedJobs, () => showWatchedJobs(watcher(), (job) => shownWatchedJob(stores.current, job))),
  ];
}

const openButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('go-to-file'), tooltip: 'Open Job' };
const stopButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('eye-closed'), tooltip: 'Stop Watching' };
const cancelButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('circle-slash'), tooltip: 'Cancel Job' };

type Item = vscode.QuickPickItem & { job?: WatchedJob; action?: () => void };

/**
 * A job watched by its ID alone: the status answer names no agent, the bulk results answer does
 * (`agent_id`). With it the job opens, offers Show Result, and is labelled by its agent's name.
 */
async function resolveAgent(jobs: JobWatcher, client: () => ServiceClient, id: string, stores: Stores): Promise<void> {
  const [record] = await client().jobs.results([id]);
  const agentId = record?.agent_id;
  if (!agentId) return;
  const agent = stores.current?.agent(agentId) ?? (await client().agents.get(agentId).catch(() => undefined));
  jobs.watch({ id, agentId, label: agent ? `${agent.name} · ${id.slice(0, 8)}` : undefined });
}

/** The watched-jobs menu: its actions first (a long list would hide them), then the jobs. */
export function watchedJobsItems(jobs: readonly WatchedJob[], now: number, actions: { dismiss: () => void; stopAll: () => void; watchAnother: () => void; cancel: (job: WatchedJob) => void; showResult?: (job: WatchedJob) => void }): Item[] {
  const running = jobs.filter((job) => statusGroup(job) === 'running');
  const items: Item[] = [];
  // Results that finished while watched and were not looked at yet: the notification that offered them may be gone.
  for (const job of jobs) {
    if (job.unseen && job.agentId && actions.showResult) items.push({ label: `$(go-to-file) Show Result: ${jobTitle(job)}`, description: statusWord(job), action: () => actions.showResult?.(job) });
  }
  if (running.length === 1) items.push({ label: `$(circle-slash) Cancel Job ${jobTitle(running[0]!)}`, action: () => actions.cancel(running[0]!) });
  if (running.length > 1) items.push({ label: '$(circle-slash) Cancel Job…', description: `${running.length} running`, action: () => void pickToCancel(running, actions.cancel) });
  if (jobs.some((job) => statusGroup(job) !== 'running' && statusGroup(job) !== 'checking')) items.push({ label: '$(clear-all) Dismiss Finished Jobs', action: actions.dismiss });
  if (jobs.length) items.push({ label: '$(eye-closed) Stop Watching All', action: actions.stopAll });
  items.push({ label: '$(add) Watch Another Job…', action: actions.watchAnother });
  if (jobs.length) items.push({ label: jobs.length === 1 ? 'Job' : `${jobs.length} jobs`, kind: vscode.QuickPickItemKind.Separator });
  for (const job of jobs) {
    items.push({
      label: `${icon(job)} ${jobTitle(job)}`,
      description: `${statusWord(job)} · ${elapsedText(job, now)}`,
      detail: job.errorMessage ?? job.lastError ?? job.id,
      job,
      buttons: [...(job.agentId ? [openButton] : []), ...(statusGroup(job) === 'running' ? [cancelButton] : []), stopButton],
    });
  }
  return items;
}

async function pickToCancel(running: readonly WatchedJob[], cancel: (job: WatchedJob) => void): Promise<void> {
  const pick = await vscode.window.showQuickPick(running.map((job) => ({ label: jobTitle(job), description: job.id, job })), { title: 'Cancel Job', placeHolder: 'The running job to cancel' });
  if (pick) cancel(pick.job);
}

function showWatchedJobs(watcher: JobWatcher, shown: (job: WatchedJob) => WatchedJob): void {
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = 'Watched Jobs';
  qp.placeholder = 'Select a job to open it; its buttons open, cancel or stop watching it';
  const cancel = (job: WatchedJob): void => void vscode.commands.executeCommand(RunCommands.cancelJob, { agentId: job.agentId, jobId: job.id });
  const render = (): void => {
    qp.items = watchedJobsItems(watcher.jobs().map(shown), Date.now(), {
      dismiss: () => watcher.dismissFinished(),
      stopAll: () => watcher.unwatchAll(),
      watchAnother: () => void vscode.commands.executeCommand(AgentCommands.watchJob, null),
      cancel,
      showResult: open,
    });
  };
  render();
  const sub = watcher.onDidChange(render);
  qp.onDidTriggerItemButton((e) => {
    if (!e.item.job) return;
    if (e.button === stopButton) watcher.unwatch(e.item.job.id);
    else if (e.button === cancelButton) cancel(e.item.job);
    else open(e.item.job);
  });
  qp.onDidAccept(() => {
    const item = qp.selectedItems[0];
    qp.hide();
    if (item?.action) item.action();
    else if (item?.job) open(item.job);
  });
  qp.onDidHide(() => {
    sub.dispose();
    qp.dispose();
  });
  qp.show();
}

function open(job: WatchedJob): void {
  if (job.agentId) void vscode.commands.executeCommand(AgentCommands.openJob, { agentId: job.agentId, jobId: job.id });
  else void vscode.window.showInformationMessage(`Job ${job.id} was watched by ID; its agent is not known, so it cannot be opened from here. Status: ${statusWord(job)}.`);
}

function icon(job: WatchedJob): string {
  const icons = { failed: '$(error)', done: '$(pass)', cancelled: '$(circle-slash)', unknown: '$(question)', checking: '$(sync~spin)', running: '$(sync~spin)' } as const;
  return icons[statusGroup(job)];
}
