import type { SandboxDb } from '../store/database';
import { ensureOrganization, insertUser, setMemberships } from '../users';

/** The demo organization every sandbox has (the demo user's). */
export const DEMO_ORGANIZATION_ID = '3f6c2a1e-8b4d-4c7a-9e15-6d2b8f0a4c91';
export const DEMO_ORGANIZATION_NAME = 'Acme Support';
/** A second organization (demo seed only) that the demo user does not belong to: proof of isolation. */
export const OTHER_ORGANIZATION_ID = '9d41b7e2-2c5f-4a83-b6e0-7f18c3a95d24';
export const OTHER_ORGANIZATION_NAME = 'Globex Logistics';
/** The demo user's id; it always exists. */
export const DEMO_USER_ID = 1;
const DEMO_PERSONAL_DATASET_ID = 'c0f3a9d2-41e7-4b5a-8d6c-2e9f7b1a3c58';

/** What every store starts with, whatever the seed: the demo organization, the demo user and their personal dataset. */
export function seedBase(db: SandboxDb, nowMs: number): void {
  ensureOrganization(db, DEMO_ORGANIZATION_ID, DEMO_ORGANIZATION_NAME, nowMs - 400 * 86_400_000);
  insertUser(db, { id: DEMO_USER_ID, email: 'dana.whitfield@acme-support.example', firstName: 'Dana', lastName: 'Whitfield' });
  setMemberships(db, DEMO_USER_ID, [DEMO_ORGANIZATION_ID]);
  db.run('INSERT INTO datasets (id, org_id, owner_user_id, name, created_ms, creator_id) VALUES (?, NULL, ?, ?, ?, ?)', [
    DEMO_PERSONAL_DATASET_ID, DEMO_USER_ID, 'Personal', nowMs - 90 * 86_400_000, DEMO_USER_ID,
  ]);
}
