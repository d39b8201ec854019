/**
 * The sandbox's tables. Times are epoch milliseconds (integers index and compare fast); JSON
 * columns hold what the API returns as nested objects. A job's searchable text lives in `job_text`,
 * clustered by agent, so that a search reads one agent's text and nothing else. Indexes are separate so that a bulk seed
 * can insert first and index once (much faster than maintaining ten indexes row by row).
 */
export const SCHEMA_VERSION = 1;

/**
 * Columns added in later releases of the same schema version, added to older stores on open: a job's
 * engine outcome (`result`, JSON) and its cache key part from the policy it was judged by (`engine_key`).
 */
export const ADDED_COLUMNS: readonly (readonly [table: string, column: string, type: string])[] = [
  ['jobs', 'result', 'TEXT'],
  ['jobs', 'engine_key', 'TEXT'],
];

export const TABLES_SQL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS organizations (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS users (
  id INTEGER PRIMARY KEY, email TEXT NOT NULL, first_name TEXT NOT NULL, last_name TEXT NOT NULL,
  is_active INTEGER NOT NULL DEFAULT 1, token_hash TEXT);
CREATE TABLE IF NOT EXISTS memberships (user_id INTEGER NOT NULL, org_id TEXT NOT NULL, PRIMARY KEY (user_id, org_id));
CREATE TABLE IF NOT EXISTS tags (
  id TEXT PRIMARY KEY, org_id TEXT NOT NULL, name TEXT NOT NULL, color TEXT NOT NULL,
  created_ms INTEGER NOT NULL, creator_id INTEGER);
CREATE TABLE IF NOT EXISTS agents (
  pk INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, org_id TEXT NOT NULL, name TEXT NOT NULL, description TEXT,
  engine_class_id TEXT NOT NULL, disable_cache INTEGER NOT NULL, cache_failed_jobs INTEGER NOT NULL,
  current_version_id TEXT, created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL, creator_id INTEGER,
  job_count INTEGER NOT NULL DEFAULT 0, most_recent_ms INTEGER, search_text TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS agent_tags (agent_pk INTEGER NOT NULL, tag_id TEXT NOT NULL, PRIMARY KEY (agent_pk, tag_id));
CREATE TABLE IF NOT EXISTS agent_versions (
  pk INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, agent_pk INTEGER NOT NULL, version_name TEXT NOT NULL,
  description TEXT, input_definitions TEXT NOT NULL, engine_config TEXT NOT NULL, readonly INTEGER NOT NULL DEFAULT 0,
  created_ms INTEGER NOT NULL, creator_id INTEGER);
CREATE TABLE IF NOT EXISTS jobs (
  pk INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, org_id TEXT NOT NULL, agent_pk INTEGER NOT NULL,
  version_pk INTEGER NOT NULL, agent_version_name TEXT, status_code INTEGER NOT NULL,
  created_ms INTEGER NOT NULL, last_updated_ms INTEGER NOT NULL, cost REAL, duration_ms INTEGER,
  grader_score REAL, verdict TEXT, inputs TEXT NOT NULL, inputs_hash TEXT NOT NULL, metadata TEXT NOT NULL,
  evaluation TEXT, feedback_review TEXT, events TEXT NOT NULL, creator_id INTEGER, plan TEXT, next_step_ms INTEGER,
  result TEXT, engine_key TEXT);
CREATE TABLE IF NOT EXISTS job_metadata (agent_pk INTEGER NOT NULL, job_pk INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS job_text (
  agent_pk INTEGER NOT NULL, job_pk INTEGER NOT NULL, text TEXT NOT NULL, PRIMARY KEY (agent_pk, job_pk)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS policies (
  pk INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, org_id TEXT NOT NULL, name TEXT NOT NULL, description TEXT NOT NULL,
  current_version_id TEXT, created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL, creator_id INTEGER);
CREATE TABLE IF NOT EXISTS policy_versions (
  pk INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, policy_pk INTEGER NOT NULL, version_name TEXT NOT NULL,
  content TEXT NOT NULL, base_version_id TEXT, created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL, creator_id INTEGER);
CREATE TABLE IF NOT EXISTS datasets (
  pk INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, org_id TEXT, owner_user_id INTEGER, name TEXT NOT NULL,
  created_ms INTEGER NOT NULL, creator_id INTEGER);
CREATE TABLE IF NOT EXISTS dataset_files (
  pk INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, dataset_pk INTEGER NOT NULL, name TEXT NOT NULL,
  size INTEGER NOT NULL, storage_name TEXT NOT NULL UNIQUE, metadata TEXT, created_ms INTEGER NOT NULL, creator_id INTEGER);
CREATE TABLE IF NOT EXISTS query_tasks (
  id TEXT PRIMARY KEY, org_id TEXT NOT NULL, user_id INTEGER NOT NULL, sql TEXT NOT NULL, status TEXT NOT NULL,
  results TEXT, error TEXT, created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL);
`;

/**
 * Indexes, designed for the hot lists: jobs of one agent filtered by status and ordered by any
 * documented field (each ordering has its own (agent, field) index so a page is an index walk, not
 * a sort of the agent's whole history), agents of one organization by each ordering, and the
 * lifecycle timer's due jobs (a partial index holding only jobs still moving).
 */
export const INDEXES_SQL = `
CREATE INDEX IF NOT EXISTS users_token ON users(token_hash) WHERE token_hash IS NOT NULL;
CREATE INDEX IF NOT EXISTS tags_org ON tags(org_id, name);
CREATE INDEX IF NOT EXISTS agents_org_created ON agents(org_id, created_ms);
CREATE INDEX IF NOT EXISTS agents_org_updated ON agents(org_id, updated_ms);
CREATE INDEX IF NOT EXISTS agents_org_name ON agents(org_id, name COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS agents_org_engine ON agents(org_id, engine_class_id);
CREATE INDEX IF NOT EXISTS agents_org_job_count ON agents(org_id, job_count);
CREATE INDEX IF NOT EXISTS agents_org_recent ON agents(org_id, most_recent_ms);
CREATE INDEX IF NOT EXISTS agent_tags_tag ON agent_tags(tag_id, agent_pk);
CREATE INDEX IF NOT EXISTS agent_versions_agent ON agent_versions(agent_pk, created_ms);
CREATE INDEX IF NOT EXISTS jobs_agent_created ON jobs(agent_pk, created_ms);
CREATE INDEX IF NOT EXISTS jobs_agent_status_created ON jobs(agent_pk, status_code, created_ms);
CREATE INDEX IF NOT EXISTS jobs_agent_updated ON jobs(agent_pk, last_updated_ms);
CREATE INDEX IF NOT EXISTS jobs_agent_cost ON jobs(agent_pk, cost);
CREATE INDEX IF NOT EXISTS jobs_agent_duration ON jobs(agent_pk, duration_ms);
CREATE INDEX IF NOT EXISTS jobs_agent_score ON jobs(agent_pk, grader_score);
CREATE INDEX IF NOT EXISTS jobs_agent_version_name ON jobs(agent_pk, agent_version_name);
CREATE INDEX IF NOT EXISTS jobs_agent_id ON jobs(agent_pk, id);
CREATE INDEX IF NOT EXISTS jobs_due ON jobs(next_step_ms) WHERE next_step_ms IS NOT NULL;
CREATE INDEX IF NOT EXISTS jobs_cache ON jobs(version_pk, inputs_hash, status_code);
CREATE INDEX IF NOT EXISTS job_metadata_kv ON job_metadata(agent_pk, key, value, job_pk);
CREATE INDEX IF NOT EXISTS policies_org ON policies(org_id, name);
CREATE INDEX IF NOT EXISTS policy_versions_policy ON policy_versions(policy_pk, created_ms);
CREATE INDEX IF NOT EXISTS datasets_org ON datasets(org_id);
CREATE INDEX IF NOT EXISTS datasets_owner ON datasets(owner_user_id);
CREATE INDEX IF NOT EXISTS dataset_files_dataset ON dataset_files(dataset_pk, created_ms);
CREATE INDEX IF NOT EXISTS query_tasks_org ON query_tasks(org_id, created_ms);
`;
