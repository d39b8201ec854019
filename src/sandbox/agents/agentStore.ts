import { engineName } from '../engines';
import type { SandboxDb } from '../store/database';
import { CREATOR_COLUMNS, creatorObject } from '../users';
import { iso, newId, placeholders, searchText } from '../util';

/** A base agent row with its creator columns (see {@link AGENT_SELECT}). */
export interface AgentRow {
  pk: number;
  id: string;
  org_id: string;
  name: string;
  description: string | null;
  engine_class_id: string;
  disable_cache: number;
  cache_failed_jobs: number;
  current_version_id: string | null;
  created_ms: number;
  updated_ms: number;
  job_count: number;
  most_recent_ms: number | null;
  u_id: number | null;
  u_email: string | null;
  u_first: string | null;
  u_last: string | null;
  u_active: number | null;
}

export const AGENT_COLUMNS = `a.pk, a.id, a.org_id, a.name, a.description, a.engine_class_id, a.disable_cache,
  a.cache_failed_jobs, a.current_version_id, a.created_ms, a.updated_ms, a.job_count, a.most_recent_ms, ${CREATOR_COLUMNS}`;
export const AGENT_FROM = 'agents a LEFT JOIN users u ON u.id = a.creator_id';
export const AGENT_SELECT = `SELECT ${AGENT_COLUMNS} FROM ${AGENT_FROM}`;

/** The base agent of an organization, or undefined (another organization's agent is never found). */
export function findAgent(db: SandboxDb, orgId: string, agentId: string): AgentRow | undefined {
  return db.get<AgentRow>(`${AGENT_SELECT} WHERE a.id = ? AND a.org_id = ?`, [agentId, orgId]);
}

/** The tag objects of several agents at once, by agent pk (the live service's tag shape). */
export function tagsOfAgents(db: SandboxDb, agentPks: readonly number[]): Map<number, Record<string, unknown>[]> {
  const byAgent = new Map<number, Record<string, unknown>[]>();
  if (agentPks.length === 0) return byAgent;
  const rows = db.all<Record<string, unknown> & { agent_pk: number }>(
    `SELECT at.agent_pk, t.id, t.name, t.color, t.created_ms, t.creator_id,
       (SELECT COUNT(*) FROM agent_tags x WHERE x.tag_id = t.id) AS usage_count
     FROM agent_tags at JOIN tags t ON t.id = at.tag_id
     WHERE at.agent_pk IN (${placeholders(agentPks.length)}) ORDER BY t.name`,
    [...agentPks],
  );
  for (const row of rows) {
    // A tag's creator is the user's integer id (or null), not a user object (AgentTag in the live description).
    const tag = { id: row.id, name: row.name, color: row.color, created_at: iso(row.created_ms as number), creator: row.creator_id ?? null, usage_count: row.usage_count };
    const list = byAgent.get(row.agent_pk) ?? [];
    list.push(tag);
    byAgent.set(row.agent_pk, list);
  }
  return byAgent;
}

/** The base agent object; job statistics are null when they were not asked for. */
export function baseAgentObject(row: AgentRow, tags: Record<string, unknown>[], withJobStats = true): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? '',
    created_at: iso(row.created_ms),
    updated_at: iso(row.updated_ms),
    disable_cache: row.disable_cache === 1,
    cache_failed_jobs: row.cache_failed_jobs === 1,
    organization_id: row.org_id,
    engine_class_id: row.engine_class_id,
    engine_name: engineName(row.engine_class_id),
    current_version_id: row.current_version_id,
    job_count: withJobStats ? row.job_count : null,
    most_recent_job: withJobStats ? iso(row.most_recent_ms) : null,
    tags,
    creator: creatorObject(row),
  };
}

/** One base agent object, read with its tags. */
export function loadBaseAgentObject(db: SandboxDb, row: AgentRow): Record<string, unknown> {
  return baseAgentObject(row, tagsOfAgents(db, [row.pk]).get(row.pk) ?? []);
}

/** What a new base agent is made of. */
export interface NewAgent {
  id?: string;
  orgId: string;
  name: string;
  description: string;
  engineClassId: string;
  disableCache: boolean;
  cacheFailedJobs: boolean;
  creatorId: number | null;
  createdMs: number;
}

/** Inserts a base agent (without versions) and answers its pk. */
export function insertAgent(db: SandboxDb, agent: NewAgent): number {
  const id = agent.id ?? newId();
  db.run(
    `INSERT INTO agents (id, org_id, name, description, engine_class_id, disable_cache, cache_failed_jobs,
       current_version_id, created_ms, updated_ms, creator_id, search_text) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, '')`,
    [id, agent.orgId, agent.name, agent.description, agent.engineClassId, agent.disableCache ? 1 : 0, agent.cacheFailedJobs ? 1 : 0,
      agent.createdMs, agent.createdMs, agent.creatorId],
  );
  return db.lastInsertId();
}

/**
 * Rebuilds an agent's search text: what the list's `search` matches (name, id, engine, creator,
 * tags and version ids, case-insensitively), kept in one column so a search is one LIKE.
 */
export function refreshAgentSearch(db: SandboxDb, agentPk: number): void {
  const agent = db.get<{ id: string; name: string; engine_class_id: string; u_first: string | null; u_last: string | null; u_email: string | null }>(
    `SELECT a.id, a.name, a.engine_class_id, u.first_name AS u_first, u.last_name AS u_last, u.email AS u_email
     FROM agents a LEFT JOIN users u ON u.id = a.creator_id WHERE a.pk = ?`,
    [agentPk],
  );
  if (!agent) return;
  const tags = db.all<{ name: string }>('SELECT t.name FROM agent_tags at JOIN tags t ON t.id = at.tag_id WHERE at.agent_pk = ?', [agentPk]);
  const versions = db.all<{ id: string }>('SELECT id FROM agent_versions WHERE agent_pk = ?', [agentPk]);
  const text = agentSearchText(agent, tags.map((t) => t.name), versions.map((v) => v.id));
  db.run('UPDATE agents SET search_text = ? WHERE pk = ?', [text, agentPk]);
}

/** The search text of an agent from its parts (also used by the bulk seed). */
export function agentSearchText(
  agent: { id: string; name: string; engine_class_id: string; u_first?: string | null; u_last?: string | null; u_email?: string | null },
  tagNames: readonly string[],
  versionIds: readonly string[],
): string {
  const creator = [agent.u_first, agent.u_last].filter(Boolean).join(' ');
  return searchText([agent.name, agent.id, agent.engine_class_id, engineName(agent.engine_class_id), creator, agent.u_email, ...tagNames, ...versionIds]);
}
