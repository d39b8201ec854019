import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import { isInsideFolder } from '../../core/runs/workspacePath';
import type { JobForRule } from '../core';
import { offer } from '../comparison/comparisonPrompts';
import { jobLabelField } from '../configuration';
import type { Connection } from '../connection/connection';
import { ComparisonCommands } from '../constants';
import { loadCore } from '../lazyCore';
import type { TestPrompts } from '../testing/testPrompts';
import { CancelledError } from '../util/errors';
import { coveragePrompts, type JobChoice } from './coveragePrompts';
import { findRule, type RuleToFind } from './ruleToFind';
import type { PolicyCoverage } from './policyCoverage';

/** What Find Cases for a Rule works with. */
export interface FindCasesDeps {
  connection: Connection;
  coverage: PolicyCoverage;
  answers: TestPrompts;
}

/** What Find Cases did: how many cases it added, to which test set. */
export interface CasesAdded {
  added: number;
  testSet: vscode.Uri;
}

/** Recent finished jobs read per agent. */
const JOBS_READ = 200;
/** The longest wait for a loaded document of the test set to follow its file. */
const DOCUMENT_SYNC_MS = 3000;

/**
 * Find Cases for a Rule: past jobs of the agents applying the policy that reach the rule (their outputs
 * say it matched; where outputs say nothing about rules, jobs like its words), offered in a quick pick
 * with their outcome, and the ones chosen appended to the policy's test set as cases to label — the same
 * cases Create Test Set from Jobs… makes, every byte of the file before them kept.
 */
export async function findCases(deps: FindCasesDeps, arg: unknown): Promise<CasesAdded> {
  const prompts = coveragePrompts(deps.answers);
  const target = await findRule(deps.coverage, prompts, arg);
  const testSet = await insideWorkspace(target.testSet ?? deps.coverage.testSets.get(target.policyId) ?? (await deps.coverage.testSets.choose(target.policyId, target.policyName)));
  const name = testSet.path.split('/').pop() ?? 'the test set';
  const core = loadCore();
  const problem = core.appendProblem(name);
  if (problem) throw new Error(problem);
  const text = unsavedDocument(testSet)?.getText() ?? new TextDecoder().decode(await vscode.workspace.fs.readFile(testSet));
  const client = deps.connection.requireClient();
  const found = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Looking for past jobs that reach “${target.rule.title}”…`, cancellable: true },
    async (_progress, token) => {
      const stop = new AbortController();
      token.onCancellationRequested(() => stop.abort());
      const agents = await agentsFor(client, target, core.testSetAgentId(text), stop.signal);
      return { agents, ...(await core.jobsForRule(client, { agents, rule: target.rule, exclude: core.sourceJobIds(name, text), limit: JOBS_READ, byTextOnly: target.isNew, signal: stop.signal })) };
    },
  );
  if (!found.jobs.length) {
    void vscode.window.showInformationMessage(noneFound(target, found));
    return { added: 0, testSet };
  }
  const chosen = await chooseJobs(found.jobs, `Find Cases for “${target.rule.title}”: add jobs to ${name} as cases`, (choices, title) => prompts.jobs(choices, title));
  const { lines, skippedFiles } = core.caseLinesFromJobs(chosen.map((j) => j.job), new Map(chosen.map((j) => [j.job.id, j.result])), jobLabelField());
  await append(testSet, lines);
  const skipped = skippedFiles.length ? ` ${skippedFiles.length} file input${skippedFiles.length === 1 ? ' was' : 's were'} left out (only the file name is known).` : '';
  offer(`Added ${lines.length} case${lines.length === 1 ? '' : 's'} to ${name} for “${target.rule.title}”: run the comparison to see the rule reached, then label ${lines.length === 1 ? 'it' : 'them'}.${skipped}`, [
    { label: 'Run Comparison…', act: () => vscode.commands.executeCommand(ComparisonCommands.runComparison, testSet) },
    { label: 'Open Test Set', act: () => vscode.window.showTextDocument(testSet, { preview: false }) },
  ]);
  return { added: lines.length, testSet };
}

/** The agents whose jobs are read: those applying the policy, only the test set's own when it names one of them. */
async function agentsFor(client: ReturnType<Connection['requireClient']>, target: RuleToFind, named: string | undefined, signal: AbortSignal): Promise<{ id: string; name: string }[]> {
  const applying = (await loadCore().agentsApplying(client, target.policyId, signal)).map((a) => ({ id: a.agent.id, name: a.agent.name }));
  if (!applying.length) throw new Error(`No agent applies “${target.policyName}” (engine_config.policy_id of its current version), so no past job can reach its rules.`);
  const own = applying.filter((a) => a.id === named);
  return own.length ? own : applying;
}

async function chooseJobs(jobs: readonly JobForRule[], title: string, ask: (choices: readonly JobChoice[], title: string) => Thenable<string[] | undefined>): Promise<JobForRule[]> {
  const names = loadCore().caseNamesFromJobs(jobs.map((j) => j.job), jobLabelField());
  const several = new Set(jobs.map((j) => j.agent.id)).size > 1;
  const choices = jobs.map((j, i): JobChoice => ({
    label: names[i] ?? j.job.id,
    description: `${j.outcome ?? 'no outcome'}${several ? ` · ${j.agent.name}` : ''}`,
    detail: `${j.how === 'matched' ? '$(pass) its outputs say this rule matched' : '$(search) like the rule’s words (its outputs say nothing about rules)'} · job ${j.job.id.slice(0, 8)} · ${j.job.created_at.slice(0, 16).replace('T', ' ')}`,
    jobId: j.job.id,
  }));
  const ids = await ask(choices, title);
  if (!ids?.length) throw new CancelledError();
  return jobs.filter((j) => ids.includes(j.job.id));
}

function noneFound(target: RuleToFind, found: { agents: { name: string }[]; read: number; searchedByText: string[] }): string {
  const who = found.agents.map((a) => a.name).join(', ');
  if (target.isNew) return `No finished job of ${who} is like the words of “${target.rule.title}”. Add a case for it by hand: its inputs, and what it should give.`;
  const text = found.searchedByText.length ? `, and none of ${found.searchedByText.join(', ')} is like its words` : '';
  return `None of the ${found.read} most recent finished jobs of ${who} reached “${target.rule.title}”${text}. Add a case for it by hand: its inputs, and what it should give.`;
}

/** The test set, a file inside a workspace folder through its real path (a link may not lead out). */
async function insideWorkspace(testSet: vscode.Uri): Promise<vscode.Uri> {
  const name = vscode.workspace.asRelativePath(testSet);
  const folder = vscode.workspace.getWorkspaceFolder(testSet);
  const real = testSet.scheme === 'file' ? await fs.realpath(testSet.fsPath).catch(() => undefined) : undefined;
  if (!real) throw new Error(`The test set ${name} is not there any more: choose another (change test set, above the policy).`);
  const realFolder = folder && (await fs.realpath(folder.uri.fsPath).catch(() => folder.uri.fsPath));
  if (!realFolder || !isInsideFolder(realFolder, real)) throw new Error(`The test set ${name} is not inside a folder of the workspace: cases are added only to the workspace's own files.`);
  return testSet;
}

/** The test set's document when it has unsaved edits (they are kept, and the cases go after them). */
function unsavedDocument(testSet: vscode.Uri): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.isDirty && d.uri.toString() === testSet.toString());
}

/**
 * Appends lines to the test set: to its document when it has unsaved edits (the user reviews and saves),
 * else to the file's bytes (an editor showing it follows the file).
 */
async function append(testSet: vscode.Uri, lines: readonly string[]): Promise<void> {
  const core = loadCore();
  const open = unsavedDocument(testSet);
  if (open) {
    const text = open.getText();
    const edit = new vscode.WorkspaceEdit();
    edit.insert(testSet, open.positionAt(text.length), core.appendedText(text, lines));
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`The cases could not be added to ${vscode.workspace.asRelativePath(testSet)}: VS Code refused the edit.`);
    return;
  }
  const loaded = vscode.workspace.textDocuments.find((d) => d.uri.toString() === testSet.toString());
  const synced = loaded ? documentChange(loaded) : Promise.resolve();
  await vscode.workspace.fs.writeFile(testSet, core.appendLinesBytes(await vscode.workspace.fs.readFile(testSet), lines));
  // A document of the file already loaded (a run read it) follows the file a moment later: what reads it next (Run Comparison…) must see the new cases.
  await synced;
}

/** Resolves when a document's text changes, or after a while. */
function documentChange(document: vscode.TextDocument): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      listener.dispose();
      resolve();
    };
    const listener = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === document) done();
    });
    const timer = setTimeout(done, DOCUMENT_SYNC_MS);
  });
}
