/**
 * What the extension tells VS Code's own MCP client about the window's MCP server. No imports: the
 * activation bundle takes this (VS Code asks for the definitions right after the provider registers).
 *
 * Two steps, as VS Code's API has them: the definition *offered* (listed, and possibly kept by the editor
 * between sessions) names no port and no token, since the server is not started until it is needed; the
 * definition *resolved* when the editor starts the server carries the URL and this server's own bearer
 * token, which VS Code keeps in memory to connect. The service's token is in neither.
 */

/** The provider's id: package.json's `mcpServerDefinitionProviders` (and the 1.100 proposal's `modelContextServerCollections`) list it. */
export const MCP_PROVIDER_ID = 'agentWorkbench.mcpServer';

/** The server's name in VS Code's MCP list. */
export const MCP_SERVER_LABEL = 'Agent Workbench';

/** Where the offered definition points before the server listens (never connected to: resolving replaces it). */
export const UNSTARTED_URL = 'http://127.0.0.1/mcp';

/** A definition as this module gives it; the VS Code layer turns it into `vscode.McpHttpServerDefinition`. */
export interface EditorServerDefinition {
  label: string;
  url: string;
  headers: Record<string, string>;
  /** VS Code refreshes the server's tools when this changes: the extension's version and whether only the reads are offered. */
  version: string;
}

/** The definition listed before the server starts: no port, no token. */
export function offeredDefinition(extensionVersion: string, readOnly: boolean): EditorServerDefinition {
  return { label: MCP_SERVER_LABEL, url: UNSTARTED_URL, headers: {}, version: `${extensionVersion}${readOnly ? '+read-only' : ''}` };
}

/** The definition VS Code connects with: the offered one with the running server's URL and token header. */
export function resolvedDefinition(offered: EditorServerDefinition, address: { url: string; headers: Record<string, string> }): EditorServerDefinition {
  return { ...offered, url: address.url, headers: { ...address.headers } };
}
