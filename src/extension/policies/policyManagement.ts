import * as vscode from 'vscode';
import type { DependentAgent, Policy } from '../../core/client';
import { policyVersionNameProblem } from '../../core/limits';
import { AgentCommands } from '../constants';
import { loadCore } from '../lazyCore';
import { CancelledError } from '../util/errors';
import { picked, target } from '../util/picked';
import { PolicyNode } from './policyNodes';
import type { PoliciesView } from './policiesView';

/** A policy's name: 1–255 characters, like a version name. */
const policyNameProblem = (name: string): string | undefined => policyVersionNameProblem(name)?.replace('version name', 'name');

/** The policy a command acts on: the node it was run on, or one the user picks. */
export async function policyOf(view: PoliciesView, arg: unknown, title: string): Promise<Policy> {
  if (arg instanceof PolicyNode) return arg.policy;
  const policies = (await view.client().policies.list({ page_size: 100, ordering: 'name' })).results;
  if (!policies.length) throw new Error('There are no policies yet.');
  const pick = await vscode.window.showQuickPick(policies.map((p) => ({ label: p.name, description: p.description ?? '', policy: p })), { title: `${title}: choose the policy`, matchOnDescription: true });
  if (!pick) throw new CancelledError();
  return pick.policy;
}

/** Rename Policy…: the new name is checked while typing; the row shows it at once. `how`: where the user picked the policy. */
export async function renamePolicy(view: PoliciesView, policy: Policy, how: string, given?: string): Promise<void> {
  const name = given ?? (await vscode.window.showInputBox({ title: `Rename Policy ${policy.name}`, value: policy.name, validateInput: policyNameProblem }));
  if (name === undefined) throw new CancelledError();
  const problem = policyNameProblem(name);
  if (problem) throw new Error(`Not renamed: ${problem}.`);
  if (name.trim() === policy.name) return;
  const client = view.client();
  const updated = await client.policies.update(policy.id, { name: name.trim() }, { ground: picked(client, target.policy(policy.id), how) });
  view.updatePolicy(updated);
  vscode.window.setStatusBarMessage(`$(check) Renamed to ${updated.name}`, 4000);
}

/** Edit Policy Description…: empty clears it. `how`: where the user picked the policy. */
export async function editPolicyDescription(view: PoliciesView, policy: Policy, how: string, given?: string): Promise<void> {
  const description =
    given ?? (await vscode.window.showInputBox({ title: `Description of ${policy.name}`, prompt: 'What the policy is for (empty clears it)', value: policy.description ?? '' }));
  if (description === undefined) throw new CancelledError();
  if (description.trim() === (policy.description ?? '')) return;
  const client = view.client();
  const updated = await client.policies.update(policy.id, { description: description.trim() }, { ground: picked(client, target.policy(policy.id), how) });
  view.updatePolicy(updated);
  vscode.window.setStatusBarMessage(`$(check) Saved the description of ${updated.name}`, 4000);
}

/** What Delete Policy… did: deleted, or kept because agent versions use it (listed). */
export type DeleteOutcome = { deleted: true } | { deleted: false; dependents: DependentAgent[] };

/**
 * Delete Policy…: asks first (modal). When agents use the policy the service refuses (409): the
 * message lists them and offers to reveal each in the Agents view; nothing was deleted.
 */
export async function deletePolicy(view: PoliciesView, policy: Policy, how: string, confirmed = false): Promise<DeleteOutcome> {
  if (!confirmed) {
    const remove = 'Delete';
    const choice = await vscode.window.showWarningMessage(`Delete the policy “${policy.name}” and all its versions?`, { modal: true, detail: 'This cannot be undone. Agents that use the policy keep it from being deleted.' }, remove);
    if (choice !== remove) throw new CancelledError();
  }
  try {
    const client = view.client();
    await client.policies.delete(policy.id, { ground: picked(client, target.policy(policy.id), how) });
  } catch (error) {
    const dependents = loadCore().dependentAgentsOf(error);
    if (!dependents) throw error;
    void showDependents(policy, dependents);
    return { deleted: false, dependents };
  }
  view.removePolicy(policy.id);
  vscode.window.setStatusBarMessage(`$(check) Deleted ${policy.name}`, 4000);
  return { deleted: true };
}

/** "Used by 2 agent versions: …" with a way to reveal each in the Agents view. */
async function showDependents(policy: Policy, dependents: DependentAgent[]): Promise<void> {
  const names = dependents.map(dependentLabel);
  const list = names.length > 3 ? `${names.slice(0, 3).join('; ')} and ${names.length - 3} more` : names.join('; ');
  const one = dependents.length === 1 ? `Reveal ${names[0] ?? ''}` : undefined;
  const many = dependents.length > 1 ? 'Reveal in Agents View…' : undefined;
  const count = `${dependents.length} agent version${dependents.length === 1 ? '' : 's'}`;
  const choice = await vscode.window.showWarningMessage(`“${policy.name}” was not deleted: ${count} use${dependents.length === 1 ? 's' : ''} it (${list}). Point them at another policy first.`, ...[one, many].filter((x): x is string => Boolean(x)));
  if (!choice) return;
  const target = dependents.length === 1 ? dependents[0] : await pickDependent(policy, dependents);
  if (target?.base_agent_id) await vscode.commands.executeCommand(AgentCommands.revealVersion, { agentId: target.base_agent_id, versionId: target.version_id });
}

async function pickDependent(policy: Policy, dependents: DependentAgent[]): Promise<DependentAgent | undefined> {
  const pick = await vscode.window.showQuickPick(
    dependents.map((d) => ({ label: d.agent_name ?? d.base_agent_id ?? 'an agent', description: d.version_name ?? d.version_id ?? '', dependent: d })),
    { title: `Agent versions that use ${policy.name}`, placeHolder: 'Choose one to reveal it in the Agents view' },
  );
  return pick?.dependent;
}

function dependentLabel(d: DependentAgent): string {
  return `${d.agent_name ?? d.base_agent_id ?? 'an agent'} · ${d.version_name ?? d.version_id ?? 'a version'}`;
}
