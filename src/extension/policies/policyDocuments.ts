import * as vscode from 'vscode';
import type { Policy, PolicyVersion } from '../../core/client';
import { samePolicyContent } from '../../core/documents/sameJson';
import { policyVersionNameProblem } from '../../core/limits';
import { Settings } from '../constants';
import type { Connection } from '../connection/connection';
import { Authorship } from '../documents/authorship';
import { DocumentDiagnostics } from '../documents/diagnostics';
import { documentTitle, parsePolicyEditUri, policyVersionEditUri, policyVersionViewUri } from '../documents/documentUris';
import { serviceDocument, type EditableDocument, type EditableFileSystem } from '../documents/editableFileSystem';
import { checkWhileTyping } from '../documents/liveProblems';
import { saveAsNewVersion, whoSaved, type NewVersionTarget, type NewerVersion, type SaveOutcome } from '../documents/newVersionSave';
import { loadCore } from '../lazyCore';
import type { Log } from '../log';
import type { TestPrompts } from '../testing/testPrompts';
import type { PoliciesView } from './policiesView';

/** The questions a save may ask (test builds let tests answer them: see testPrompts). */
export interface SavePrompts {
  /** A newer version was saved meanwhile: 'compare', 'anyway', or undefined to cancel. */
  conflict(policy: Policy, newer: NewerVersion): Thenable<'compare' | 'anyway' | undefined>;
  /** The new version's name (default offered), or undefined to cancel. */
  versionName(suggested: string): Thenable<string | undefined>;
}

const COMPARE = 'Compare with Current';
const ANYWAY = 'Save as New Version Anyway';

const userPrompts: SavePrompts = {
  conflict: (policy, newer) =>
    vscode.window
      .showWarningMessage(
        `${whoSaved(newer)} saved a newer version of “${policy.name}” (“${newer.name}”) since this one was opened.`,
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
 * Policy versions as editable JSON documents. Saving creates a NEW version based on the one opened,
 * through the shared new-version flow; the tab then shows the new version, and the opened version's
 * document keeps showing that version's own content.
 */
export class PolicyDocuments implements vscode.Disposable {
  readonly diagnostics = new DocumentDiagnostics('agent-workbench-policies');
  private readonly authorship = new Authorship();
  private readonly subscriptions: vscode.Disposable[] = [];

  private get prompts(): SavePrompts {
    return (__TEST_HOOKS__ && this.answers.policySave) || userPrompts;
  }

  constructor(
    private readonly fs: EditableFileSystem,
    private readonly connection: Connection,
    private readonly view: PoliciesView,
    private readonly log: Log,
    private readonly answers: TestPrompts,
  ) {
    fs.addResolver((uri) => {
      const ids = parsePolicyEditUri(uri);
      return ids ? this.document(uri, ids.policyId, ids.versionId) : undefined;
    });
    this.subscriptions.push(
      checkWhileTyping(this.diagnostics, (uri) => parsePolicyEditUri(uri) !== undefined, (text) => loadCore().checkJson(text, loadCore().PolicyContentSchema)),
    );
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
    return serviceDocument(content === undefined ? load : pretty(content), (text) => saveAsNewVersion(uri, text, this.target(uri, policyId, versionId), this.diagnostics));
  }

  /**
   * Restore This Version: a new current version with the content of `source`, based on the current
   * version, through the same flow as a save (unchanged content creates nothing, a newer version is
   * asked about, a lost answer is never repeated). `askName` gives the new version's name.
   */
  async restore(policy: Policy, source: PolicyVersion, askName: () => Thenable<string | undefined>): Promise<{ outcome: SaveOutcome; created?: PolicyVersion }> {
    const uri = policyVersionEditUri(policy.id, source.id, policy.name, source.version_name || 'unnamed version');
    const steps = this.target(uri, policy.id, policy.current_version_id ?? source.id);
    let created: PolicyVersion | undefined;
    const outcome = await saveAsNewVersion(uri, pretty(source.content), {
      ...steps,
      ask: async () => {
        const name = await askName();
        if (name === undefined) return undefined;
        const problem = policyVersionNameProblem(name);
        if (problem) throw new Error(`${problem}.`);
        return { versionName: name.trim() };
      },
      created: (result) => {
        created = result.created;
        this.authorship.noteCreated(result.created.id);
        this.log.info(`Restored ${source.id} of ${policy.name} as new version ${result.created.version_name ?? ''} (${result.created.id})`);
        void this.view.showNewVersion(policy.id, result.created.id);
        return undefined;
      },
    }, this.diagnostics);
    return { outcome, created };
  }

  /** The steps of saving one policy version as a new one, for the shared flow. */
  private target(uri: vscode.Uri, policyId: string, baseId: string): NewVersionTarget<unknown, { policy: Policy; created: PolicyVersion }> {
    const client = () => this.connection.requireClient();
    let policy: Policy | undefined;
    return {
      title: documentTitle(uri),
      check: (text) => loadCore().checkJson(text, loadCore().PolicyContentSchema),
      unchanged: async (value) => samePolicyContent(value, (await client().policies.getVersion(policyId, baseId)).content),
      ask: async () => {
        if (!vscode.workspace.getConfiguration(Settings.section).get<boolean>(Settings.askVersionName, true)) return {};
        const count = await client().policies.listVersions(policyId, { page_size: 1 }).then((page) => page.count, () => undefined);
        const name = await this.prompts.versionName(count === undefined ? '' : `version ${count + 1}`);
        if (name === undefined) return undefined;
        const problem = policyVersionNameProblem(name);
        if (problem) throw new Error(`${problem}.`);
        return { versionName: name.trim() };
      },
      newer: async () => {
        const read = await client().policies.get(policyId);
        policy = read;
        const currentId = read.current_version_id;
        if (!currentId || currentId === baseId) return undefined;
        const current = await client().policies.getVersion(policyId, currentId);
        return { name: current.version_name || 'unnamed version', ...(await this.authorship.describe(client(), currentId, current.created_by)) };
      },
      conflict: (newer) => (policy ? this.prompts.conflict(policy, newer) : Promise.resolve(undefined)),
      compare: async () => {
        const current = policy?.current_version_id;
        if (!policy || !current) return;
        const version = await client().policies.getVersion(policy.id, current);
        await vscode.commands.executeCommand('vscode.diff', policyVersionViewUri(policy.id, current, policy.name, version.version_name || 'current'), uri, `${policy.name}: current ↔ your edit`);
      },
      create: async (content, answers) => {
        policy ??= await client().policies.get(policyId);
        const created = await client().policies.createVersion(policyId, { content, version_name: answers.versionName, base_version_id: baseId });
        return { policy, created };
      },
      created: ({ policy: saved, created }, text) => {
        this.authorship.noteCreated(created.id);
        this.log.info(`Saved ${saved.name} as new version ${created.version_name ?? ''} (${created.id}), based on ${baseId}`);
        void this.view.showNewVersion(policyId, created.id);
        const newUri = policyVersionEditUri(saved.id, created.id, saved.name, created.version_name || 'unnamed version');
        this.fs.set(newUri, this.document(newUri, saved.id, created.id, JSON.parse(text)));
        this.fs.showAfterSave(uri, newUri);
        return undefined;
      },
      fieldErrors: (errors) => Object.fromEntries(Object.entries(errors).filter(([k]) => k.startsWith('content.')).map(([k, v]) => [k.slice('content.'.length), v])),
      readAgain: () => void this.view.showNewVersion(policyId, undefined),
    };
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.diagnostics.dispose();
  }
}

function pretty(content: unknown): string {
  return `${JSON.stringify(content ?? {}, null, 2)}\n`;
}
