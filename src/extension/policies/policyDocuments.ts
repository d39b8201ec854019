import * as vscode from 'vscode';
import type { Policy, PolicyVersion, ServiceClient } from '../../core/client';
import type { WriteGround } from '../../core/writeGate/writeGate';
import { samePolicyContent } from '../../core/documents/sameJson';
import { policyVersionNameProblem } from '../../core/limits';
import { Settings } from '../constants';
import type { Connection } from '../connection/connection';
import { Authorship } from '../documents/authorship';
import type { DocumentOrigin, DocumentTargets } from '../documents/documentTargets';
import { DocumentDiagnostics } from '../documents/diagnostics';
import { documentTitle, parsePolicyEditUri, policyVersionEditUri, policyVersionViewUri } from '../documents/documentUris';
import { serviceDocument, type EditableDocument, type EditableFileSystem } from '../documents/editableFileSystem';
import { checkWhileTyping } from '../documents/liveProblems';
import { saveAsNewVersion, whoSaved, type NewVersionTarget, type NewerVersion, type SaveOutcome } from '../documents/newVersionSave';
import { loadCore } from '../lazyCore';
import type { Log } from '../log';
import type { TestPrompts } from '../testing/testPrompts';
import type { PoliciesView } from './policiesView';
import { picked, target } from '../util/picked';

/** Why a save may write its policy, asked right before the write (the policy as read then). */
type PolicyGround = (client: ServiceClient, policy: Policy) => Promise<WriteGround | undefined>;

/** The questions a save may ask (test builds let tests answer them: see testPrompts). */
export interface SavePrompts {
  /** A newer version was saved meanwhile: 'compare', 'anyway', or undefined to cancel. */
  conflict(policy: Policy, newer: NewerVersion): Thenable<'compare' | 'anyway' | undefined>;
  /** The new version's name (default offered), or undefined to cancel. */
  versionName(suggested: string): Thenable<string | undefined>;
  /** Publish This Edit found the policy changed since its trial began: 'retry' to try the edit again on it, or undefined. */
  trialConflict?(policy: Policy, newer: NewerVersion): Thenable<'retry' | undefined>;
}

const COMPARE = 'Compare with Current';
const TRY_AGAIN = 'Try Again on the Current Version';
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
  trialConflict: (policy, newer) =>
    vscode.window
      .showWarningMessage(
        `“${policy.name}” changed since the trial began: ${whoSaved(newer)} saved “${newer.name}”.`,
        { modal: true, detail: 'Publishing would replace that version with the content you tried. Nothing was published. Try the edit again on the policy as it is now (the trial is discarded).' },
        TRY_AGAIN,
      )
      .then((choice) => (choice === TRY_AGAIN ? 'retry' : undefined)),
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
    private readonly targets: DocumentTargets,
  ) {
    // A document resolved from its address alone (a restored tab, a link): its policy is confirmed before it is written.
    fs.addResolver((uri) => {
      const ids = parsePolicyEditUri(uri);
      return ids ? this.document(uri, ids.policyId, ids.versionId, undefined, 'addressOnly') : undefined;
    });
    this.subscriptions.push(
      checkWhileTyping(this.diagnostics, (uri) => parsePolicyEditUri(uri) !== undefined, (text) => loadCore().checkJson(text, loadCore().PolicyContentSchema)),
    );
  }

  /** Opens a version in an editor tab ("Policy · version.json"). */
  async open(policy: Policy, version: PolicyVersion, column?: vscode.ViewColumn): Promise<vscode.TextEditor> {
    const uri = policyVersionEditUri(policy.id, version.id, policy.name, version.version_name || 'unnamed version');
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (!open) this.fs.set(uri, this.document(uri, policy.id, version.id, version.content, 'openedHere'));
    const doc = open ?? (await vscode.workspace.openTextDocument(uri));
    return vscode.window.showTextDocument(doc, { preview: false, viewColumn: column });
  }

  /** The version a policy document was opened from (what its save is based on). */
  baseOf(uri: vscode.Uri): { policyId: string; versionId: string } | undefined {
    return parsePolicyEditUri(uri);
  }

  /** A policy version as a document; `origin` says whether its save writes the policy the user picked (see documentTargets.ts). */
  private document(uri: vscode.Uri, policyId: string, versionId: string, content: unknown, origin: DocumentOrigin): EditableDocument {
    const load = async (): Promise<string> => pretty((await this.connection.requireClient().policies.getVersion(policyId, versionId)).content);
    const ground: PolicyGround = (client, policy) => this.targets.ground(client, origin, target.policy(policy.id), () => Promise.resolve(policy.name));
    return serviceDocument(content === undefined ? load : pretty(content), (text) => saveAsNewVersion(uri, text, this.target(uri, policyId, versionId, ground), this.diagnostics));
  }

  /**
   * Restore This Version: a new current version with the content of `source`, based on the current
   * version, through the same flow as a save (unchanged content creates nothing, a newer version is
   * asked about, a lost answer is never repeated). `askName` gives the new version's name; `how` says
   * where the user picked the version (its row in the Policies view).
   */
  async restore(policy: Policy, source: PolicyVersion, askName: () => Thenable<string | undefined>, how: string): Promise<{ outcome: SaveOutcome; created?: PolicyVersion }> {
    const uri = policyVersionEditUri(policy.id, source.id, policy.name, source.version_name || 'unnamed version');
    const steps = this.target(uri, policy.id, policy.current_version_id ?? source.id, (client) => Promise.resolve(picked(client, target.policy(policy.id), how)));
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

  /**
   * Publish This Edit: the content a trial tried (as the core's `publishable` answers it, never the
   * file's) saved as one new version of the real policy through the same flow as a save (the version
   * name asked; a version newer than the one the trial began from found just before the write, and then
   * nothing is saved: `retry` says the user wants to try again). `ground`: the user's confirmation of
   * publishing to this policy. An open editor of the edit tried is marked saved and moves to the new version.
   */
  async publish(trial: { policyId: string; policyName: string; baseVersionId: string | null; content: unknown }, ground: WriteGround | undefined): Promise<{ outcome: SaveOutcome; created?: PolicyVersion; retry?: boolean }> {
    const base = trial.baseVersionId ?? '';
    const uri = policyVersionEditUri(trial.policyId, base || 'none', trial.policyName, 'trial');
    const steps = this.target(uri, trial.policyId, base, () => Promise.resolve(ground));
    let created: PolicyVersion | undefined;
    let retry = false;
    let policy: Policy | undefined;
    const outcome = await saveAsNewVersion(uri, pretty(trial.content), {
      ...steps,
      title: `“${trial.policyName}”`,
      unchanged: async (value) => (base ? (steps.unchanged?.(value) ?? false) : false),
      newer: async () => {
        policy = await this.connection.requireClient().policies.get(trial.policyId);
        return steps.newer?.();
      },
      conflict: async (newer) => {
        const prompts = this.prompts.trialConflict ? this.prompts : userPrompts;
        retry = policy !== undefined && (await prompts.trialConflict?.(policy, newer)) === 'retry';
        // Never "anyway": a trial publishes only over the version it was tried against.
        return undefined;
      },
      created: (result, text) => {
        created = result.created;
        this.authorship.noteCreated(result.created.id);
        this.log.info(`Published a trial of ${trial.policyName} as new version ${result.created.version_name ?? ''} (${result.created.id}), based on ${base || 'no version'}`);
        void this.view.showNewVersion(trial.policyId, result.created.id);
        void this.settleEditors(trial.policyId, base, text, result.policy, result.created);
        return undefined;
      },
    }, this.diagnostics);
    return { outcome, created, retry };
  }

  /** Publish found the policy changed since its trial began: says which version came in between; 'retry' when the user wants to try the edit on it. */
  async askTrialConflict(trial: { policyId: string }): Promise<'retry' | undefined> {
    const client = this.connection.requireClient();
    const policy = await client.policies.get(trial.policyId);
    const current = policy.current_version_id ? await client.policies.getVersion(policy.id, policy.current_version_id) : undefined;
    const who = current ? await this.authorship.describe(client, current.id, current.created_by) : { author: undefined, byYou: false };
    const prompts = this.prompts.trialConflict ? this.prompts : userPrompts;
    return prompts.trialConflict?.(policy, { name: current?.version_name || 'unnamed version', ...who });
  }

  /** Editors of the version a trial began from that hold the content published: saved, and moved to the new version. */
  private async settleEditors(policyId: string, baseId: string, text: string, policy: Policy, created: PolicyVersion): Promise<void> {
    const published = JSON.parse(text) as unknown;
    const newUri = policyVersionEditUri(policyId, created.id, policy.name, created.version_name || 'unnamed version');
    for (const doc of vscode.workspace.textDocuments) {
      const ids = parsePolicyEditUri(doc.uri);
      if (!doc.isDirty || ids?.policyId !== policyId || ids.versionId !== baseId) continue;
      let held: unknown;
      try {
        held = JSON.parse(doc.getText());
      } catch {
        continue;
      }
      if (!samePolicyContent(held, published)) continue;
      this.fs.set(newUri, this.document(newUri, policyId, created.id, published, 'openedHere'));
      await this.fs.settleAs(doc, newUri).catch((error: unknown) => this.log.warn(`The editor of the published edit could not be marked saved: ${String(error)}`));
    }
  }

  /** The steps of saving one policy version as a new one, for the shared flow; `ground` is asked right before the write. */
  private target(uri: vscode.Uri, policyId: string, baseId: string, ground: PolicyGround): NewVersionTarget<unknown, { policy: Policy; created: PolicyVersion }> {
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
        const writer = client();
        const created = await writer.policies.createVersion(policyId, { content, version_name: answers.versionName, ...(baseId ? { base_version_id: baseId } : {}) }, { ground: await ground(writer, policy) });
        return { policy, created };
      },
      created: ({ policy: saved, created }, text) => {
        this.authorship.noteCreated(created.id);
        this.log.info(`Saved ${saved.name} as new version ${created.version_name ?? ''} (${created.id}), based on ${baseId}`);
        void this.view.showNewVersion(policyId, created.id);
        const newUri = policyVersionEditUri(saved.id, created.id, saved.name, created.version_name || 'unnamed version');
        this.fs.set(newUri, this.document(newUri, saved.id, created.id, JSON.parse(text), 'openedHere'));
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
