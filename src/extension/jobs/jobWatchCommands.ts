import * as vscode from 'vscode';
import { elapsedText, jobTitle, statusGroup, statusWord, type WatchedJob } from '../../core/jobWatch';
import { JobNode } from '../agents/jobNodes';
import { registerCommand } from '../commands/commandRunner';
import { AgentCommands, RunCommands } from '../constants';
import { parseViewUri } from '../documents/documentUris';
import type { Log } from '../log';
import { CancelledError } from '../util/errors';
import type { Stores } from '../store/stores';
import type { JobWatcher } from '../../core/jobWatch';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Watch Job (from a job node, `{agentId, jobId}`, an open job document, or a pasted ID), the watched-jobs list, Stop All. */
export function registerJobWatchCommands(stores: Stores, log: Log): vscode.Disposable[] {
  const watcher = (): JobWatcher => stores.require().watcher;
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
      watcher().watch({ id: id.trim() });
    }),
    registerCommand(log, AgentCommands.stopWatchingAll, () => watcher().unwatchAll()),
    registerCommand(log, AgentCommands.showWatchedJobs, () => showWatchedJobs(watcher())),
  ];
}

const openButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('go-to-file'), tooltip: 'Open Job' };
const stopButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('eye-closed'), tooltip: 'Stop Watching' };
const cancelButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('circle-slash'), tooltip: 'Cancel Job' };

type Item = vscode.QuickPickItem & { job?: WatchedJob; action?: () => void };

function showWatchedJobs(watcher: JobWatcher): void {
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = 'Watched Jobs';
  qp.placeholder = 'Select a job to open it; use the buttons to stop watching';
  const render = (): void => {
    const now = Date.now();
    const jobs = watcher.jobs();
    const items: Item[] = jobs.map((job) => ({
      label: `${icon(job)} ${jobTitle(job)}`,
      description: `${statusWord(job)} · ${elapsedText(job, now)}`,
      detail: job.errorMessage ?? job.lastError ?? job.id,
      job,
      buttons: [...(job.agentId ? [openButton] : []), ...(statusGroup(job) === 'running' ? [cancelButton] : []), stopButton],
    }));
    items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
    items.push({ label: '$(clear-all) Dismiss Finished Jobs', action: () => watcher.dismissFinished() });
    items.push({ label: '$(eye-closed) Stop Watching All', action: () => watcher.unwatchAll() });
    items.push({ label: '$(add) Watch Another Job…', action: () => void vscode.commands.executeCommand(AgentCommands.watchJob, null) });
    qp.items = items;
  };
  render();
  const sub = watcher.onDidChange(render);
  qp.onDidTriggerItemButton((e) => {
    if (!e.item.job) return;
    if (e.button === stopButton) watcher.unwatch(e.item.job.id);
    else if (e.button === cancelButton) void vscode.commands.executeCommand(RunCommands.cancelJob, { agentId: e.item.job.agentId, jobId: e.item.job.id });
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
