import * as vscode from 'vscode';
import type { StatusLook } from '../../core/jobView/model';
import { statusLook } from '../../core/jobView/statusLook';
import type { AgentJob } from '../../core/client';
import type { WatchedJob } from '../../core/jobWatch';
import { jobRowText, type JobRowText } from '../../core/jobView/jobRow';
import type { ServiceStore } from '../../core/store/serviceStore';
import { jobLabelField } from '../configuration';

/** The theme colour of each tone (the job view's style sheet uses the same variables). */
const TONE_COLORS: Record<StatusLook['tone'], string | undefined> = {
  pending: 'charts.yellow',
  running: 'charts.blue',
  retry: 'charts.orange',
  success: 'testing.iconPassed',
  failure: 'testing.iconFailed',
  cancelled: 'disabledForeground',
  cached: 'charts.green',
  unknown: undefined,
};

/** The icon of a job status: spinning while it runs, coloured by outcome. */
export function jobStatusIcon(code: number | undefined): vscode.ThemeIcon {
  const look = statusLook(code);
  const color = TONE_COLORS[look.tone];
  return new vscode.ThemeIcon(look.spin ? `${look.icon}~spin` : look.icon, color ? new vscode.ThemeColor(color) : undefined);
}

/** A job's row text with the label the store keeps for it (the same in the tree, pickers and the status bar). */
export function rowTextOf(store: ServiceStore | undefined, agentId: string | undefined, job: AgentJob): JobRowText {
  return store ? store.labels.rowText(agentId, job, jobLabelField()) : jobRowText(job, jobLabelField());
}

/** A watched job as the status bar, its menu and notifications name it: by the label its row has (see `ServiceStore.labelOfWatched`). */
export function shownWatchedJob(store: ServiceStore | undefined, job: WatchedJob): WatchedJob {
  const label = store?.labelOfWatched(job, jobLabelField());
  return label ? { ...job, label } : job;
}
