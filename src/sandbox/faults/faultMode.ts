import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../http/errors';
import { ADMIN_PREFIX, serveAdmin } from './admin';
import { FaultBook } from './faultBook';
import { type Outcome, type RunOperation, type SendReply, serveWithFault } from './inject';
import type { FaultRule } from './rules';

/** How one request was served, for its log line. */
export interface Served {
  status: Outcome;
  /** The kind of fault applied, if any (with `+latency` when a delay came with it). */
  fault?: string;
}

/** A fresh admin secret: 32 random bytes, URL-safe. */
export function generateAdminSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The sandbox's fault mode: the rules in force and the admin endpoint that changes them. With no rules
 * (the default) every request is served as usual, at the cost of one empty loop.
 */
export class FaultMode {
  readonly book: FaultBook;

  constructor(
    rules: readonly FaultRule[],
    readonly adminSecret: string,
  ) {
    if (adminSecret.length < 16) throw new Error('The admin secret must be at least 16 characters.');
    this.book = new FaultBook(rules);
  }

  /** Serves one request: the admin endpoint, a request a rule matched, or a plain one. Never rejects. */
  async serve(req: IncomingMessage, res: ServerResponse, path: string, run: RunOperation, send: SendReply): Promise<Served> {
    if (path.startsWith(ADMIN_PREFIX)) return { status: await this.serveAdmin(req, res, path, send) };
    const plan = this.book.plan(req.method ?? 'GET', path, bearerToken(req));
    if (!plan) {
      const reply = await run();
      send(req, res, reply);
      return { status: reply.status };
    }
    const status = await serveWithFault(req, res, plan, run, send);
    const kinds = [plan.fault?.released ? undefined : plan.fault?.rule.kind, plan.delayMs > 0 ? 'latency' : undefined].filter((k) => k !== undefined);
    return { status, fault: kinds.length > 0 ? kinds.join('+') : undefined };
  }

  private async serveAdmin(req: IncomingMessage, res: ServerResponse, path: string, send: SendReply): Promise<number> {
    const reply = await serveAdmin(req, path, this.book, this.adminSecret).catch((error: unknown) => {
      if (error instanceof HttpError) return { status: error.status, body: error.body, headers: error.headers };
      throw error;
    });
    send(req, res, reply);
    return reply.status;
  }
}

/** The token of `Authorization: Bearer <token>`, for rules scoped to one token. */
function bearerToken(req: IncomingMessage): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
}
