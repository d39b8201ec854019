import * as vscode from 'vscode';
import { Schemes } from '../constants';
import type { Connection } from '../connection/connection';
import { Disposable } from '../util/disposable';
import { messageOf } from '../util/errors';
import { parseViewUri } from './documentUris';

/**
 * Read-only documents of service data (agent versions, policy versions, the raw JSON of a job and its artifacts),
 * read from the service when opened and again on Refresh; a failure shows as the document's text.
 */
export class ServiceDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly changed = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;

  private jobSource: ((agentId: string, jobId: string) => Promise<string>) | undefined;

  constructor(private readonly connection: Connection) {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(Schemes.view, this));
  }

  /** Where the raw JSON of a job comes from (the job views, which hold the records they show). */
  setJobSource(source: (agentId: string, jobId: string) => Promise<string>): void {
    this.jobSource = source;
  }

  /** Reads the document again from the service. */
  refresh(uri: vscode.Uri): void {
    this.changed.fire(uri);
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const target = parseViewUri(uri);
    if (!target) return `Unknown document: ${uri.toString()}`;
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    try {
      const client = this.connection.requireClient();
      const opts = { signal: controller.signal };
      if (target.kind === 'agentVersion') {
        const version = await client.agents.getVersion(target.agentId, target.versionId, { supportsEval: true }, opts);
        return `${JSON.stringify(version, null, 2)}\n`;
      }
      if (target.kind === 'policyVersion') {
        const version = await client.policies.getVersion(target.policyId, target.versionId, opts);
        return `${JSON.stringify(version.content ?? {}, null, 2)}\n`;
      }
      if (target.kind === 'jobArtifact') {
        const result = await client.jobs.artifact(target.jobId, target.artifactKey, opts);
        return `${JSON.stringify(result, null, 2) ?? 'null'}\n`;
      }
      if (!this.jobSource) return 'The job views are not ready yet: open the job again.\n';
      return await this.jobSource(target.agentId, target.jobId);
    } catch (error) {
      // The document shows what went wrong; Refresh tries again.
      return `Could not load this document: ${messageOf(error)}\n\nUse "Refresh" in the editor title to try again.\n`;
    } finally {
      sub.dispose();
    }
  }
}
