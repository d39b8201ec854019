import * as vscode from 'vscode';
import type { Policy, PolicyVersion } from '../../core/client';
import { policyVersionNameProblem } from '../../core/limits';
import { Settings } from '../constants';
import type { Connection } from '../connection/connection';
import { DocumentDiagnostics, problemsSummary } from '../documents/diagnostics';
import { parsePolicyEditUri, policyVersionEditUri, policyVersionViewUri } from '../documents/documentUris';
import { serviceDocument, type EditableDocument, type EditableFileSystem } from '../documents/editableFileSystem';
import { loadCore } from '../lazyCore';
import type { Log } from '../log';
import { testPrompts } from '../testing/testPrompts';
import { messageOf } from '../util/errors';
import type { PoliciesView } from './policiesView';

/** A save that did not happen; the editor keeps the text, still dirty, and says why. */
class NotSaved extends Error {}

/** The questions a save may ask (test builds let tests answer them: see testPrompts). */
export interface SavePrompts {
  /** Someone saved meanwhile: 'compare', 'anyway', or undefined to cancel. */
  conflict(policy: Policy): Thenable<'compare' | 'anyway' | undefined>;
  /** The new version's name (default offered), or undefined to cancel. */
  versionName(suggested: string): Thenable<string | undefined>;
}

const COMPARE = 'Compare with Current';
const ANYWAY = 'Save as New Version Anyway';

const userPrompts: SavePrompts = {
  conflict: (policy) =>
    vscode.window
      .showWarningMessage(
        `Someone saved a newer version of “${policy.name}” since you opened this one.`,
        { modal: true, detail: 'Saving creates a new version from your text; the newer version stays as it is, but will no longer be current.' },
        COMPARE,
        ANYWAY,
      )
      .then((choice) => (choice === COMPARE ? 'compare' : choice === ANYWAY ? 'anyway' : undefined)),
  versionName: (suggested) =>
    vscode.window.showInputBox({
      title: 'Save as New Version',
      prompt: 'Name of the new version (1–255 characters). It becomes the current version; the one you opened stays unchanged.',
      value: suggested,
      ignoreFocusOut: true,
      validateInput: policyVersionNameProblem,
    }),
};

/**
 * Policy versions as editable JSON documents. Saving creates a NEW version based on the one opened:
 * invalid content is refused with its problems underlined; if someone else saved meanwhile the user
 * decides; any failure leaves the text dirty, so saving again works once the problem is gone.
 */
export class PolicyDocuments implements vscode.Disposable {
  readonly diagnostics = new DocumentDiagnostics('agent-workbench-policies');
  private readonly subscriptions: vscode.Disposable[] = [];

  private get prompts(): SavePrompts {
    return (__TEST_HOOKS__ && testPrompts.policySave) || userPrompts;
  }

  constructor(
    private readonly fs: EditableFileSystem,
    private readonly connection: Connection,
    private readonly view: PoliciesView,
    private readonly log: Log,
  ) {
    fs.addResolver((uri) => {
      const ids = parsePolicyEditUri(uri);
      return ids ? this.document(uri, ids.policyId, ids.versionId) : undefined;
    });
  }

  /** Opens a version in an editor tab ("Policy · version.json"). */
  async open(policy: Policy, version: PolicyVersion, column?: vscode.ViewColumn): Promise<vscode.TextEditor> {
    const uri = policyVersionEditUri(policy.id, version.id, policy.name, version.version_name || 'unnamed version');
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (!open) this.fs.set(uri, this.document(uri, policy.id, version.id, version.content));
    const doc = open ?? (await vscode.workspace.openTextDocument(uri));
    return vscode.window.showTextDocument(doc, { preview: false, viewColumn: column });
  }

  /** The version a policy document was opened from (what its save is based on). */
  baseOf(uri: vscode.Uri): { policyId: string; versionId: string } | undefined {
    return parsePolicyEditUri(uri);
  }

  private document(uri: vscode.Uri, policyId: string, versionId: string, content?: unknown): EditableDocument {
    const load = async (): Promise<string> => pretty((await this.connection.requireClient().policies.getVersion(policyId, versionId)).content);
    return serviceDocument(content === undefined ? load : pretty(content), (text) => this.save(uri, policyId, versionId, text));
  }

  private async save(uri: vscode.Uri, policyId: string, baseId: string, text: string): Promise<void> {
    try {
      const core = loadCore();
      const check = core.checkJson(text, core.PolicyContentSchema);
      if (!check.ok) {
        this.diagnostics.set(uri, text, check.problems);
        throw new NotSaved(`Not saved: the policy has ${problemsSummary(check.problems)} Fix the underlined parts and save again.`);
      }
      this.diagnostics.clear(uri);
      const client = this.connection.requireClient();
      const policy = await client.policies.get(policyId);
      await this.confirmNoConflict(uri, policy, baseId);
      const versionName = await this.askVersionName(policyId);
      const created = await this.create(uri, text, policy, { content: JSON.parse(text) as unknown, version_name: versionName, base_version_id: baseId });
      this.log.info(`Saved ${policy.name} as new version ${created.version_name ?? ''} (${created.id}), based on ${baseId}`);
      void this.view.showNewVersion(policyId, created.id);
      this.showInTab(uri, policy, created, text);
    } catch (error) {
      if (error instanceof NotSaved) throw error;
      throw new NotSaved(`Not saved: ${messageOf(error)} Your text is kept; save again when the problem is solved.`);
    }
  }

  private async confirmNoConflict(uri: vscode.Uri, policy: Policy, baseId: string): Promise<void> {
    const currentId = policy.current_version_id;
    if (!currentId || currentId === baseId) return;
    const choice = await this.prompts.conflict(policy);
    if (choice === 'anyway') return;
    if (choice === 'compare') {
      const current = await this.connection.requireClient().policies.getVersion(policy.id, currentId);
      const left = policyVersionViewUri(policy.id, currentId, policy.name, current.version_name || 'current');
      await vscode.commands.executeCommand('vscode.diff', left, uri, `${policy.name}: current ↔ your edit`);
      throw new NotSaved('Not saved: compare your edit with the current version, then save again.');
    }
    throw new NotSaved('Not saved: cancelled.');
  }

  private async askVersionName(policyId: string): Promise<string | undefined> {
    if (!vscode.workspace.getConfiguration(Settings.section).get<boolean>(Settings.askVersionName, true)) return undefined;
    const count = await this.connection
      .requireClient()
      .policies.listVersions(policyId, { page_size: 1 })
      .then((page) => page.count, () => undefined);
    const name = await this.prompts.versionName(count === undefined ? '' : `version ${count + 1}`);
    if (name === undefined) throw new NotSaved('Not saved: cancelled.');
    const problem = policyVersionNameProblem(name);
    if (problem) throw new NotSaved(`Not saved: ${problem}.`);
    return name.trim();
  }

  private async create(uri: vscode.Uri, text: string, policy: Policy, body: { content: unknown; version_name?: string; base_version_id: string }): Promise<PolicyVersion> {
    const core = loadCore();
    try {
      return await this.connection.requireClient().policies.createVersion(policy.id, body);
    } catch (error) {
      if (!core.isServiceError(error)) throw error;
      const contentErrors = Object.fromEntries(Object.entries(error.fieldErrors).filter(([k]) => k.startsWith('content.')).map(([k, v]) => [k.slice('content.'.length), v]));
      const located = core.locateFieldErrors(text, contentErrors);
      if (located.length) this.diagnostics.set(uri, text, located);
      if (error.outcomeUnknown) {
        void this.view.showNewVersion(policy.id, undefined);
        throw new NotSaved(`The connection was cut after the save was sent, so it is not known whether a new version was created. The policy's versions were read again: check them before saving again (${error.message})`);
      }
      throw error;
    }
  }

  /** After a save the tab shows the new version (the old version's tab is closed once VS Code marks it saved). */
  private showInTab(oldUri: vscode.Uri, policy: Policy, created: PolicyVersion, text: string): void {
    const newUri = policyVersionEditUri(policy.id, created.id, policy.name, created.version_name || 'unnamed version');
    this.fs.set(newUri, this.document(newUri, policy.id, created.id, JSON.parse(text)));
    const sub = vscode.workspace.onDidSaveTextDocument(async (doc) => {
      if (doc.uri.toString() !== oldUri.toString()) return;
      sub.dispose();
      const tab = findTab(oldUri);
      await vscode.window.showTextDocument(newUri, { viewColumn: tab?.group.viewColumn, preview: false });
      const old = findTab(oldUri);
      if (old && !old.isDirty) await vscode.window.tabGroups.close(old);
    });
    this.subscriptions.push(sub);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.diagnostics.dispose();
  }
}

function pretty(content: unknown): string {
  return `${JSON.stringify(content ?? {}, null, 2)}\n`;
}

function findTab(uri: vscode.Uri): vscode.Tab | undefined {
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) if (tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri.toString()) return tab;
  }
  return undefined;
}
