import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ServiceClient } from '../../core/client';
import type { ComparisonRecord, ComparisonService, ComparisonTarget, CostEstimate, Grounds } from '../core';
import { target } from '../util/picked';
import { Settings } from '../constants';
import type { TestPrompts } from '../testing/testPrompts';
import { loadCore } from '../lazyCore';

let answers: TestPrompts | undefined;

/** Lets the integration tests answer the start question and the offers (the test build only reads them). */
export function answerStartWith(prompts: TestPrompts): vscode.Disposable {
  answers = prompts;
  return new vscode.Disposable(() => {
    if (answers === prompts) answers = undefined;
  });
}

/** Shows an offer with its actions (a notification, not an error); runs the action taken, if any. Never waits for the answer. */
export function offer(text: string, actions: readonly { label: string; act: () => unknown }[]): void {
  const take = (answer: string | undefined): void => void actions.find((a) => a.label === answer)?.act();
  if (__TEST_HOOKS__ && answers?.offer) return take(answers.offer(text, actions.map((a) => a.label)));
  void vscode.window.showInformationMessage(text, ...actions.map((a) => a.label)).then(take);
}

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

/** The workspace folders (file inputs must lie inside one) and the real path of a file. */
function workspacePaths(): { folders: string[]; realpath: (p: string) => Promise<string> } {
  return { folders: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath), realpath: (p) => fs.realpath(path.resolve(p)) };
}

/**
 * The client as the comparison runner needs it; file inputs go only from inside the workspace. Requests
 * end with `signal`. Runs and cancels state their ground: `grounds` (what the user confirmed), else what
 * this window made.
 */
export function sessionService(client: () => ServiceClient, signal: AbortSignal, grounds: Grounds = {}): ComparisonService {
  const { folders, realpath } = workspacePaths();
  const core = loadCore();
  const confine = (inputs: Record<string, unknown>) => core.confineInputs(inputs, folders, realpath);
  const base = (): Required<ComparisonService> => core.clientComparisonService(client(), grounds);
  return {
    runMany: async (agentId, inputs) => base().runMany(agentId, await Promise.all(inputs.map(confine)), signal),
    runVersion: async (agentId, versionId, inputs) => base().runVersion(agentId, versionId, await confine(inputs), signal),
    runOne: async (agentId, inputs) => base().runOne(agentId, await confine(inputs), signal),
    results: (ids) => base().results(ids, signal),
    cancel: (id) => base().cancel(id, signal),
    statuses: (ids) => base().statuses(ids, signal),
  };
}

/**
 * Checks a comparison, then asks before anything starts (unless `confirmed`: its caller asked, or a test
 * stands in for the answer): the jobs it starts and the agents they run on (as the service names them),
 * what is left out and why, what they will likely cost, which files go. A yes answers the grounds of
 * running exactly those agents; a "no" answers undefined and takes back the refusals the checks marked (a
 * target that cannot take the cases stays marked failed).
 */
export async function askToStart(record: ComparisonRecord, client: ServiceClient, signal: AbortSignal, confirmed: boolean): Promise<Grounds | undefined> {
  const core = loadCore();
  const { folders, realpath } = workspacePaths();
  const inputDefinitions = async (target: ComparisonTarget, s: AbortSignal) => {
    const version = target.kind === 'version' ? await client.agents.getVersion(record.agentId, target.agentVersionId, {}, { signal: s }) : await client.agents.currentVersion(core.agentOfTarget(record, target), { signal: s });
    return version.input_definitions;
  };
  const checks = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Checking the comparison…' }, () => core.preflight(record, { inputDefinitions, service: sessionService(() => client, signal), folders, realpath }, signal));
  const agentIds = core.agentsToStart(record);
  const grant = (how: string): Grounds => core.confirmedGrounds(client.gate, agentIds.map(target.agent), how);
  if (confirmed) return grant('the confirmation of its command');
  const estimate = core.workLeft(record).toStart > 0 ? await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Estimating the cost…' }, () => readCostEstimate(record, client)) : undefined;
  const agents = await Promise.all(agentIds.map((id) => client.agents.get(id, { signal }).then((a) => ({ id, name: a.name }), () => ({ id, name: 'an agent the service does not show' }))));
  const question = core.startQuestion(record, { cost: estimate && core.estimateText(estimate), refused: checks.refused, foreign: checks.foreign, agents });
  const yes = await confirmStart({ ...question, estimate: question.starts > 0 ? estimate : undefined });
  if (!yes) checks.undo();
  return yes ? grant(`the confirmation of ${question.button}`) : undefined;
}

/**
 * The one modal question before jobs start (a comparison, a trial): what runs and what it will likely
 * cost, then "Start N Jobs"; above the cost ceiling of the settings, asked a second time.
 */
export async function confirmStart(question: { message: string; detail: string; button: string; estimate?: CostEstimate }): Promise<boolean> {
  if (__TEST_HOOKS__ && answers?.start) return answers.start(question);
  const answer = await vscode.window.showWarningMessage(question.message, { modal: true, detail: question.detail }, question.button);
  if (answer !== question.button) return false;
  return confirmCost(question.estimate);
}

/** Above the cost ceiling of the settings, asks a second time whether to start; true below it (or with no estimate). */
export async function confirmCost(estimate: CostEstimate | undefined): Promise<boolean> {
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
