import * as vscode from 'vscode';
import type { AgentVersion, BaseAgent } from '../../core/client';
import { trialUserName } from '../../core/trial/trialMarker';
import { CancelledError } from '../util/errors';
import { setUp, type TrialDeps } from './tryThisEdit';
import { comparisonUriOf, readTrialFile, unfinishedTrials, type TrialFile } from './trialWorkspace';
import type { LeftAlone, Leftover } from '../core';
import { loadCore } from '../lazyCore';
import { asTrialOfYours, checking, confirmedRemoval, copies, leftAloneNote, notYours, planText, type EndArgs } from './trialAnswers';
import { discardThisTrial } from './trialEnding';

/** Clean Up Trials… (tests pass `confirmed` to remove every leftover of the user without the menu). */
export interface CleanUpArgs extends EndArgs {
  /** Resume this unfinished trial file instead (what the menu's "Resume" does). */
  resume?: vscode.Uri;
}

/**
 * Clean Up Trials…: the workspace's unfinished trials (resume or discard each, as the user says) and the
 * trial entities of the signed-in user anywhere in the organization, found by their marker, removed
 * after asking. Opening a trial file never does any of this.
 */
export async function cleanUpTrials(deps: TrialDeps, args: CleanUpArgs): Promise<number> {
  if (args.resume) {
    await resumeTrial(deps, await readTrialFile(args.resume), args);
    return 0;
  }
  const client = deps.connection.requireClient();
  const core = loadCore();
  const user = trialUserName(await client.users.current().catch(() => undefined));
  const open = await unfinishedTrials();
  // A trial whose comparison is open in this window is alive: Clean Up leaves it (and its copies) alone.
  const live = open.filter((file) => deps.comparisons.session(comparisonUriOf(file.uri)) !== undefined);
  const stale = open.filter((file) => !live.includes(file) && file.record.user === user);
  const leftovers = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Looking for trial copies left in the organization…' }, () =>
    core.findLeftovers(client, { user, keepTrialIds: live.map((file) => file.record.trialId) }),
  );
  if (!open.length && !leftovers.length) {
    void vscode.window.showInformationMessage(`No trial of ${user} is left behind: nothing to clean up.`);
    return 0;
  }
  type Item = vscode.QuickPickItem & { act: () => Promise<number> };
  const count = leftovers.length;
  const removeAll: Item = {
    label: `$(trash) Remove ${count} trial cop${count === 1 ? 'y' : 'ies'} of ${user}${stale.length ? ` and discard ${stale.length} unfinished trial${stale.length === 1 ? '' : 's'}` : ''}`,
    description: 'agents and policies marked as your trials, anywhere in the organization',
    detail: leftovers.slice(0, 4).map((l) => l.name).join(' · ') + (count > 4 ? ` · and ${count - 4} more` : ''),
    act: () => removeLeftovers(deps, stale, leftovers, user, args.confirmed ?? false),
  };
  const items: Item[] = [
    ...open.flatMap((file): Item[] => [
      { label: `$(debug-continue) Resume ${core.trialSubjectName(file.record)}`, description: vscode.workspace.asRelativePath(file.uri), detail: `a trial of ${file.record.createdAt.slice(0, 16).replace('T', ' ')} (${file.record.state === 'started' ? 'interrupted while its copies were made' : 'its comparison can be resumed, published or discarded'})`, act: () => resumeTrial(deps, file, args).then(() => 0) },
      { label: `$(discard) Discard ${core.trialSubjectName(file.record)}`, description: vscode.workspace.asRelativePath(file.uri), act: () => discardThisTrial(deps, file.uri, { confirmed: args.confirmed }) },
    ]),
    ...(count || stale.length ? [removeAll] : []),
  ];
  if (args.confirmed) return removeAll.act();
  const pick = await vscode.window.showQuickPick(items, { title: 'Clean Up Trials', placeHolder: 'Resume or discard a trial of this workspace, or remove your trial copies from the organization' });
  if (!pick) throw new CancelledError();
  return pick.act();
}

/**
 * Removes the user's trial copies found by their marker and discards the user's unfinished trials of the
 * workspace: every candidate is read again and only what the service marks as a trial's copy (or a copy
 * this window made) goes. The confirmation lists exactly that, and what is left alone.
 */
async function removeLeftovers(deps: TrialDeps, stale: readonly TrialFile[], leftovers: readonly Leftover[], user: string, confirmed: boolean): Promise<number> {
  const core = loadCore();
  const client = deps.connection.requireClient();
  const { files, others } = await checking(async () => {
    const files = [];
    for (const file of stale) files.push({ file, plan: await core.planTrialRemoval(client, file.record, deps.madeHere) });
    const named = new Set(files.flatMap((f) => f.plan.remove.map((c) => c.id)));
    return { files, others: await core.planLeftoverRemoval(client, leftovers.filter((l) => !named.has(l.id))) };
  });
  const foreign = files.filter((f) => !f.plan.remove.length && f.plan.leftAlone.length);
  const mine = files.filter((f) => !foreign.includes(f));
  const count = mine.reduce((n, f) => n + f.plan.remove.length, others.remove.length);
  if (foreign.length && !count) return notYours(deps.log, foreign.map((f) => f.file), `${foreign.map((f) => planText(f.plan, '')).join('')}Nothing they name is marked as their copy.`, { confirmed });
  const all = { remove: [...mine.flatMap((f) => f.plan.remove), ...others.remove], leftAlone: [...files.flatMap((f) => f.plan.leftAlone), ...others.leftAlone] };
  if (!confirmed) {
    const go = 'Remove Trial Copies';
    const discarded = mine.length ? `Unfinished trials of this workspace discarded with them: ${mine.map((f) => vscode.workspace.asRelativePath(f.file.uri)).join(', ')}.\n\n` : '';
    const answer = await vscode.window.showWarningMessage(`Remove ${copies(count)} of ${user} from the organization?`, { modal: true, detail: `${planText(all, 'Removed')}${discarded}Only what the service marks as ${user}'s trial copies is removed; real agents and policies are not touched.` }, go);
    if (answer !== go) throw new CancelledError();
  }
  // The yes to the list (or a test's stand-in for it) grounds the removal of exactly the copies it named.
  const listed = confirmedRemoval(client, all.remove, 'the confirmation of Remove Trial Copies');
  let removed = 0;
  const leftAlone: LeftAlone[] = [...others.leftAlone];
  for (const { file, plan } of mine) {
    const outcome = await core.discardPlanned(client, file.record, plan, file.save, undefined, listed);
    removed += outcome.removed;
    leftAlone.push(...outcome.leftAlone);
  }
  const rest = await core.removeVerified(client, others.remove, undefined, listed);
  removed += rest.removed;
  leftAlone.push(...rest.refused);
  deps.agents.reload();
  deps.policies.reload();
  void vscode.window.showInformationMessage(`Removed ${copies(removed)} of ${user}.${leftAloneNote(deps.log, [...leftAlone, ...foreign.flatMap((f) => f.plan.leftAlone)])}`);
  return removed;
}

/**
 * Resumes an interrupted trial: the copies not made yet are made (the core keeps a file's id only where
 * this window made it or the service marks it as the trial's, so a file naming a real agent gets a fresh
 * copy, never a new version there), then its comparison opens (where Resume asks before starting
 * anything). Another user's file is "not a trial of yours".
 */
async function resumeTrial(deps: TrialDeps, trial: TrialFile, args: EndArgs): Promise<void> {
  await asTrialOfYours(deps.log, trial, args, undefined, () => resumeYours(deps, trial));
}

async function resumeYours(deps: TrialDeps, trial: TrialFile): Promise<void> {
  const comparison = comparisonUriOf(trial.uri);
  const record = trial.record;
  const client = deps.connection.requireClient();
  const core = loadCore();
  await core.assertTrialOfUser(client, record);
  if (record.state === 'started') {
    if (core.isDraftTrial(record)) {
      const agent = await client.agents.get(record.agentId);
      await setUp(deps, client, trial, () => core.setUpDraftTrial(client, record, agent, trial.save, deps.madeHere));
    } else {
      const agents: { agent: BaseAgent; version: AgentVersion }[] = [];
      for (const entity of core.trialAgents(record)) {
        if (!entity.sourceAgentId || !entity.sourceVersionId) continue;
        agents.push({ agent: await client.agents.get(entity.sourceAgentId), version: await client.agents.getVersion(entity.sourceAgentId, entity.sourceVersionId) });
      }
      if (!agents.length) throw new Error(`${vscode.workspace.asRelativePath(trial.uri)} was interrupted before it named an agent to copy: discard it and try the edit again.`);
      await setUp(deps, client, trial, () => core.setUpTrial(client, record, agents, trial.save, deps.madeHere));
    }
  }
  const exists = await vscode.workspace.fs.stat(comparison).then(() => true, () => false);
  if (!exists) throw new Error(`The trial's copies are ready, but its comparison ${vscode.workspace.asRelativePath(comparison)} is missing: discard the trial and try the edit again.`);
  await deps.comparisons.open(comparison);
}
