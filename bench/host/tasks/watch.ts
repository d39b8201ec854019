// The status bar's job watcher (the real one the extension created), watching jobs the
// orchestrator started; the orchestrator counts the requests on the wire.
import * as vscode from 'vscode';
import { isActiveStatus } from '../../../src/core/jobStatus';
import type { WatchState } from '../protocol';
import { workbenchApi } from '../workbench';

/** Watches exactly these jobs (already known to be PENDING). */
export async function watchJobs(ids: string[]): Promise<WatchState> {
  const watcher = (await workbenchApi()).stores.require().watcher;
  watcher.unwatchAll();
  for (const id of ids) watcher.watch({ id, status: 0, label: `bench ${id.slice(0, 8)}` });
  return watchState();
}

/** The watcher's jobs by status, and the conditions its interval depends on. */
export async function watchState(): Promise<WatchState> {
  const watcher = (await workbenchApi()).stores.require().watcher;
  const jobs = watcher.jobs();
  const statuses: Record<string, number> = {};
  for (const job of jobs) statuses[String(job.status)] = (statuses[String(job.status)] ?? 0) + 1;
  const seconds = vscode.workspace.getConfiguration('agentWorkbench').get<number>('jobs.watchIntervalSeconds') ?? 5;
  return {
    focused: vscode.window.state.focused,
    intervalMs: seconds * 1000,
    watched: jobs.length,
    running: jobs.filter((job) => job.status !== undefined && isActiveStatus(job.status)).length,
    statuses,
  };
}

export async function unwatchAll(): Promise<null> {
  (await workbenchApi()).stores.require().watcher.unwatchAll();
  return null;
}
