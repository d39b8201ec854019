import * as vscode from 'vscode';
import type { AgentVersion, BaseAgent } from '../../core/client';
import { Schemes } from '../constants';
import type { Connection } from '../connection/connection';
import { titleSegment } from '../documents/documentUris';
import { serviceDocument, type EditableDocument, type EditableFileSystem } from '../documents/editableFileSystem';
import { loadCore } from '../lazyCore';
import type { Log } from '../log';
import { messageOf } from '../util/errors';
import { DocumentDiagnostics, problemsSummary } from '../documents/diagnostics';
import type { AgentsView } from './agentsView';

/**
 * *Create Version…*: a draft JSON document prefilled from a version. Saving it creates the version
 * (the JSON schema gives completion and squiggles meanwhile); problems — ours or the service's field
 * errors — are underlined at their field and the draft stays dirty, nothing lost.
 */
export class VersionDrafts implements vscode.Disposable {
  readonly diagnostics = new DocumentDiagnostics('agent-workbench-drafts');

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

  /** After a reload the tab is restored: rebuild the draft from the version named in its path. */
  private resolve(uri: vscode.Uri): EditableDocument | undefined {
    const [kind, sub, agentId, baseId] = uri.path.split('/').filter(Boolean);
    if (kind !== 'drafts' || sub !== 'agents' || !agentId || !baseId) return undefined;
    return this.document(uri, agentId, async () => {
      const version = await this.connection.requireClient().agents.getVersion(agentId, baseId);
      return `${JSON.stringify(loadCore().draftFromVersion(version), null, 2)}\n`;
    });
  }

  private document(uri: vscode.Uri, agentId: string, initial: string | (() => Promise<string>)): EditableDocument {
    return serviceDocument(initial, (text) => this.save(uri, agentId, text));
  }

  private async save(uri: vscode.Uri, agentId: string, text: string): Promise<void> {
    const core = loadCore();
    const check = core.checkJson(text, core.AgentVersionDraftSchema);
    if (!check.ok) {
      this.diagnostics.set(uri, text, check.problems);
      throw new Error(`Not saved: ${problemsSummary(check.problems)} The draft is kept; fix the underlined fields and save again.`);
    }
    this.diagnostics.clear(uri);
    try {
      const version = await this.connection.requireClient().agents.createVersion(agentId, check.value);
      this.log.info(`Created version ${version.version_name} (${version.id}) of agent ${agentId}`);
      void this.view.revealVersion(agentId, version.id);
      void vscode.window.showInformationMessage(`Created version “${version.version_name}” of ${version.base_agent.name}.`);
    } catch (error) {
      if (core.isServiceError(error)) {
        const fieldProblems = core.locateFieldErrors(text, error.fieldErrors);
        if (fieldProblems.length) this.diagnostics.set(uri, text, fieldProblems);
        if (error.outcomeUnknown) {
          void this.view.revealVersion(agentId, undefined);
          throw new Error(`Not sure whether the version was created: ${error.message} The agent's versions were read again — check them before saving again.`);
        }
      }
      throw new Error(`Not saved: ${messageOf(error)}`);
    }
  }

  dispose(): void {
    this.diagnostics.dispose();
  }
}
