import * as vscode from 'vscode';
import type { AgentJob } from '../../core/client';
import { duration, elapsedMs } from '../../core/format';
import { JobStatus, isFinalStatus, jobStatusName } from '../../core/jobStatus';

/** The icon of a job status: spinning while it runs, coloured by outcome. */
export function jobStatusIcon(code: number | undefined): vscode.ThemeIcon {
  switch (code) {
    case JobStatus.PENDING:
      return new vscode.ThemeIcon('loading~spin', new vscode.ThemeColor('charts.yellow'));
    case JobStatus.STARTED:
      return new vscode.ThemeIcon('loading~spin', new vscode.ThemeColor('charts.blue'));
    case JobStatus.RETRY:
      return new vscode.ThemeIcon('loading~spin', new vscode.ThemeColor('charts.orange'));
    case JobStatus.SUCCESS:
      return new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed'));
    case JobStatus.FAILURE:
      return new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
    case JobStatus.CANCELLED:
      return new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('disabledForeground'));
    case JobStatus.CACHED:
      return new vscode.ThemeIcon('database', new vscode.ThemeColor('charts.green'));
    default:
      return new vscode.ThemeIcon('question');
  }
}

/** How long a job ran (final) or has been running (not final); the service's `duration_ms` when it sends one. */
export function jobDurationText(job: AgentJob, now: number = Date.now()): string {
  const reported = (job as { duration_ms?: unknown }).duration_ms;
  if (typeof reported === 'number' && isFinalStatus(job.status_code)) return duration(reported);
  const ms = elapsedMs(job.created_at, isFinalStatus(job.status_code) ? job.last_updated_at : undefined, now);
  return duration(ms);
}

/** The status as people read it: "SUCCESS", "RETRY (attempt 2)". */
export function jobStatusText(job: Pick<AgentJob, 'status_code' | 'status_events'>): string {
  const name = jobStatusName(job.status_code);
  if (job.status_code !== JobStatus.RETRY) return name;
  const retries = job.status_events?.filter((e) => e.status_code === JobStatus.RETRY).length ?? 0;
  return retries > 1 ? `${name} (attempt ${retries + 1})` : name;
}

/** The short ID users recognise (first 8 characters of the UUID). */
export function shortId(id: string): string {
  return id.slice(0, 8);
}
