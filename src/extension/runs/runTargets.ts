import * as vscode from 'vscode';
import type { AgentVersion, BaseAgent } from '../../core/client';
import type { Connection } from '../connection/connection';
import { RUN_SCHEMA_URI } from '../constants';
import { loadCore } from '../lazyCore';
import type { RunTarget } from '../core';
import { Disposable } from '../util/disposable';

/** What a run file names, read from the service: the agent, the version that runs and its input definitions. */
export interface ResolvedTarget extends RunTarget {
  agent: BaseAgent;
  version: AgentVersion;
}

/** The service does not know the agent or version a run file names. */
export class UnknownTargetError extends Error {
  constructor(
    readonly field: 'agent' | 'version',
    message: string,
  ) {
    super(message);
  }
}

const keyOf = (agentId: string, versionId?: string): string => `${agentId}/${versionId ?? ''}`;

/**
 * The agent versions run files name, and the JSON schema built from their input definitions, served
 * to VS Code's JSON language service at `RUN_SCHEMA_URI` (contributed for `*.agentrun.json` in
 * package.json). The schema grows as run files name more agents; VS Code reads it again on each change.
 */
export class RunTargets extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly changed = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;
  private readonly known = new Map<string, ResolvedTarget>();
  private readonly unknown = new Map<string, UnknownTargetError>();
  private readonly loading = new Map<string, Promise<ResolvedTarget>>();

  constructor(
    private readonly connection: Connection,
    /** The agent as the store beneath the views knows it now (undefined: not known). */
    private readonly agentNow: (agentId: string) => BaseAgent | undefined = () => undefined,
  ) {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(vscode.Uri.parse(RUN_SCHEMA_URI).scheme, this));
    this.register(connection.onDidChange(() => this.forgetAll()));
  }

  provideTextDocumentContent(): string {
    return `${JSON.stringify(loadCore().runFileJsonSchema([...this.known.values()]), null, 2)}\n`;
  }

  /**
   * The target a run file names. `fresh`: as it is now — a version read before is still the one to run
   * when it is pinned (a version's inputs never change) or when the store still knows it as the agent's
   * current version; otherwise it is read again. The service checks the inputs of every run anyway.
   */
  async resolve(agentId: string, versionId: string | undefined, fresh = false): Promise<ResolvedTarget> {
    const key = keyOf(agentId, versionId);
    const cached = this.known.get(key);
    if (cached && (!fresh || versionId !== undefined || this.agentNow(agentId)?.current_version_id === cached.version.id)) return cached;
    if (!fresh) {
      const refused = this.unknown.get(key);
      if (refused) throw refused;
    }
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.load(agentId, versionId).finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  /** The answer already known for a target, without asking the service. */
  cached(agentId: string, versionId: string | undefined): ResolvedTarget | UnknownTargetError | undefined {
    const key = keyOf(agentId, versionId);
    return this.known.get(key) ?? this.unknown.get(key);
  }

  private async load(agentId: string, versionId: string | undefined): Promise<ResolvedTarget> {
    const client = this.connection.requireClient();
    const key = keyOf(agentId, versionId);
    try {
      const agent = await notFoundAs(client.agents.get(agentId), () => new UnknownTargetError('agent', `There is no agent with ID ${agentId} in this organization.`));
      const version = await notFoundAs(versionId ? client.agents.getVersion(agentId, versionId) : client.agents.currentVersion(agentId), () =>
        versionId ? new UnknownTargetError('version', `${agent.name} has no version with ID ${versionId}.`) : new UnknownTargetError('agent', `${agent.name} has no current version to run.`),
      );
      const target: ResolvedTarget = { agentId, agentName: agent.name, versionId, versionName: version.version_name, definitions: version.input_definitions, agent, version };
      const before = JSON.stringify(this.known.get(key)?.definitions);
      this.known.set(key, target);
      this.unknown.delete(key);
      if (before !== JSON.stringify(target.definitions) || before === undefined) this.changed.fire(vscode.Uri.parse(RUN_SCHEMA_URI));
      return target;
    } catch (error) {
      if (error instanceof UnknownTargetError) {
        this.unknown.set(key, error);
        if (this.known.delete(key)) this.changed.fire(vscode.Uri.parse(RUN_SCHEMA_URI));
      }
      throw error;
    }
  }

  private forgetAll(): void {
    this.known.clear();
    this.unknown.clear();
    this.changed.fire(vscode.Uri.parse(RUN_SCHEMA_URI));
  }
}

async function notFoundAs<T>(promise: Promise<T>, error: () => Error): Promise<T> {
  try {
    return await promise;
  } catch (e) {
    if ((e as { status?: unknown }).status === 404) throw error();
    throw e;
  }
}
