/**
 * The MCP server a VS Code window offers to the editor's own MCP client: the Streamable HTTP server of
 * `agent-workbench mcp --port` (the same code), on 127.0.0.1 and a free port, answering only a random
 * bearer token of its own made for this window. The service's token never leaves the process: the tools
 * use the window's client in place, so the editor is handed only a local URL and this server's token.
 * Started on first need, one start shared by concurrent callers, stopped with the window.
 */
import { serveHttp, newServerToken } from './mcpHttp';
import { createMcpServer, type McpCallContext } from './mcpServer';
import type { JobLimits } from '../tools';

export interface LocalServerOptions {
  /** The window's client, folder, limits and user, asked for at each call (throws when signed out). */
  context(): McpCallContext;
  /** The job limits of a session (the window's settings, asked at each check). */
  limits(): JobLimits;
  /** Asked when a client opens a session: an untrusted workspace gets only the reads. */
  readOnly(): boolean;
  version: string;
  log: (line: string) => void;
}

/** Where the editor reaches the server: the endpoint and the header that carries this server's token. */
export interface LocalServerAddress {
  url: string;
  headers: { Authorization: string };
}

/** One window's local MCP server. */
export class LocalMcpServer {
  private running: Promise<{ address: LocalServerAddress; close(): Promise<void> }> | undefined;
  private stopped = false;

  constructor(private readonly o: LocalServerOptions) {}

  /** Starts the server the first time (later calls share that start); answers its address. */
  async start(): Promise<LocalServerAddress> {
    if (this.stopped) throw new Error('The Agent Workbench MCP server has stopped with its window.');
    this.running ??= this.listen();
    try {
      return (await this.running).address;
    } catch (error) {
      // A failed start (no free port, say) is tried again on the next request rather than remembered.
      this.running = undefined;
      throw error;
    }
  }

  /** Stops the server and every session it holds; a later start is refused. */
  async stop(): Promise<void> {
    this.stopped = true;
    const running = this.running;
    this.running = undefined;
    if (running) await (await running.catch(() => undefined))?.close();
  }

  private async listen(): Promise<{ address: LocalServerAddress; close(): Promise<void> }> {
    const token = newServerToken();
    const o = this.o;
    const http = await serveHttp({ port: 0, token, log: o.log, makeServer: () => createMcpServer({ context: () => o.context(), limits: () => o.limits(), readOnly: o.readOnly(), version: o.version, log: o.log }) });
    o.log(`MCP server for the editor listening at ${http.url}`);
    return { address: { url: http.url, headers: { Authorization: `Bearer ${token}` } }, close: () => http.close() };
  }
}
