import { generateToken, hashToken } from './auth';
import { isUuid } from './http/fields';
import type { SandboxDb } from './store/database';
import { DEMO_USER_ID } from './seed/base';
import { ensureOrganization, insertUser, setMemberships } from './users';

/** A user given to the sandbox at start: their bearer token and the organizations they belong to. */
export interface SandboxUserOption {
  token: string;
  organizationIds: string[];
}

/** Checks the `users` option before anything is opened, with messages that name the problem. */
export function checkUserOptions(users: readonly SandboxUserOption[]): void {
  const seen = new Set<string>();
  for (const [i, user] of users.entries()) {
    if (typeof user.token !== 'string' || !/^\S{8,}$/.test(user.token)) {
      throw new Error(`users[${i}]: the token must be at least 8 characters without spaces.`);
    }
    if (seen.has(user.token)) throw new Error(`users[${i}]: the same token is given twice.`);
    seen.add(user.token);
    const bad = user.organizationIds.find((id): boolean => !isUuid(id));
    if (bad !== undefined) throw new Error(`users[${i}]: "${bad}" is not an organization UUID.`);
  }
}

/**
 * Makes the store's users match this start: the demo user keeps the token made on the store's
 * first start (so a data folder keeps working with the same token), the given users get their
 * tokens and memberships (organizations they name are created when missing), and tokens of users
 * from earlier starts stop working. Answers the demo user's token.
 */
export function syncUsers(db: SandboxDb, users: readonly SandboxUserOption[], nowMs: number): string {
  return db.transaction(() => {
    let demoToken = db.value("SELECT value FROM meta WHERE key = 'demo_token'");
    if (typeof demoToken !== 'string') {
      demoToken = generateToken();
      db.run("INSERT INTO meta (key, value) VALUES ('demo_token', ?)", [demoToken]);
    }
    const known = new Map(users.map((u) => [u, db.value('SELECT id FROM users WHERE token_hash = ?', [hashToken(u.token)])]));
    db.run('UPDATE users SET token_hash = NULL WHERE id != ?', [DEMO_USER_ID]);
    db.run('UPDATE users SET token_hash = ? WHERE id = ?', [hashToken(demoToken), DEMO_USER_ID]);
    for (const user of users) {
      let id = known.get(user);
      if (typeof id !== 'number') {
        const n = Number(db.value('SELECT COALESCE(MAX(id), 0) + 1 FROM users'));
        id = insertUser(db, { email: `user${n}@sandbox.example`, firstName: 'Sandbox', lastName: `User ${n}` });
      }
      const orgIds = user.organizationIds.map((o) => o.toLowerCase());
      for (const orgId of orgIds) ensureOrganization(db, orgId, `Organization ${orgId.slice(0, 8)}`, nowMs);
      setMemberships(db, id, orgIds);
      db.run('UPDATE users SET token_hash = ? WHERE id = ?', [hashToken(user.token), id]);
    }
    return demoToken;
  });
}
