import * as vscode from 'vscode';
import type { ServiceClient } from '../../core/client';
import type { ComparisonRecord, CostEstimate } from '../core';
import { Settings } from '../constants';
import { loadCore } from '../lazyCore';

/** What to do with cases whose batch was sent but whose answer was lost. */
export type LostBatchChoice = 'notStarted' | 'leave';

/** How long the estimate may take before the confirmation goes without it. */
const ESTIMATE_MS = 4000;

/** What the jobs to start will likely cost (the one estimate of the core), bounded in time; undefined when it cannot be told. */
export async function readCostEstimate(record: ComparisonRecord, client: ServiceClient): Promise<CostEstimate | undefined> {
  return loadCore().readCostEstimate(client, record, AbortSignal.timeout(ESTIMATE_MS)).catch(() => undefined);
}

/** Running, uploading and cancelling act on the service: only in a trusted workspace. */
export function requireTrust(what: string): void {
  if (!vscode.workspace.isTrusted) {
    throw new Error(`${what} starts or cancels jobs and may upload files: it needs a trusted workspace. Trust this folder (Workspaces: Manage Workspace Trust) to go on; opening a comparison only shows it.`);
  }
}

/**
 * Asks before anything starts: how many jobs, on which agent, what they will likely cost, which files
 * go (none when nothing is started). Above the cost ceiling of the settings it asks a second time.
 */
export async function confirmResume(record: ComparisonRecord, estimate?: CostEstimate): Promise<boolean> {
  const core = loadCore();
  const left = core.workLeft(record);
  const files = core.filesToSend(record);
  const agent = record.agentName ?? record.agentId;
  const parts = [
    left.toStart > 0 ? `starts ${left.toStart} job${left.toStart === 1 ? '' : 's'} of ${agent}` : 'starts no job',
    left.unfinished > 0 ? `follows ${left.unfinished} job${left.unfinished === 1 ? '' : 's'} not finished` : '',
  ].filter(Boolean);
  const cost = left.toStart > 0 && estimate ? `Cost: ${core.estimateText(estimate)}.` : '';
  const sent = files.length ? `Files sent to the service: ${files.slice(0, 10).join(', ')}${files.length > 10 ? ` and ${files.length - 10} more` : ''}.` : 'No file is sent.';
  const detail = [cost, sent].filter(Boolean).join('\n\n');
  const go = left.toStart > 0 ? `Start ${left.toStart} Job${left.toStart === 1 ? '' : 's'}` : 'Resume';
  return confirmStart({ message: `Resume "${record.title}"? This ${parts.join(' and ')}.`, detail, button: go, estimate: left.toStart > 0 ? estimate : undefined });
}

/**
 * The one modal question before jobs start (a comparison, a trial): what runs and what it will likely
 * cost, then "Start N Jobs"; above the cost ceiling of the settings, asked a second time.
 */
export async function confirmStart(question: { message: string; detail: string; button: string; estimate?: CostEstimate }): Promise<boolean> {
  const answer = await vscode.window.showWarningMessage(question.message, { modal: true, detail: question.detail }, question.button);
  if (answer !== question.button) return false;
  const { estimate } = question;
  const ceiling = vscode.workspace.getConfiguration(Settings.section).get<number>(Settings.confirmTwiceAboveCost, 0);
  if (!estimate || !loadCore().overCeiling(estimate, ceiling)) return true;
  const sure = 'Start Anyway';
  const again = await vscode.window.showWarningMessage(
    `These ${estimate.jobs} jobs are estimated above your ceiling of ${ceiling} (agentWorkbench.comparisons.confirmTwiceAboveCost).`,
    { modal: true, detail: `${loadCore().estimateText(estimate)}.` },
    sure,
  );
  return again === sure;
}

/** Asks before cancelling, with the count (and the ids left alone because they are not this agent's). */
export async function confirmCancel(record: ComparisonRecord, count: number, foreign: readonly string[]): Promise<boolean> {
  const go = `Cancel ${count} Job${count === 1 ? '' : 's'}`;
  const detail = foreign.length ? `${foreign.length} job id${foreign.length === 1 ? ' is' : 's are'} not of this agent and ${foreign.length === 1 ? 'is' : 'are'} left alone: ${foreign.slice(0, 5).join(', ')}${foreign.length > 5 ? '…' : ''}.` : undefined;
  const answer = await vscode.window.showWarningMessage(`Cancel ${count} unfinished job${count === 1 ? '' : 's'} of ${record.agentName ?? record.agentId} in "${record.title}"?`, { modal: true, detail }, go);
  return answer === go;
}

/** Asks what to do with batches whose answer was lost (or takes `choice`); undefined when the user backs out. */
export async function decideLostBatches(record: ComparisonRecord, choice: LostBatchChoice | undefined, jobsSince: (iso: string) => Promise<string>): Promise<LostBatchChoice | undefined> {
  if (choice) return choice;
  const batches = record.pending;
  const cases = batches.reduce((n, b) => n + b.caseIndexes.length, 0);
  const since = await jobsSince(batches.map((b) => b.sentAt).sort()[0] ?? record.createdAt);
  const notStarted = 'Mark as Not Started';
  const leave = 'Leave Them';
  const answer = await vscode.window.showWarningMessage(
    `${cases} case${cases === 1 ? ' was' : 's were'} sent to the service, but the answer was lost: those jobs may or may not have started.`,
    {
      modal: true,
      detail: `The agent's jobs were read again: ${since}. "Mark as Not Started" starts those cases again (choose it only if the jobs are not there); "Leave Them" keeps them out of the comparison.`,
    },
    notStarted,
    leave,
  );
  return answer === notStarted ? 'notStarted' : answer === leave ? 'leave' : undefined;
}
