import * as vscode from 'vscode';
import type { Policy, PolicyVersion } from '../../core/client';
import { relativeTime } from '../../core/format';
import { policyVersionNameProblem } from '../../core/limits';
import { POLICY_TEMPLATES } from '../../core/policyTemplates';
import { registerCommand } from '../commands/commandRunner';
import { PolicyCommands } from '../constants';
import { parsePolicyEditUri, policyVersionViewUri } from '../documents/documentUris';
import type { Log } from '../log';
import { CancelledError } from '../util/errors';
import { NEW_THING, PICKED_IN } from '../util/picked';
import { PolicyNode, PolicyVersionNode } from './policyNodes';
import type { PolicyDocuments } from './policyDocuments';
import type { PoliciesView } from './policiesView';
import { deletePolicy, editPolicyDescription, policyOf, renamePolicy } from './policyManagement';

/** The commands of the Policies view and of policy editors. */
export function registerPolicyCommands(view: PoliciesView, documents: PolicyDocuments, log: Log): vscode.Disposable[] {
  return [
    registerCommand(log, PolicyCommands.refresh, () => view.reload()),
    registerCommand(log, PolicyCommands.refreshNode, (node?: PolicyNode) => (node instanceof PolicyNode ? node.reloadVersions() : view.reload())),
    registerCommand(log, PolicyCommands.search, async (text?: string) => view.setSearch(typeof text === 'string' ? text : await askSearch(view))),
    registerCommand(log, PolicyCommands.clearSearch, () => view.setSearch(undefined)),
    registerCommand(log, PolicyCommands.create, (answers?: NewPolicyAnswers) => createPolicy(view, documents, answers)),
    registerCommand(log, PolicyCommands.openVersion, async (node?: PolicyVersionNode) => {
      const { policy, version } = node ? { policy: node.policy, version: node.version } : await pickPolicyVersion(view, 'Open Policy Version');
      await documents.open(policy, version);
    }),
    registerCommand(log, PolicyCommands.compareWith, async (node?: PolicyVersionNode | vscode.Uri, otherId?: string) => compareWith(view, node, otherId)),
    registerCommand(log, PolicyCommands.compareWithCurrent, async (uri?: vscode.Uri) => {
      const target = uri ?? vscode.window.activeTextEditor?.document.uri;
      const ids = target && parsePolicyEditUri(target);
      if (!target || !ids) throw new Error('Open a policy version first.');
      const policy = await view.client().policies.get(ids.policyId);
      if (!policy.current_version_id) throw new Error(`${policy.name} has no current version.`);
      const current = await view.client().policies.getVersion(policy.id, policy.current_version_id);
      await vscode.commands.executeCommand('vscode.diff', policyVersionViewUri(policy.id, current.id, policy.name, current.version_name || 'current'), target, `${policy.name}: current (${current.version_name}) ↔ your edit`);
    }),
    registerCommand(log, PolicyCommands.restoreVersion, (node: PolicyVersionNode, name?: string) => restoreVersion(view, documents, node, name)),
    // From a policy node, or the palette (asks which policy); the answers may be given (scripts and tests).
    registerCommand(log, PolicyCommands.rename, async (node?: PolicyNode, name?: string) => renamePolicy(view, await policyOf(view, node, 'Rename Policy'), pickedIn(node), name)),
    registerCommand(log, PolicyCommands.editDescription, async (node?: PolicyNode, text?: string) => editPolicyDescription(view, await policyOf(view, node, 'Edit Policy Description'), pickedIn(node), text)),
    registerCommand(log, PolicyCommands.delete, async (node?: PolicyNode, confirmed?: boolean) => deletePolicy(view, await policyOf(view, node, 'Delete Policy'), pickedIn(node), confirmed === true)),
  ];
}

/** Where the user picked the policy a command acts on: its row, or the quick pick of policyOf. */
function pickedIn(node: unknown): string {
  return node instanceof PolicyNode ? PICKED_IN.policiesView : PICKED_IN.quickPick;
}

async function askSearch(view: PoliciesView): Promise<string> {
  const text = await vscode.window.showInputBox({ title: 'Search Policies', prompt: 'Matches name or description (case-insensitive). Empty shows all.', value: view.searchText ?? '' });
  if (text === undefined) throw new CancelledError();
  return text;
}

interface NewPolicyAnswers {
  name: string;
  description?: string;
  template?: string;
}

/** New Policy…: name, description, starting content from a template; then opens its first version. */
async function createPolicy(view: PoliciesView, documents: PolicyDocuments, answers?: NewPolicyAnswers): Promise<void> {
  const name =
    answers?.name ??
    (await vscode.window.showInputBox({ title: 'New Policy (1/3): name', prompt: 'Name of the policy (1–255 characters)', validateInput: (v) => policyVersionNameProblem(v)?.replace('version name', 'name') }));
  if (name === undefined) throw new CancelledError();
  const problem = policyVersionNameProblem(name);
  if (problem) throw new Error(`Not created: ${problem.replace('version name', 'name')}.`);
  const description = answers ? answers.description : await vscode.window.showInputBox({ title: 'New Policy (2/3): description', prompt: 'What the policy is for (optional)' });
  if (description === undefined && !answers) throw new CancelledError();
  const template = answers?.template ? POLICY_TEMPLATES.find((t) => t.id === answers.template) : await pickTemplate();
  if (!template) throw answers ? new Error(`No policy template “${answers.template}”.`) : new CancelledError();
  const policy = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Creating ${name.trim()}…` }, () =>
    view.client().policies.create({ name: name.trim(), description: description?.trim() || undefined, content: template.content }, { ground: NEW_THING }),
  );
  await view.showNewVersion(policy.id, policy.current_version_id ?? undefined);
  if (policy.current_version_id) await documents.open(policy, await view.client().policies.getVersion(policy.id, policy.current_version_id));
}

async function pickTemplate() {
  const pick = await vscode.window.showQuickPick(
    POLICY_TEMPLATES.map((t) => ({ label: t.label, detail: t.detail, template: t })),
    { title: 'New Policy (3/3): starting content' },
  );
  return pick?.template;
}

/** Picks a policy (service search as you type is not needed: the list is small) and one of its versions. */
async function pickPolicyVersion(view: PoliciesView, title: string): Promise<{ policy: Policy; version: PolicyVersion }> {
  const policy = await policyOf(view, undefined, title);
  const version = await pickVersion(view, policy, `${title}: choose the version of ${policy.name}`);
  return { policy, version };
}

async function pickVersion(view: PoliciesView, policy: Policy, title: string, exclude?: string): Promise<PolicyVersion> {
  const versions = (await view.client().policies.listVersions(policy.id, { page_size: 100, ordering: '-created_at' })).results.filter((v) => v.id !== exclude);
  if (!versions.length) throw new Error(`${policy.name} has no ${exclude ? 'other ' : ''}versions.`);
  const pick = await vscode.window.showQuickPick(
    versions.map((v) => ({ label: v.version_name || 'unnamed version', description: [v.id === policy.current_version_id ? 'current' : '', relativeTime(v.created_at)].filter(Boolean).join(' · '), version: v })),
    { title },
  );
  if (!pick) throw new CancelledError();
  return pick.version;
}

/** A diff between two versions (from a version node), or between the edited text and another version (from an editor). */
async function compareWith(view: PoliciesView, arg: PolicyVersionNode | vscode.Uri | undefined, otherId?: string): Promise<void> {
  const client = view.client();
  if (arg instanceof PolicyVersionNode) {
    const other = otherId ? await client.policies.getVersion(arg.policy.id, otherId) : await pickVersion(view, arg.policy, `Compare ${arg.name} with…`, arg.version.id);
    const uri = (v: PolicyVersion) => policyVersionViewUri(arg.policy.id, v.id, arg.policy.name, v.version_name || 'unnamed version');
    await vscode.commands.executeCommand('vscode.diff', uri(other), uri(arg.version), `${arg.policy.name}: ${other.version_name} ↔ ${arg.name}`);
    return;
  }
  const target = arg ?? vscode.window.activeTextEditor?.document.uri;
  const ids = target && parsePolicyEditUri(target);
  if (!target || !ids) throw new Error('Choose a policy version in the Policies view, or open one in the editor.');
  const policy = await client.policies.get(ids.policyId);
  const other = otherId ? await client.policies.getVersion(policy.id, otherId) : await pickVersion(view, policy, 'Compare your edit with…');
  await vscode.commands.executeCommand('vscode.diff', policyVersionViewUri(policy.id, other.id, policy.name, other.version_name || 'unnamed version'), target, `${policy.name}: ${other.version_name} ↔ your edit`);
}

/**
 * Restore This Version: the service cannot set the current version directly, so this creates a new
 * version with the content of the chosen one, based on the current version.
 */
async function restoreVersion(view: PoliciesView, documents: PolicyDocuments, node: PolicyVersionNode, givenName?: string): Promise<void> {
  const client = view.client();
  const policy = await client.policies.get(node.policy.id);
  const source = await client.policies.getVersion(policy.id, node.version.id);
  const askName = (): Thenable<string | undefined> =>
    givenName !== undefined
      ? Promise.resolve(givenName)
      : vscode.window.showInputBox({
          title: `Restore ${node.name}`,
          prompt: 'Creates a new current version with the content of this one (the service has no way to make an old version current). Name of the new version:',
          value: `${node.name} (restored)`.slice(0, 255),
          validateInput: policyVersionNameProblem,
        });
  const { outcome, created } = await documents.restore(policy, source, askName, PICKED_IN.policiesView);
  if (outcome.kind === 'cancelled') throw new CancelledError();
  if (outcome.kind === 'notSaved') throw new Error(outcome.message);
  if (outcome.kind === 'unchanged' || !created) {
    void vscode.window.showInformationMessage(outcome.message ?? `Nothing was restored.`);
    return;
  }
  const open = 'Open';
  void vscode.window.showInformationMessage(`Restored ${node.name} of ${policy.name} as the new current version “${created.version_name}”.`, open).then(async (choice) => {
    if (choice === open) await documents.open(policy, created);
  });
}
