/**
 * Offers the tool catalogue to VS Code's own MCP client (`vscode.lm.registerMcpServerDefinitionProvider`,
 * stable after 1.100; on 1.100 a proposal, refused unless proposals are enabled, as code-server does).
 * Where the API is missing or refuses, nothing happens and nothing is said but one debug line.
 *
 * The server runs here, in the extension host, over the window's connection, store and watcher (the
 * language model tools' context): VS Code is handed a 127.0.0.1 URL and a bearer token this window made
 * for it, never the service's token (a stdio definition would have to pass that in `env`, which VS Code
 * shows and keeps). It starts when VS Code first starts the server (resolve), loading the MCP SDK only
 * then, stops with the window, and offers only the reads while the workspace is not trusted.
 */
import * as vscode from 'vscode';
import { isWorkspaceTrusted } from '../commands/workspaceTrust';
import { toolLimits } from '../configuration';
import { loadCore } from '../lazyCore';
import { MCP_PROVIDER_ID, offeredDefinition, resolvedDefinition, type EditorServerDefinition } from '../../core/mcp/editorDefinition';
import type { LocalMcpServer } from '../../core/mcp/localServer';
import { windowToolContext, type ToolHost } from './languageModelTools';

// The parts of the API this file uses, declared here: the @types/vscode of the lowest version we support (1.100) has none of them.
interface HttpDefinition {
  label: string;
  uri: vscode.Uri;
  headers: Record<string, string>;
  version?: string;
}
type HttpDefinitionClass = new (label: string, uri: vscode.Uri, headers?: Record<string, string>, version?: string) => HttpDefinition;
interface DefinitionProvider {
  /** The stable API's name of the event, */
  onDidChangeMcpServerDefinitions: vscode.Event<void>;
  /** and the 1.100 proposal's. */
  onDidChangeServerDefinitions: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): HttpDefinition[];
  resolveMcpServerDefinition(definition: HttpDefinition, token: vscode.CancellationToken): Promise<HttpDefinition | undefined>;
}
type Register = (id: string, provider: DefinitionProvider) => vscode.Disposable;

/** The provider of the window's MCP server; `server` is there once VS Code has started it (tests read it). */
export class McpServerProvider implements DefinitionProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  readonly onDidChangeServerDefinitions = this.changed.event;
  server: LocalMcpServer | undefined;
  private readonly trustGranted: vscode.Disposable;

  constructor(
    private readonly host: Omit<ToolHost, 'prompts'>,
    private readonly Definition: HttpDefinitionClass,
    private readonly version: string,
  ) {
    // Sessions opened from now on get every tool: a new version makes VS Code reconnect and list them.
    this.trustGranted = vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire());
  }

  private offered(): EditorServerDefinition {
    return offeredDefinition(this.version, !isWorkspaceTrusted());
  }

  provideMcpServerDefinitions(): HttpDefinition[] {
    return [this.toVscode(this.offered())];
  }

  async resolveMcpServerDefinition(): Promise<HttpDefinition> {
    const { log } = this.host;
    this.server ??= new (loadCore().LocalMcpServer)({
      context: () => windowToolContext(this.host),
      limits: toolLimits,
      readOnly: () => !isWorkspaceTrusted(),
      version: this.version,
      log: (line) => log.info(`MCP: ${line}`),
    });
    return this.toVscode(resolvedDefinition(this.offered(), await this.server.start()));
  }

  private toVscode(d: EditorServerDefinition): HttpDefinition {
    return new this.Definition(d.label, vscode.Uri.parse(d.url), d.headers, d.version);
  }

  dispose(): void {
    this.trustGranted.dispose();
    this.changed.dispose();
    void this.server?.stop().catch((error: unknown) => this.host.log.error('Stopping the MCP server failed', error));
  }
}

/**
 * Registers the provider where VS Code has the API (and lets it be used); otherwise returns nothing, with
 * one debug line in the log. Cheap: nothing but this file's wiring runs until VS Code starts the server.
 */
export function registerMcpServerProvider(context: vscode.ExtensionContext, host: Omit<ToolHost, 'prompts'>): { provider?: McpServerProvider; disposables: vscode.Disposable[] } {
  const api = vscode as unknown as { lm?: { registerMcpServerDefinitionProvider?: Register }; McpHttpServerDefinition?: HttpDefinitionClass };
  const register = api.lm?.registerMcpServerDefinitionProvider;
  if (typeof register !== 'function' || typeof api.McpHttpServerDefinition !== 'function') {
    host.log.debug('MCP: this VS Code has no MCP server definition API; the server is not offered to its MCP client.');
    return { disposables: [] };
  }
  const version = (context.extension.packageJSON as { version?: string }).version ?? '0';
  const provider = new McpServerProvider(host, api.McpHttpServerDefinition, version);
  try {
    return { provider, disposables: [register.call(api.lm, MCP_PROVIDER_ID, provider), provider] };
  } catch (error) {
    // VS Code 1.100 refuses unless its proposal is enabled for this extension: say nothing but this line.
    provider.dispose();
    host.log.debug(`MCP: VS Code did not take the MCP server definition provider (${error instanceof Error ? error.message : String(error)}).`);
    return { disposables: [] };
  }
}
