/**
 * The sessions of the MCP HTTP server: each its own transport and server (with the session's job budget
 * and confirmations). A client that goes without a DELETE would otherwise leave them open for as long as
 * the server runs, so there are at most `max`, and one idle for `idleMs` (no request or stream open) is
 * closed with its transport and server.
 */
import type * as http from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** The default most sessions open at once. */
export const MAX_SESSIONS = 16;
/** The default time a session may go unused before it is closed. */
export const SESSION_IDLE_MS = 10 * 60_000;

/** One open session. */
export interface HttpSession {
  transport: StreamableHTTPServerTransport;
  server: Server;
  /** Requests and streams of the session still open: while any is, the session is in use. */
  inFlight: number;
  lastUsed: number;
}

export interface SessionOptions {
  max: number;
  idleMs: number;
  now: () => number;
  log(line: string): void;
}

/** The open sessions, by id. */
export class HttpSessions {
  private readonly open = new Map<string, HttpSession>();

  constructor(private readonly o: SessionOptions) {}

  get size(): number {
    return this.open.size;
  }

  /** Sessions with a request or stream open. */
  get inUse(): number {
    return [...this.open.values()].filter((s) => s.inFlight > 0).length;
  }

  get(id: string): HttpSession | undefined {
    return this.open.get(id);
  }

  /** Whether one more may open (idle ones are closed first). */
  hasRoom(): boolean {
    void this.closeIdle();
    return this.open.size < this.o.max;
  }

  /** What a refused initialize is told. */
  fullText(): string {
    return `Too many open sessions (${this.o.max}): close one (DELETE /mcp with its Mcp-Session-Id) or wait until one has been idle for ${Math.round(this.o.idleMs / 60_000)} minutes.`;
  }

  /** Holds a new session from now (before its initialize is answered, so that sessions opened together count). */
  add(id: string, session: HttpSession): void {
    this.open.set(id, session);
    // However it closes (DELETE, an error, close below), it is forgotten.
    session.transport.onclose = () => {
      if (this.open.get(id) === session) this.open.delete(id);
    };
  }

  /** Counts a request (or stream) of a session as open until its response ends. */
  track(session: HttpSession, res: http.ServerResponse): void {
    session.inFlight++;
    session.lastUsed = this.o.now();
    res.once('close', () => {
      session.inFlight--;
      session.lastUsed = this.o.now();
    });
  }

  /** Closes a session: its transport and its server, forgotten at once. */
  async close(id: string, why: string): Promise<void> {
    const session = this.open.get(id);
    if (!session) return;
    this.open.delete(id);
    await session.server.close().catch(() => undefined);
    this.o.log(`session closed (${why}; ${this.open.size} open)`);
  }

  /** Closes every session unused for the idle time. */
  async closeIdle(): Promise<void> {
    const since = this.o.now() - this.o.idleMs;
    const idle = [...this.open].filter(([, s]) => s.inFlight === 0 && s.lastUsed <= since).map(([id]) => id);
    await Promise.all(idle.map((id) => this.close(id, `idle for ${Math.round(this.o.idleMs / 60_000)} minutes`)));
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.open.keys()].map((id) => this.close(id, 'the server stopped')));
  }
}
