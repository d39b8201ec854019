import * as vscode from 'vscode';
import type { AgentVersionDraft } from '../../core/documents/agentVersionDraft';
import { CancelledError } from '../util/errors';
import { askModal } from '../util/modal';
import { picked, target } from '../util/picked';
import { tryThisEdit, type StartedTrial, type TrialDeps } from './tryThisEdit';
import { comparisonUriOf, trialOf, type TrialFile } from './trialWorkspace';
import type { DraftTrialRecord, PolicyTrialRecord } from '../core';
import { loadCore } from '../lazyCore';
import { asTrialOfYours, checking, confirmedRemoval, copies, leftAloneNote, notYours, planText, type EndArgs } from './trialAnswers';

export type { EndArgs } from './trialAnswers';

/** What Publish This Edit did (`why`: the sentence a refusal said). */
export type PublishResult = { kind: 'published'; versionId: string } | { kind: 'retried'; trial: StartedTrial } | { kind: 'notPublished'; why?: string };

const NOT_PUBLISHED: PublishResult = { kind: 'notPublished' };

/**
 * Publish This Edit: the content tried — this window's run, or the trial's own marked copies on the
 * service, never the file's word — becomes one new version of the real policy (or, for a draft's trial,
 * of the real agent) on the user's confirmation, which names it as the service does; then the trial's
 * copies are removed. A file of another user is "not a trial of yours"; content never tried is refused.
 */
export async function publishThisEdit(deps: TrialDeps, arg: unknown, args: EndArgs = {}): Promise<PublishResult> {
  const trial = await trialOf(arg, 'Publish This Edit: which trial?');
  return asTrialOfYours(deps.log, trial, args, NOT_PUBLISHED, async () => {
    if (!mayEnd(deps, trial, 'published')) return NOT_PUBLISHED;
    const record = trial.record;
    const core = loadCore();
    try {
      return await (core.isDraftTrial(record) ? publishDraft(deps, trial, record, args) : publishEdit(deps, trial, record, args));
    } catch (error) {
      if (!(error instanceof core.NotTried)) throw error;
      // A refusal, not a failure: said in its one sentence, with no trace in the log.
      deps.log.warn(`${vscode.workspace.asRelativePath(trial.uri)}: ${error.message}`);
      void vscode.window.showWarningMessage(error.message);
      return { kind: 'notPublished', why: error.message };
    }
  });
}

/**
 * Publish of a policy edit's trial, through the save flow of policy documents (version name asked; a
 * policy changed since the trial began is said so, with Try Again).
 */
async function publishEdit(deps: TrialDeps, trial: TrialFile, record: PolicyTrialRecord, args: EndArgs): Promise<PublishResult> {
  const client = deps.connection.requireClient();
  const core = loadCore();
  let content: unknown;
  try {
    content = await core.publishable(client, record);
  } catch (error) {
    if (!(error instanceof core.TrialConflict)) throw error;
    return (await deps.policyDocuments.askTrialConflict(record)) === 'retry' ? { kind: 'retried', trial: await tryAgain(deps, trial) } : NOT_PUBLISHED;
  }
  const policy = await client.policies.get(record.policyId);
  if (!args.confirmed) {
    const detail = `The edit you tried becomes the current version of the policy “${policy.name}” (${policy.id}): every agent that applies it judges by it from the next job on. The trial's copies are removed; the comparison file stays as a record.`;
    if ((await askModal(`Publish the edit you tried as a new version of “${policy.name}”?`, detail, 'Publish')) !== 'Publish') return NOT_PUBLISHED;
  }
  // The confirmation named this policy (or a test stands in for it): production's only ground.
  const ground = picked(client, target.policy(policy.id), 'the Publish confirmation');
  const { outcome, created, retry } = await deps.policyDocuments.publish({ ...record, policyName: policy.name, content }, ground);
  if (retry) return { kind: 'retried', trial: await tryAgain(deps, trial) };
  if (outcome.kind === 'cancelled') return NOT_PUBLISHED;
  if (outcome.kind === 'unchanged') {
    void vscode.window.showInformationMessage(`${outcome.message} The trial is still open: Discard Trial removes its copies.`);
    return NOT_PUBLISHED;
  }
  if (outcome.kind === 'notSaved' || !created) throw new Error(outcome.kind === 'notSaved' ? outcome.message : 'The new version was not made.');
  const removal = await core.completePublish(client, record, created.id, trial.save, deps.madeHere);
  deps.agents.reload();
  deps.policies.reload();
  void vscode.window.showInformationMessage(`Published “${created.version_name || created.id}” of “${policy.name}”: it is the current version now. The trial's copies were removed.${leftAloneNote(deps.log, removal.leftAlone)}`);
  return { kind: 'published', versionId: created.id };
}

/**
 * Publish of a draft's trial: after asking, the draft tried becomes one new version of the real agent
 * (refused when the agent got a newer version since the trial began), then the trial's copy is removed
 * and the new version is shown in the Agents view.
 */
async function publishDraft(deps: TrialDeps, trial: TrialFile, record: DraftTrialRecord, args: EndArgs): Promise<PublishResult> {
  const client = deps.connection.requireClient();
  const core = loadCore();
  // Refused before asking: another user's record, an agent changed since, a draft never tried.
  const tried = (await core.publishable(client, record)) as AgentVersionDraft;
  if (!args.confirmed) {
    const agent = await client.agents.get(record.agentId);
    const go = 'Publish';
    const detail = `The draft you tried becomes the current version of the agent “${agent.name}” (${agent.id}): every new job runs it. The trial's copy is removed; the comparison file stays as a record.`;
    if ((await askModal(`Publish the draft${tried.version_name ? ` “${tried.version_name}”` : ''} as a new version of “${agent.name}”?`, detail, go)) !== go) return NOT_PUBLISHED;
  }
  const before = record.state;
  // The user confirmed publishing to this agent (the dialog above, or a test's stand-in for it).
  const ground = picked(client, core.publishTarget(record), 'the Publish confirmation');
  const versionId = await core.publishTrial(client, record, trial.save, { ground, madeHere: deps.madeHere });
  // The copy leaves the list and the new version is shown, without reading the whole list again.
  deps.agents.removeAgents(record.entities.filter((e) => e.kind === 'agent' && e.removed && e.id).map((e) => e.id!));
  void deps.agents.revealVersion(record.agentId, versionId);
  const version = await client.agents.getVersion(record.agentId, versionId).catch(() => undefined);
  if (version) await deps.versionDrafts.settlePublished(record.agentId, tried, version, version.base_agent.name);
  deps.log.info(`Published a trial of a draft of ${record.agentId} as version ${versionId}${before === 'published' ? ' (already published)' : ''}`);
  void vscode.window.showInformationMessage(`Published the draft as the current version of “${version?.base_agent.name ?? record.agentName}”${version?.version_name ? ` (“${version.version_name}”)` : ''}. The trial's copy was removed.`);
  return { kind: 'published', versionId };
}

/**
 * Discard Trial: the trial's copies are removed — only those the service marks as this trial's, or this
 * window made (each is read first; the confirmation lists what goes and what is left alone, and its yes is
 * the ground of removing exactly those). The real policy stays as it is.
 */
export async function discardThisTrial(deps: TrialDeps, arg: unknown, args: EndArgs): Promise<number> {
  const trial = await trialOf(arg, 'Discard Trial: which trial?');
  return asTrialOfYours(deps.log, trial, args, 0, async () => {
    if (!mayEnd(deps, trial, 'discarded')) return 0;
    const client = deps.connection.requireClient();
    const core = loadCore();
    const plan = await checking(() => core.planTrialRemoval(client, trial.record, deps.madeHere));
    if (!plan.remove.length && plan.leftAlone.length) return notYours(deps.log, [trial], `${planText(plan, '')}Nothing it names is marked as its copy.`, args);
    if (!args.confirmed) {
      const go = 'Discard Trial';
      const detail = `${planText(plan, 'Removed from the service')}${core.isDraftTrial(trial.record) ? 'The real agent keeps its current version' : 'The real policy and agents stay as they are'}; the comparison file stays as a record.`;
      const answer = await vscode.window.showWarningMessage(`Discard the trial of ${core.trialSubjectText(trial.record)}?`, { modal: true, detail }, go);
      if (answer !== go) throw new CancelledError();
    }
    await stopComparison(deps, trial);
    const outcome = await core.discardPlanned(client, trial.record, plan, trial.save, undefined, confirmedRemoval(client, plan.remove, 'the confirmation of Discard Trial'));
    deps.agents.reload();
    deps.policies.reload();
    const real = core.isDraftTrial(trial.record) ? 'the real agent is as it was' : 'the real policy is as it was';
    void vscode.window.showInformationMessage(`Trial of ${core.trialSubjectText(trial.record)} discarded: ${copies(outcome.removed)} removed; ${real}.${leftAloneNote(deps.log, outcome.leftAlone)}`);
    return outcome.removed;
  });
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
