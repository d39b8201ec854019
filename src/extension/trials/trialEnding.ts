import * as vscode from 'vscode';
import type { AgentVersion, BaseAgent } from '../../core/client';
import type { AgentVersionDraft } from '../../core/documents/agentVersionDraft';
import { trialUserName } from '../../core/trial/trialMarker';
import { CancelledError } from '../util/errors';
import { setUp, tryThisEdit, type StartedTrial, type TrialDeps } from './tryThisEdit';
import { comparisonUriOf, readTrialFile, trialOf, unfinishedTrials, type TrialFile } from './trialWorkspace';
import type { DraftTrialRecord, LeftAlone, Leftover, PolicyTrialRecord, RemovalPlan } from '../core';
import { loadCore } from '../lazyCore';

/** What tests pass instead of answering the dialogs. */
export interface EndArgs {
  confirmed?: boolean;
}

/** What Publish This Edit did. */
export type PublishResult = { kind: 'published'; versionId: string } | { kind: 'retried'; trial: StartedTrial } | { kind: 'notPublished' };

/**
 * Publish This Edit: the content tried becomes one new version of the real policy, through the save
 * flow of policy documents (version name asked; a policy changed since the trial began is said so,
 * with Try Again), then the trial's agents and policy are removed.
 */
export async function publishThisEdit(deps: TrialDeps, arg: unknown, args: EndArgs = {}): Promise<PublishResult> {
  const trial = await trialOf(arg, 'Publish This Edit: which trial?');
  if (!mayEnd(deps, trial, 'published')) return { kind: 'notPublished' };
  const record = trial.record;
  if (loadCore().isDraftTrial(record)) return publishDraft(deps, trial, record, args);
  const { outcome, created, retry } = await deps.policyDocuments.publish(record);
  if (retry) return { kind: 'retried', trial: await tryAgain(deps, trial) };
  if (outcome.kind === 'cancelled') return { kind: 'notPublished' };
  if (outcome.kind === 'unchanged') {
    void vscode.window.showInformationMessage(`${outcome.message} The trial is still open: Discard Trial removes its copies.`);
    return { kind: 'notPublished' };
  }
  if (outcome.kind === 'notSaved' || !created) throw new Error(outcome.kind === 'notSaved' ? outcome.message : 'The new version was not made.');
  const client = deps.connection.requireClient();
  const removal = await loadCore().completePublish(client, record, created.id, trial.save, deps.madeHere);
  deps.agents.reload();
  deps.policies.reload();
  void vscode.window.showInformationMessage(`Published “${created.version_name || created.id}” of “${record.policyName}”: it is the current version now. The trial's copies were removed.${leftAloneNote(deps, removal.leftAlone)}`);
  return { kind: 'published', versionId: created.id };
}

/**
 * Publish of a draft's trial: after asking, the draft becomes one new version of the real agent (refused
 * when the agent got a newer version since the trial began), then the trial's copy is removed and the new
 * version is shown in the Agents view.
 */
async function publishDraft(deps: TrialDeps, trial: TrialFile, record: DraftTrialRecord, args: EndArgs): Promise<PublishResult> {
  const client = deps.connection.requireClient();
  const core = loadCore();
  const draft = record.content as { version_name?: string };
  if (!args.confirmed) {
    const go = 'Publish';
    const detail = `The draft becomes the current version of “${record.agentName}”: every new job runs it. The trial's copy is removed; the comparison file stays as a record.`;
    const answer = await vscode.window.showWarningMessage(`Publish the draft${draft.version_name ? ` “${draft.version_name}”` : ''} as a new version of “${record.agentName}”?`, { modal: true, detail }, go);
    if (answer !== go) return { kind: 'notPublished' };
  }
  const before = record.state;
  // The user confirmed publishing to this agent (the dialog above, or a test's stand-in for it).
  const ground = client.gate?.userPicked(core.publishTarget(record), 'the Publish confirmation');
  const versionId = await core.publishTrial(client, record, trial.save, { ground, madeHere: deps.madeHere });
  // The copy leaves the list and the new version is shown, without reading the whole list again.
  deps.agents.removeAgents(record.entities.filter((e) => e.kind === 'agent' && e.removed && e.id).map((e) => e.id!));
  void deps.agents.revealVersion(record.agentId, versionId);
  const version = await client.agents.getVersion(record.agentId, versionId).catch(() => undefined);
  if (version) await deps.versionDrafts.settlePublished(record.agentId, record.content as AgentVersionDraft, version, record.agentName);
  deps.log.info(`Published a trial of a draft of ${record.agentName} as version ${versionId}${before === 'published' ? ' (already published)' : ''}`);
  void vscode.window.showInformationMessage(`Published the draft as the current version of “${record.agentName}”${version?.version_name ? ` (“${version.version_name}”)` : ''}. The trial's copy was removed.`);
  return { kind: 'published', versionId };
}

/**
 * Discard Trial: the trial's copies are removed — only those the service marks as this trial's (each is
 * read first; the confirmation lists what goes and what is left alone). The real policy stays as it is.
 */
export async function discardThisTrial(deps: TrialDeps, arg: unknown, args: EndArgs): Promise<number> {
  const trial = await trialOf(arg, 'Discard Trial: which trial?');
  if (!mayEnd(deps, trial, 'discarded')) return 0;
  const client = deps.connection.requireClient();
  const core = loadCore();
  const plan = await checking(() => core.planTrialRemoval(client, trial.record, deps.madeHere));
  if (!plan.remove.length && plan.leftAlone.length) return notYours(deps, [{ file: trial, plan }], args);
  if (!args.confirmed) {
    const go = 'Discard Trial';
    const detail = `${planText(plan, 'Removed from the service')}${core.isDraftTrial(trial.record) ? 'The real agent keeps its current version' : 'The real policy and agents stay as they are'}; the comparison file stays as a record.`;
    const answer = await vscode.window.showWarningMessage(`Discard the trial of ${core.trialSubjectText(trial.record)}?`, { modal: true, detail }, go);
    if (answer !== go) throw new CancelledError();
  }
  await stopComparison(deps, trial);
  const outcome = await core.discardPlanned(client, trial.record, plan, trial.save);
  deps.agents.reload();
  deps.policies.reload();
  const real = core.isDraftTrial(trial.record) ? 'the real agent is as it was' : 'the real policy is as it was';
  void vscode.window.showInformationMessage(`Trial of ${core.trialSubjectText(trial.record)} discarded: ${copies(outcome.removed)} removed; ${real}.${leftAloneNote(deps, outcome.leftAlone)}`);
  return outcome.removed;
}

const copies = (n: number): string => `${n} trial cop${n === 1 ? 'y' : 'ies'}`;

/** Reads what may go, with a notification while the service is asked. */
function checking<T>(work: () => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Checking with the service which copies are this trial’s…' }, work);
}

/** The confirmation's list: what goes (name, id, made when, jobs), then what is left alone and why. */
function planText(plan: RemovalPlan, heading: string): string {
  const core = loadCore();
  const going = plan.remove.length ? `${heading}:\n${plan.remove.map((c) => `• ${core.describeCopy(c)}`).join('\n')}\n\n` : '';
  const left = plan.leftAlone.length ? `Left alone (named by a trial file, but the service does not mark it as that trial's copy):\n${plan.leftAlone.map((l) => `• ${core.describeLeftAlone(l)}`).join('\n')}\n\n` : '';
  return going + left;
}

/** A sentence for the end of a message when something was left alone; the list goes to the log. */
function leftAloneNote(deps: TrialDeps, leftAlone: readonly LeftAlone[]): string {
  if (!leftAlone.length) return '';
  for (const item of leftAlone) deps.log.warn(`Left alone: ${loadCore().describeLeftAlone(item)}`);
  return ` ${leftAlone.length} thing${leftAlone.length === 1 ? '' : 's'} the trial file named ${leftAlone.length === 1 ? 'is' : 'are'} not marked as its cop${leftAlone.length === 1 ? 'y' : 'ies'} and ${leftAlone.length === 1 ? 'was' : 'were'} left alone (see the log).`;
}

/**
 * Trial files that name nothing the service marks as their copies: not a trial of the user's. Nothing is
 * removed from the service; the only offer is to delete the files.
 */
async function notYours(deps: TrialDeps, files: readonly { file: TrialFile; plan: RemovalPlan }[], args: EndArgs): Promise<number> {
  const names = files.map((f) => vscode.workspace.asRelativePath(f.file.uri)).join(', ');
  const detail = `${files.map((f) => planText(f.plan, '')).join('')}Nothing was removed from the service.`;
  for (const f of files) deps.log.warn(`${vscode.workspace.asRelativePath(f.file.uri)} is not a trial of yours: nothing it names is marked as its copy.`);
  if (args.confirmed) return 0;
  const remove = files.length === 1 ? 'Delete File' : 'Delete Files';
  const answer = await vscode.window.showWarningMessage(`${names} ${files.length === 1 ? 'is' : 'are'} not a trial of yours`, { modal: true, detail }, remove);
  if (answer === remove) for (const f of files) await vscode.workspace.fs.delete(f.file.uri);
  return 0;
}

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
    await resumeTrial(deps, await readTrialFile(args.resume));
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
      { label: `$(debug-continue) Resume ${core.trialSubjectName(file.record)}`, description: vscode.workspace.asRelativePath(file.uri), detail: `a trial of ${file.record.createdAt.slice(0, 16).replace('T', ' ')} (${file.record.state === 'started' ? 'interrupted while its copies were made' : 'its comparison can be resumed, published or discarded'})`, act: () => resumeTrial(deps, file).then(() => 0) },
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
  if (foreign.length && !count) return notYours(deps, foreign, { confirmed });
  if (!confirmed) {
    const go = 'Remove Trial Copies';
    const discarded = mine.length ? `Unfinished trials of this workspace discarded with them: ${mine.map((f) => vscode.workspace.asRelativePath(f.file.uri)).join(', ')}.\n\n` : '';
    const all = { remove: [...mine.flatMap((f) => f.plan.remove), ...others.remove], leftAlone: [...files.flatMap((f) => f.plan.leftAlone), ...others.leftAlone], settled: [] };
    const answer = await vscode.window.showWarningMessage(`Remove ${copies(count)} of ${user} from the organization?`, { modal: true, detail: `${planText(all, 'Removed')}${discarded}Only what the service marks as ${user}'s trial copies is removed; real agents and policies are not touched.` }, go);
    if (answer !== go) throw new CancelledError();
  }
  let removed = 0;
  const leftAlone: LeftAlone[] = [...others.leftAlone];
  for (const { file, plan } of mine) {
    const outcome = await core.discardPlanned(client, file.record, plan, file.save);
    removed += outcome.removed;
    leftAlone.push(...outcome.leftAlone);
  }
  const rest = await core.removeVerified(client, others.remove);
  removed += rest.removed;
  leftAlone.push(...rest.refused);
  deps.agents.reload();
  deps.policies.reload();
  void vscode.window.showInformationMessage(`Removed ${copies(removed)} of ${user}.${leftAloneNote(deps, [...leftAlone, ...foreign.flatMap((f) => f.plan.leftAlone)])}`);
  return removed;
}

/** Resumes an interrupted trial: the copies not made yet are made, then its comparison opens (where Resume asks before starting anything). */
async function resumeTrial(deps: TrialDeps, trial: TrialFile): Promise<void> {
  const comparison = comparisonUriOf(trial.uri);
  const record = trial.record;
  if (record.state === 'started') {
    const client = deps.connection.requireClient();
    const core = loadCore();
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

/** Says why a trial cannot end now (already ended, or its comparison still running); true when it may. */
function mayEnd(deps: TrialDeps, trial: TrialFile, to: 'published' | 'discarded'): boolean {
  const state = trial.record.state;
  if (state === 'published' || state === 'discarded') {
    void vscode.window.showInformationMessage(`This trial of ${loadCore().trialSubjectText(trial.record)} was ${state} already${state === 'published' && trial.record.publishedVersionId ? ` (version ${trial.record.publishedVersionId})` : ''}: its copies are gone.`);
    return false;
  }
  const session = deps.comparisons.session(comparisonUriOf(trial.uri));
  if (to === 'published' && session?.state.kind === 'working') throw new Error('The trial is still running: publish once its comparison has finished (or Cancel it first).');
  return true;
}

/** Stops the trial's comparison when it runs (its jobs are cancelled: the copies they run on are about to go). */
async function stopComparison(deps: TrialDeps, trial: TrialFile): Promise<void> {
  const session = deps.comparisons.session(comparisonUriOf(trial.uri));
  if (session?.state.kind === 'working') await session.cancel({ confirmed: true });
}

/** Try Again after a conflict: the old trial is discarded, and the same edit is tried on the policy's current version. */
async function tryAgain(deps: TrialDeps, trial: TrialFile): Promise<StartedTrial> {
  const client = deps.connection.requireClient();
  const record = trial.record as PolicyTrialRecord;
  const comparison = deps.comparisons.session(comparisonUriOf(trial.uri))?.record;
  await loadCore().discardTrial(client, record, trial.save, deps.madeHere);
  const policy = await client.policies.get(record.policyId);
  const source = { policyId: policy.id, policyName: policy.name, baseVersionId: policy.current_version_id ?? null, content: record.content };
  const testSet = comparison ? vscode.Uri.joinPath(trial.uri, '..', comparison.testSet) : undefined;
  return tryThisEdit(deps, undefined, { source, testSet });
}
