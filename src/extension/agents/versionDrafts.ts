import * as vscode from 'vscode';
import type { AgentVersion, BaseAgent } from '../../core/client';
import type { AgentVersionDraft } from '../../core/documents/agentVersionDraft';
import type { NewAgentDraft } from '../../core/documents/newAgentDraft';
import { sameJson } from '../../core/documents/sameJson';
import { Schemes } from '../constants';
import type { Connection } from '../connection/connection';
import { agentVersionUri, documentTitle, titleSegment } from '../documents/documentUris';
import { serviceDocument, type EditableDocument, type EditableFileSystem } from '../documents/editableFileSystem';
import { checkWhileTyping } from '../documents/liveProblems';
import { saveAsNewVersion, type NewVersionTarget } from '../documents/newVersionSave';
import { loadCore } from '../lazyCore';
import type { Log } from '../log';
import { DocumentDiagnostics } from '../documents/diagnostics';
import { DraftChoices } from '../documents/draftChoices';
import type { DocumentOrigin, DocumentTargets } from '../documents/documentTargets';
import { NEW_THING, target } from '../util/picked';
import type { AgentsView } from './agentsView';

/**
 * *Create Version…* and *New Agent…*: a draft JSON document, prefilled from a version or from the
 * engine and model chosen. Saving it goes through the shared new-version flow (the JSON schema gives
 * completion and squiggles meanwhile); problems — ours or the service's field errors — are underlined
 * at their field and the draft stays dirty, nothing lost. Once created, a version draft's tab shows the
 * new version, and a new-agent draft's tab becomes a version draft of the new agent (what the service
 * has, so a further save creates a version); a new-agent draft never makes a second agent.
 */
export class VersionDrafts implements vscode.Disposable {
  readonly diagnostics = new DocumentDiagnostics('agent-workbench-drafts');
  private readonly checking: vscode.Disposable;
  private readonly choices: DraftChoices;
  /** New-agent drafts that already created their agent (by URI), with the agent's name. */
  private readonly createdAgents = new Map<string, string>();

  constructor(
    private readonly fs: EditableFileSystem,
    private readonly connection: Connection,
    private readonly view: AgentsView,
    private readonly log: Log,
    private readonly targets: DocumentTargets,
  ) {
    fs.addResolver((uri) => this.resolve(uri));
    this.choices = new DraftChoices(connection, (uri) => draftIds(uri) !== undefined || (uri.scheme === Schemes.edit && uri.path.startsWith('/drafts/new-agents/')));
    this.checking = checkWhileTyping(this.diagnostics, (uri) => draftIds(uri) !== undefined, (text) => loadCore().checkJson(text, loadCore().AgentVersionDraftSchema));
  }

  /** Opens a draft of a new version of `agent`, starting from `base`. */
  async open(agent: BaseAgent, base: AgentVersion): Promise<void> {
    const uri = versionDraftUri(agent, base.id);
    const { draftFromVersion } = loadCore();
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) {
      await vscode.window.showTextDocument(open, { preview: false });
      return;
    }
    this.fs.set(uri, this.document(uri, agent.id, base.id, `${JSON.stringify(draftFromVersion(base), null, 2)}\n`, 'openedHere'));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: false });
  }

  /** Opens a draft of a new agent (*New Agent…*): name, engine and first version; saving creates the agent once. */
  async openNewAgent(draft: NewAgentDraft): Promise<vscode.Uri> {
    const uri = vscode.Uri.from({ scheme: Schemes.edit, path: `/drafts/new-agents/${Date.now().toString(36)}/${titleSegment(`New agent · ${draft.name}`)}.json` });
    this.fs.set(uri, serviceDocument(`${JSON.stringify(draft, null, 2)}\n`, (text) => saveAsNewVersion(uri, text, this.newAgentTarget(uri), this.diagnostics)));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: false });
    return uri;
  }

  /** The steps of creating an agent from a new-agent draft, for the shared flow. */
  private newAgentTarget(uri: vscode.Uri): NewVersionTarget<NewAgentDraft, BaseAgent> {
    const core = loadCore();
    return {
      title: documentTitle(uri),
      check: (text) => core.checkJson(text, core.NewAgentDraftSchema),
      create: (draft) => {
        const created = this.createdAgents.get(uri.toString());
        if (created) return Promise.reject(new Error(`this draft already created the agent “${created}”. Change it with Create Version… on that agent.`));
        return this.connection.requireClient().agents.create(core.createAgentBody(draft), { ground: NEW_THING });
      },
      created: (agent) => {
        this.createdAgents.set(uri.toString(), agent.name);
        this.log.info(`Created agent ${agent.name} (${agent.id})`);
        void this.view.addAndReveal(agent);
        if (!agent.current_version_id) return `Created the agent “${agent.name}”.`;
        // From now on the tab is a draft of the agent's next version, read from what the service stored.
        const next = versionDraftUri(agent, agent.current_version_id);
        const versionId = agent.current_version_id;
        this.fs.set(next, this.document(next, agent.id, versionId, async () => `${JSON.stringify(await this.baseDraft(agent.id, versionId), null, 2)}\n`, 'openedHere'));
        this.fs.showAfterSave(uri, next);
        return `Created the agent “${agent.name}”. Its draft now shows what the service stored: saving it again creates a new version.`;
      },
      readAgain: () => this.view.reload(),
    };
  }

  /** After a reload the tab is restored: rebuild the draft from the version named in its path (a new-agent draft cannot be, and says so). */
  private resolve(uri: vscode.Uri): EditableDocument | undefined {
    if (uri.scheme === Schemes.edit && uri.path.startsWith('/drafts/new-agents/')) {
      return serviceDocument('', () => Promise.resolve({ kind: 'notSaved', message: 'This New Agent draft was lost when the window reloaded: run New Agent… again.' }));
    }
    const ids = draftIds(uri);
    if (!ids) return undefined;
    // Restored from its address alone: its agent is confirmed before the first save writes it.
    return this.document(uri, ids.agentId, ids.baseId, async () => `${JSON.stringify(await this.baseDraft(ids.agentId, ids.baseId), null, 2)}\n`, 'addressOnly');
  }

  private async baseDraft(agentId: string, baseId: string): Promise<unknown> {
    return loadCore().draftFromVersion(await this.connection.requireClient().agents.getVersion(agentId, baseId));
  }

  /** A version draft as a document; `origin` says whether its save writes the agent the user picked (see documentTargets.ts). */
  private document(uri: vscode.Uri, agentId: string, baseId: string, initial: string | (() => Promise<string>), origin: DocumentOrigin): EditableDocument {
    return serviceDocument(initial, (text) => saveAsNewVersion(uri, text, this.target(uri, agentId, baseId, origin), this.diagnostics));
  }

  /** The steps of creating an agent version from a draft, for the shared flow. */
  private target(uri: vscode.Uri, agentId: string, baseId: string, origin: DocumentOrigin): NewVersionTarget<AgentVersionDraft, AgentVersion> {
    const core = loadCore();
    return {
      title: documentTitle(uri),
      check: (text) => core.checkJson(text, core.AgentVersionDraftSchema),
      unchanged: async (value) => sameJson(value, await this.baseDraft(agentId, baseId)),
      create: async (value) => {
        const client = this.connection.requireClient();
        const ground = await this.targets.ground(client, origin, target.agent(agentId), async () => (await client.agents.get(agentId)).name);
        return client.agents.createVersion(agentId, value, { ground });
      },
      created: (version) => {
        this.log.info(`Created version ${version.version_name} (${version.id}) of agent ${agentId}`);
        void this.view.revealVersion(agentId, version.id);
        this.fs.showAfterSave(uri, agentVersionUri(agentId, version.id, version.base_agent.name, version.version_name));
        return `Created version “${version.version_name}” of ${version.base_agent.name}.`;
      },
      readAgain: () => void this.view.revealVersion(agentId, undefined),
    };
  }

  /**
   * Draft editors of `agentId` holding what was just published as `version` (a draft's trial): marked
   * saved, their tab moved to the new version, so that a later Ctrl+S cannot make the version twice.
   */
  async settlePublished(agentId: string, published: Pick<AgentVersionDraft, 'engine_config' | 'input_definitions'>, version: Pick<AgentVersion, 'id' | 'version_name'>, agentName: string): Promise<void> {
    for (const doc of vscode.workspace.textDocuments) {
      if (!doc.isDirty || draftIds(doc.uri)?.agentId !== agentId) continue;
      const held = loadCore().checkJson(doc.getText(), loadCore().AgentVersionDraftSchema);
      if (!held.ok || !loadCore().sameRun(held.value, published)) continue;
      await this.fs.settleAs(doc, agentVersionUri(agentId, version.id, agentName, version.version_name)).catch((error: unknown) => this.log.warn(`The draft of the published version could not be marked saved: ${String(error)}`));
    }
  }

  dispose(): void {
    this.choices.dispose();
    this.checking.dispose();
    this.diagnostics.dispose();
  }
}

/** The draft of a new version of `agent` starting from the version `baseId`: "Agent name · new version". */
function versionDraftUri(agent: Pick<BaseAgent, 'id' | 'name'>, baseId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: Schemes.edit, path: `/drafts/agents/${agent.id}/${baseId}/${titleSegment(`${agent.name} · new version`)}.json` });
}

/** The agent and base version a draft URI names. */
/** The agent and the version a version draft's URI names, or undefined when it is not one. */
export function draftIds(uri: vscode.Uri): { agentId: string; baseId: string } | undefined {
  if (uri.scheme !== Schemes.edit) return undefined;
  const [kind, sub, agentId, baseId] = uri.path.split('/').filter(Boolean);
  return kind === 'drafts' && sub === 'agents' && agentId && baseId ? { agentId, baseId } : undefined;
}
