import type { SandboxDb } from '../store/database';
import { CREATOR_COLUMNS, createdByObject } from '../users';
import { iso, newId, parseJson } from '../util';

/** A policy row. */
export interface PolicyRow {
  pk: number;
  id: string;
  org_id: string;
  name: string;
  description: string;
  current_version_id: string | null;
  created_ms: number;
  updated_ms: number;
}

/** A policy version row with its creator columns. */
export interface PolicyVersionRow {
  pk: number;
  id: string;
  policy_pk: number;
  version_name: string;
  content: string;
  base_version_id: string | null;
  created_ms: number;
  updated_ms: number;
  u_id: number | null;
  u_email: string | null;
  u_first: string | null;
  u_last: string | null;
  u_active: number | null;
}

export const POLICY_SELECT = 'SELECT pk, id, org_id, name, description, current_version_id, created_ms, updated_ms FROM policies p';
export const POLICY_VERSION_SELECT = `SELECT pv.pk, pv.id, pv.policy_pk, pv.version_name, pv.content, pv.base_version_id, pv.created_ms,
  pv.updated_ms, ${CREATOR_COLUMNS} FROM policy_versions pv LEFT JOIN users u ON u.id = pv.creator_id`;

/** A policy of the organization, or undefined. */
export function findPolicy(db: SandboxDb, orgId: string, policyId: string): PolicyRow | undefined {
  return db.get<PolicyRow>(`${POLICY_SELECT} WHERE p.id = ? AND p.org_id = ?`, [policyId, orgId]);
}

/** A version of the policy, or undefined. */
export function findPolicyVersion(db: SandboxDb, policyPk: number, versionId: string): PolicyVersionRow | undefined {
  return db.get<PolicyVersionRow>(`${POLICY_VERSION_SELECT} WHERE pv.policy_pk = ? AND pv.id = ?`, [policyPk, versionId]);
}

/** The policy object (docs/service.md, Shapes: id, name, description, organization_id, current_version_id, times). */
export function policyObject(row: PolicyRow): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    organization_id: row.org_id,
    current_version_id: row.current_version_id,
    created_at: iso(row.created_ms),
    updated_at: iso(row.updated_ms),
  };
}

/** The policy version object as list/get (and create) answer it, with its parent policy. */
export function policyVersionObject(version: PolicyVersionRow, policy: PolicyRow): Record<string, unknown> {
  return {
    id: version.id,
    version_name: version.version_name,
    content: parseJson(version.content),
    base_version_id: version.base_version_id,
    created_at: iso(version.created_ms),
    updated_at: iso(version.updated_ms),
    created_by: createdByObject(version),
    is_current: policy.current_version_id === version.id,
    policy: policyObject(policy),
  };
}

/** Inserts a policy (without versions); answers its pk. */
export function insertPolicy(
  db: SandboxDb,
  policy: { id?: string; orgId: string; name: string; description: string; creatorId: number | null; createdMs: number },
): number {
  db.run(
    'INSERT INTO policies (id, org_id, name, description, current_version_id, created_ms, updated_ms, creator_id) VALUES (?, ?, ?, ?, NULL, ?, ?, ?)',
    [policy.id ?? newId(), policy.orgId, policy.name, policy.description, policy.createdMs, policy.createdMs, policy.creatorId],
  );
  return db.lastInsertId();
}

/** Inserts a version and makes it the policy's current version (earlier versions stay as they are); answers its id. */
export function insertPolicyVersion(
  db: SandboxDb,
  version: { id?: string; policyPk: number; versionName: string; content: unknown; baseVersionId: string | null; creatorId: number | null; createdMs: number },
): string {
  const id = version.id ?? newId();
  db.run(
    `INSERT INTO policy_versions (id, policy_pk, version_name, content, base_version_id, created_ms, updated_ms, creator_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [id, version.policyPk, version.versionName, JSON.stringify(version.content), version.baseVersionId, version.createdMs, version.createdMs, version.creatorId],
  );
  db.run('UPDATE policies SET current_version_id = ?, updated_ms = ? WHERE pk = ?', [id, version.createdMs, version.policyPk]);
  return id;
}

/** An agent version that applies a policy, as the 409 of deleting that policy lists it. */
export interface DependentAgent {
  base_agent_id: string;
  agent_name: string;
  version_id: string;
  version_name: string;
}

/** Every agent version of the organization whose `engine_config` names the policy, by agent name and then newest version first. */
export function agentsUsingPolicy(db: SandboxDb, orgId: string, policyId: string): DependentAgent[] {
  const wanted = normalPolicyId(policyId);
  const rows = db.all<{ id: string; name: string; version_id: string; version_name: string; engine_config: string }>(
    `SELECT a.id, a.name, v.id AS version_id, v.version_name, v.engine_config FROM agents a JOIN agent_versions v ON v.agent_pk = a.pk
     WHERE a.org_id = ? AND v.engine_config LIKE ? ORDER BY a.name, v.created_ms DESC, v.pk DESC`,
    [orgId, `%${wanted}%`],
  );
  return rows
    .filter((r) => policyIdOf(parseJson(r.engine_config)) === wanted)
    .map((r) => ({ base_agent_id: r.id, agent_name: r.name, version_id: r.version_id, version_name: r.version_name }));
}

/** A policy id as compared everywhere: trimmed, lower case (ids are UUIDs; a config may carry spaces). */
export function normalPolicyId(id: string): string {
  return id.trim().toLowerCase();
}

/** The policy an engine config names in `policy_id`, normalised; '' when it names none. The engine and the dependency check both read it here. */
export function policyIdOf(engineConfig: unknown): string {
  if (typeof engineConfig !== 'object' || engineConfig === null) return '';
  const id = (engineConfig as Record<string, unknown>).policy_id;
  return typeof id === 'string' ? normalPolicyId(id) : '';
}
