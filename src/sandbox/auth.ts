import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { unauthorized } from './http/errors';
import type { SandboxDb } from './store/database';

/** Tokens are kept only as SHA-256 hashes (hex); the demo user's token is also in `meta` so it can be shown. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A fresh random bearer token. */
export function generateToken(): string {
  return `sbx_${randomBytes(24).toString('base64url')}`;
}

/**
 * Finds the user of a bearer token. Every known hash is compared with `timingSafeEqual` and the
 * loop never stops early, so the answer time does not reveal how much of a guess was right.
 */
export class TokenBook {
  private entries: { hash: Buffer; userId: number }[] = [];

  constructor(private readonly db: SandboxDb) {
    this.reload();
  }

  /** Re-reads the users' token hashes (after users were added). */
  reload(): void {
    this.entries = this.db
      .all<{ id: number; token_hash: string }>('SELECT id, token_hash FROM users WHERE token_hash IS NOT NULL AND is_active = 1')
      .map((r) => ({ hash: Buffer.from(r.token_hash, 'hex'), userId: r.id }));
  }

  /** The user id of the request's `Authorization: Bearer ...`; throws 401 without a known token. */
  authenticate(req: IncomingMessage): number {
    const header = req.headers.authorization;
    if (!header) throw unauthorized('Authentication credentials were not provided.');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized('Invalid token header. Expected "Bearer <token>".');
    const presented = Buffer.from(hashToken(match[1]!), 'hex');
    let found: number | undefined;
    for (const entry of this.entries) {
      if (timingSafeEqual(entry.hash, presented) && found === undefined) found = entry.userId;
    }
    if (found === undefined) throw unauthorized('Invalid token.');
    return found;
  }
}
