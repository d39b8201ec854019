import { engineName, engineSupportsEval } from '../engines';
import type { SandboxDb } from '../store/database';
import { CREATOR_COLUMNS, creatorObject } from '../users';
import { iso, newId, parseJson } from '../util';
import { type AgentRow, loadBaseAgentObject } from './agentStore';
import type { InputDefinition } from './definitions';

/** The text an agent version gets when it is created without a name. */
export const DEFAULT_AGENT_VERSION_NAME = 'unnamed version';

/** An agent version row with its creator columns. */
export interface VersionRow {
  pk: number;
  id: string;
  agent_pk: number;
  version_name: string;
  description: string | null;
  input_definitions: string;
  engine_config: string;
  readonly: number;
  created_ms: number;
  u_id: number | null;
  u_email: string | null;
  u_first: string | null;
  u_last: string | null;
  u_active: number | null;
}

const VERSION_SELECT = `SELECT v.pk, v.id, v.agent_pk, v.version_name, v.description, v.input_definitions, v.engine_config,
  v.readonly, v.created_ms, ${CREATOR_COLUMNS} FROM agent_versions v LEFT JOIN users u ON u.id = v.creator_id`;

/** One version of an agent, or undefined. */
export function findVersion(db: SandboxDb, agentPk: number, versionId: string): VersionRow | undefined {
  return db.get<VersionRow>(`${VERSION_SELECT} WHERE v.agent_pk = ? AND v.id = ?`, [agentPk, versionId]);
}

/** All versions of an agent, newest first. */
export function listVersions(db: SandboxDb, agentPk: number): VersionRow[] {
  return db.all<VersionRow>(`${VERSION_SELECT} WHERE v.agent_pk = ? ORDER BY v.created_ms DESC, v.pk DESC`, [agentPk]);
}

/** The input definitions of a version. */
export function definitionsOf(version: Pick<VersionRow, 'input_definitions'>): InputDefinition[] {
  return parseJson<InputDefinition[]>(version.input_definitions) ?? [];
}

/**
 * The agent version object: its fields, the engine taken from the base agent, and the base agent
 * itself. `supports_eval` appears only when asked for (`get_supports_eval`).
 */
export function versionObject(
  version: VersionRow,
  agent: AgentRow,
  baseAgent: Record<string, unknown>,
  options: { supportsEval?: boolean } = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: version.id,
    name: agent.name,
    version_name: version.version_name,
    // A string in the live description: a version without one answers "" (never null).
    description: version.description ?? '',
    created_at: iso(version.created_ms),
    engine_class_id: agent.engine_class_id,
    engine_name: engineName(agent.engine_class_id),
    input_definitions: definitionsOf(version),
    engine_config: parseJson(version.engine_config) ?? {},
    organization_id: agent.org_id,
    readonly: version.readonly === 1,
    is_current: agent.current_version_id === version.id,
    base_agent: baseAgent,
    creator: creatorObject(version),
  };
  if (options.supportsEval) body.supports_eval = engineSupportsEval(agent.engine_class_id);
  return body;
}

/** The version object, reading the base agent (with its tags) for it. */
export function loadVersionObject(db: SandboxDb, version: VersionRow, agent: AgentRow, options: { supportsEval?: boolean } = {}): Record<string, unknown> {
  return versionObject(version, agent, loadBaseAgentObject(db, agent), options);
}

/** What a new agent version is made of. */
export interface NewVersion {
  id?: string;
  agentPk: number;
  versionName: string;
  description: string | null;
  inputDefinitions: InputDefinition[];
  engineConfig: Record<string, string>;
  creatorId: number | null;
  createdMs: number;
  readonly?: boolean;
}

/** Inserts a version and makes it the agent's current version; answers its id. */
export function insertVersion(db: SandboxDb, version: NewVersion): string {
  const id = version.id ?? newId();
  db.run(
    `INSERT INTO agent_versions (id, agent_pk, version_name, description, input_definitions, engine_config, readonly, created_ms, creator_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [id, version.agentPk, version.versionName, version.description, JSON.stringify(version.inputDefinitions),
      JSON.stringify(version.engineConfig), version.readonly ? 1 : 0, version.createdMs, version.creatorId],
  );
  db.run('UPDATE agents SET current_version_id = ?, updated_ms = ? WHERE pk = ?', [id, version.createdMs, version.agentPk]);
  return id;
}
