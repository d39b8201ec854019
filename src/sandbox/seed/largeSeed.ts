import { agentSearchText } from '../agents/agentStore';
import type { InputDefinition } from '../agents/definitions';
import { ENGINES } from '../engines';
import { finishBulkJobs, insertJob, nextJobPk } from '../jobs/jobInsert';
import type { SandboxDb } from '../store/database';
import { DEMO_ORGANIZATION_ID } from './base';
import { type SeedAgent, finishedJob } from './demoJobs';
import type { SeededRandom } from './random';

export const LARGE_AGENT_COUNT = 10_000;
export const LARGE_JOB_COUNT = 100_000;
/** The agent that gets half of the large seed's jobs: the one to measure the jobs list on. */
export const BULK_AGENT_NAME = 'Bulk Transcript Reviewer';
const BULK_SHARE = 50_000;
const DAY = 86_400_000;

const TEAMS = ['EMEA', 'NA', 'APAC', 'LATAM', 'Retail', 'Enterprise', 'Partner', 'Night Shift'];
const PURPOSES = ['Call QA', 'Refund Review', 'Escalation Check', 'Invoice Sorting', 'Ticket Extraction', 'Tone Check', 'Churn Risk', 'Claims Intake'];
const TEXT_INPUT: InputDefinition = { key: 'ticket_text', data_type: 'text/plain', description: 'Text to review.', example: '', accepts_multiple_files: false };

/**
 * The `large` seed, on top of the demo: 10,000 more agents and 100,000 more jobs in the demo
 * organization, for benchmarks. Rows go in with cached prepared statements inside the store's
 * creation transaction, derived rows are written by one SQL statement each at the end, and indexes
 * are built once afterwards, which keeps this to seconds.
 */
export function seedLarge(db: SandboxDb, random: SeededRandom, nowMs: number, tagIds: readonly string[]): void {
  const agents: SeedAgent[] = [];
  for (let i = 0; i < LARGE_AGENT_COUNT; i++) agents.push(largeAgent(db, random, nowMs, i, tagIds));
  const firstPk = nextJobPk(db);
  for (let i = 0; i < LARGE_JOB_COUNT; i++) {
    const agent = i < BULK_SHARE ? agents[0]! : agents[random.int(1, agents.length - 1)]!;
    const createdMs = Math.round(nowMs - 3_600_000 - random.next() * 180 * DAY);
    insertJob(db, { ...finishedJob(random, agent, createdMs), id: random.uuid() }, { pk: firstPk + i });
  }
  finishBulkJobs(db, firstPk);
}

function largeAgent(db: SandboxDb, random: SeededRandom, nowMs: number, index: number, tagIds: readonly string[]): SeedAgent {
  const engine = random.pick(ENGINES);
  const name = index === 0 ? BULK_AGENT_NAME : `${random.pick(TEAMS)} ${random.pick(PURPOSES)} ${String(index).padStart(5, '0')}`;
  const id = random.uuid();
  const versionId = random.uuid();
  const createdMs = nowMs - 200 * DAY + random.int(0, 10 * DAY);
  const creatorId = random.int(1, 4);
  const search = agentSearchText({ id, name, engine_class_id: engine.id }, [], [versionId]);
  db.run(
    `INSERT INTO agents (id, org_id, name, description, engine_class_id, disable_cache, cache_failed_jobs, current_version_id,
       created_ms, updated_ms, creator_id, search_text) VALUES (?, ?, ?, '', ?, 0, 0, ?, ?, ?, ?, ?)`,
    [id, DEMO_ORGANIZATION_ID, name, engine.id, versionId, createdMs, createdMs, creatorId, search],
  );
  const agentPk = db.lastInsertId();
  db.run(
    `INSERT INTO agent_versions (id, agent_pk, version_name, description, input_definitions, engine_config, readonly, created_ms, creator_id)
     VALUES (?, ?, 'unnamed version', NULL, ?, ?, 0, ?, ?)`,
    [versionId, agentPk, JSON.stringify([TEXT_INPUT]), JSON.stringify({ model: 'gpt-4o-mini', temperature: '0.2' }), createdMs, creatorId],
  );
  const versionPk = db.lastInsertId();
  if (tagIds.length > 0 && random.chance(0.3)) db.run('INSERT INTO agent_tags (agent_pk, tag_id) VALUES (?, ?)', [agentPk, random.pick(tagIds)]);
  return {
    orgId: DEMO_ORGANIZATION_ID, agentPk, engine: engine.id, kind: 'ticket', userIds: [1, 2, 3, 4],
    reviewers: ['priya.raman@acme-support.example'], versions: [{ pk: versionPk, name: 'unnamed version', createdMs, inputs: [TEXT_INPUT] }],
  };
}
