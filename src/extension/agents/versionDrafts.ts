import * as vscode from 'vscode';
import type { AgentVersion, BaseAgent } from '../../core/client';
import { Schemes } from '../constants';
import type { Connection } from '../connection/connection';
import { titleSegment } from '../documents/documentUris';
import { serviceDocument, type EditableDocument, type EditableFileSystem } from '../documents/editableFileSystem';
import { loadCore } from '../lazyCore';
import type { ZodMiniType } from 'zod/mini';
import type { NewAgentDraft } from '../../core/documents/newAgentDraft';
import type { Log } from '../log';
import { messageOf } from '../util/errors';
import { DocumentDiagnostics, problemsSummary } from '../documents/diagnostics';
import type { AgentsView } from './agentsView';

/** What a draft's save does once the text checks out: send it, show the result, or re-read when the outcome is unknown. */
interface DraftFlow<T, R> {
  send(draft: T): Promise<R>;
  done(created: R): void;
  unknown(): void;
  what: string;
  listed: string;
}

/**
 * *Create Version…* and *New Agent…*: a draft JSON document prefilled from a version. Saving it creates the version
 * (the JSON schema gives completion and squiggles meanwhile); problems — ours or the service's field
 * errors — are underlined at their field and the draft stays dirty, nothing lost.
 */
export class VersionDrafts implements vscode.Disposable {
  readonly diagnostics = new DocumentDiagnostics('agent-workbench-drafts');
  /** New-agent drafts that already created their agent (by URI), with the agent's name. */
  private readonly createdAgents = new Map<string, string>();

  constructor(
    private readonly fs: EditableFileSystem,
    private readonly connection: Connection,
    private readonly view: AgentsView,
    private readonly log: Log,
  ) {
    fs.addResolver((uri) => this.resolve(uri));
  }

  /** Opens a draft of a new version of `agent`, starting from `base`. */
  async open(agent: BaseAgent, base: AgentVersion): Promise<void> {
    const uri = vscode.Uri.from({ scheme: Schemes.edit, path: `/drafts/agents/${agent.id}/${base.id}/${titleSegment(`${agent.name} · new version`)}.json` });
    const { draftFromVersion } = loadCore();
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) {
      await vscode.window.showTextDocument(open, { preview: false });
      return;
    }
    this.fs.set(uri, this.document(uri, agent.id, `${JSON.stringify(draftFromVersion(base), null, 2)}\n`));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: false });
  }

  /**
   * Opens a draft of a new agent (*New Agent…*): name, engine and first version. Saving creates the
   * agent once and reveals it; saving the same draft again is refused, so it never makes a second agent.
   */
  async openNewAgent(draft: NewAgentDraft): Promise<vscode.Uri> {
    const uri = vscode.Uri.from({ scheme: Schemes.edit, path: `/drafts/new-agents/${Date.now().toString(36)}/${titleSegment(`New agent · ${draft.name}`)}.json` });
    this.fs.set(uri, serviceDocument(`${JSON.stringify(draft, null, 2)}\n`, (text) => this.saveNewAgent(uri, text)));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: false });
    return uri;
  }

  /** After a reload the tab is restored: rebuild the draft from the version named in its path (a new-agent draft cannot be, and says so). */
  private resolve(uri: vscode.Uri): EditableDocument | undefined {
    const [kind, sub, agentId, baseId] = uri.path.split('/').filter(Boolean);
    if (kind !== 'drafts') return undefined;
    if (sub === 'new-agents') return serviceDocument('', () => Promise.reject(new Error('This New Agent draft was lost when the window reloaded: run New Agent… again.')));
    if (sub !== 'agents' || !agentId || !baseId) return undefined;
    return this.document(uri, agentId, async () => {
      const version = await this.connection.requireClient().agents.getVersion(agentId, baseId);
      return `${JSON.stringify(loadCore().draftFromVersion(version), null, 2)}\n`;
    });
  }

  private document(uri: vscode.Uri, agentId: string, initial: string | (() => Promise<string>)): EditableDocument {
    return serviceDocument(initial, (text) => this.saveVersion(uri, agentId, text));
  }

  private async saveVersion(uri: vscode.Uri, agentId: string, text: string): Promise<void> {
    const core = loadCore();
    await this.saveDraft(uri, text, core.AgentVersionDraftSchema, {
      send: (draft) => this.connection.requireClient().agents.createVersion(agentId, draft),
      done: (version) => {
        this.log.info(`Created version ${version.version_name} (${version.id}) of agent ${agentId}`);
        void this.view.revealVersion(agentId, version.id);
        void vscode.window.showInformationMessage(`Created version “${version.version_name}” of ${version.base_agent.name}.`);
      },
      unknown: () => void this.view.revealVersion(agentId, undefined),
      what: 'the version',
      listed: "The agent's versions were read again",
    });
  }

  private async saveNewAgent(uri: vscode.Uri, text: string): Promise<void> {
    const created = this.createdAgents.get(uri.toString());
    if (created) throw new Error(`Not saved: this draft already created the agent “${created}”. Change it with Create Version… on that agent.`);
    const core = loadCore();
    await this.saveDraft(uri, text, core.NewAgentDraftSchema, {
      send: (draft) => this.connection.requireClient().agents.create(core.createAgentBody(draft)),
      done: (agent) => {
        this.createdAgents.set(uri.toString(), agent.name);
        this.log.info(`Created agent ${agent.name} (${agent.id})`);
        void this.view.addAndReveal(agent);
        void vscode.window.showInformationMessage(`Created the agent “${agent.name}”.`);
      },
      unknown: () => this.view.reload(),
      what: 'the agent',
      listed: 'The Agents view was read again',
    });
  }

  /**
   * The one save flow of drafts: checked against the schema first (problems underlined, nothing sent),
   * then sent once; the service's field errors are underlined at their field and the draft stays dirty.
   */
  private async saveDraft<T, R>(uri: vscode.Uri, text: string, schema: ZodMiniType<T>, flow: DraftFlow<T, R>): Promise<void> {
    const core = loadCore();
    const check = core.checkJson(text, schema);
    if (!check.ok) {
      this.diagnostics.set(uri, text, check.problems);
      throw new Error(`Not saved: ${problemsSummary(check.problems)} The draft is kept; fix the underlined fields and save again.`);
    }
    this.diagnostics.clear(uri);
    try {
      flow.done(await flow.send(check.value));
    } catch (error) {
      if (core.isServiceError(error)) {
        const fieldProblems = core.locateFieldErrors(text, error.fieldErrors);
        if (fieldProblems.length) this.diagnostics.set(uri, text, fieldProblems);
        if (error.outcomeUnknown) {
          flow.unknown();
          throw new Error(`Not sure whether ${flow.what} was created: ${error.message} ${flow.listed} — check before saving again.`);
        }
      }
      throw new Error(`Not saved: ${messageOf(error)}`);
    }
  }

  dispose(): void {
    this.diagnostics.dispose();
  }
}
