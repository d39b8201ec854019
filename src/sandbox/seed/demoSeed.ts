import * as fs from 'node:fs';
import * as path from 'node:path';
import { JobStatus } from '../../core/jobStatus';
import { insertAgent, refreshAgentSearch } from '../agents/agentStore';
import { insertVersion } from '../agents/versionStore';
import { insertJob } from '../jobs/jobInsert';
import { insertPolicy, insertPolicyVersion } from '../policies/policyStore';
import type { SandboxDb } from '../store/database';
import { ensureOrganization, insertUser, setMemberships } from '../users';
import { DEMO_ORGANIZATION_ID, DEMO_USER_ID, OTHER_ORGANIZATION_ID, OTHER_ORGANIZATION_NAME } from './base';
import { DEMO_AGENTS, DEMO_TAGS, type DemoAgent, OTHER_AGENT } from './demoAgents';
import { DEMO_DATASETS, type DemoDataset, OTHER_DATASET, PERSONAL_FILES } from './demoFiles';
import { type SeedAgent, finishedJob, runningJob } from './demoJobs';
import { DEMO_POLICIES, type DemoPolicy, OTHER_POLICY } from './demoPolicies';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_AGENT_NAME, DEMO_LOOP_POLICY_ID, DEMO_LOOP_POLICY_VERSION_ID } from './demoLoop';
import { type SeededPolicy, historyOutcome, runningOutcome } from './demoOutcomes';
import type { SeededRandom } from './random';

const DEMO_LOOP_POLICY_KEY = 'call-quality';

const DAY = 86_400_000;
const ACME_USERS = [
  { id: 2, email: 'priya.raman@acme-support.example', firstName: 'Priya', lastName: 'Raman' },
  { id: 3, email: 'marcus.lee@acme-support.example', firstName: 'Marcus', lastName: 'Lee' },
  { id: 4, email: 'sofia.alvarez@acme-support.example', firstName: 'Sofia', lastName: 'Alvarez' },
];
const GLOBEX_USER = { id: 5, email: 'jonas.becker@globex.example', firstName: 'Jonas', lastName: 'Becker' };
/** Which jobs are still running in the demo: three PENDING, three STARTED, two RETRY, spread over the busiest agents. */
const RUNNING: readonly [number, number][] = [[0, JobStatus.PENDING], [0, JobStatus.STARTED], [0, JobStatus.RETRY], [1, JobStatus.PENDING], [1, JobStatus.STARTED], [3, JobStatus.PENDING], [3, JobStatus.STARTED], [3, JobStatus.RETRY]];

/** Everything the demo seed adds to a store (deterministic: the same ids and values on every run). */
export interface DemoSeedContext {
  db: SandboxDb;
  filesDir: string;
  random: SeededRandom;
  nowMs: number;
  stepMs: number;
}

/**
 * The demo seed: "Acme Support" with users, tags, four policies in several versions, seven agents
 * of three engines in several versions, several hundred jobs over all seven statuses (a few still
 * running), two datasets of real files plus a personal one; and "Globex Logistics" with a little
 * of everything, to show that organizations never see each other's data.
 */
export function seedDemo(ctx: DemoSeedContext): SeedAgent[] {
  const { db, nowMs } = ctx;
  for (const user of ACME_USERS) insertUser(db, user);
  for (const user of ACME_USERS) setMemberships(db, user.id, [DEMO_ORGANIZATION_ID]);
  ensureOrganization(db, OTHER_ORGANIZATION_ID, OTHER_ORGANIZATION_NAME, nowMs - 200 * DAY);
  insertUser(db, GLOBEX_USER);
  setMemberships(db, GLOBEX_USER.id, [OTHER_ORGANIZATION_ID]);
  const tagIds = seedTags(ctx);
  const acmePolicies = seedPolicies(ctx, DEMO_ORGANIZATION_ID, DEMO_POLICIES, [2, 3, 4]);
  const globexPolicies = seedPolicies(ctx, OTHER_ORGANIZATION_ID, [OTHER_POLICY], [GLOBEX_USER.id]);
  const acmeUsers = [DEMO_USER_ID, ...ACME_USERS.map((u) => u.id)];
  const reviewers = ACME_USERS.map((u) => u.email);
  const acmeAgents = DEMO_AGENTS.map((spec) => seedAgent(ctx, DEMO_ORGANIZATION_ID, spec, acmePolicies, tagIds, acmeUsers, reviewers));
  const globexAgent = seedAgent(ctx, OTHER_ORGANIZATION_ID, OTHER_AGENT, globexPolicies, new Map(), [GLOBEX_USER.id], [GLOBEX_USER.email]);
  [...DEMO_AGENTS, OTHER_AGENT].forEach((spec, i) => {
    const acme = i < DEMO_AGENTS.length;
    const policy = spec.policyKey ? (acme ? acmePolicies : globexPolicies).get(spec.policyKey) : undefined;
    seedJobs(ctx, acme ? acmeAgents[i]! : globexAgent, spec, policy);
  });
  for (const [index, status] of RUNNING) {
    const job = { ...runningJob(ctx.random, acmeAgents[index]!, nowMs, status, ctx.stepMs), id: ctx.random.uuid() };
    insertJob(db, { ...job, ...runningOutcome(db, job) });
  }
  for (const dataset of DEMO_DATASETS) seedDataset(ctx, DEMO_ORGANIZATION_ID, null, dataset);
  seedDataset(ctx, null, DEMO_USER_ID, { name: 'Personal', creator: DEMO_USER_ID, daysAgo: 90, files: PERSONAL_FILES });
  seedDataset(ctx, OTHER_ORGANIZATION_ID, null, OTHER_DATASET);
  return acmeAgents;
}

function seedTags(ctx: DemoSeedContext): Map<string, string> {
  const ids = new Map<string, string>();
  DEMO_TAGS.forEach(([name, color], i) => {
    const id = ctx.random.uuid();
    ids.set(name, id);
    ctx.db.run('INSERT INTO tags (id, org_id, name, color, created_ms, creator_id) VALUES (?, ?, ?, ?, ?, ?)', [
      id, DEMO_ORGANIZATION_ID, name, color, ctx.nowMs - (150 - i) * DAY, 2,
    ]);
  });
  return ids;
}

function seedPolicies(ctx: DemoSeedContext, orgId: string, policies: DemoPolicy[], authors: number[]): Map<string, SeededPolicy> {
  const seeded = new Map<string, SeededPolicy>();
  policies.forEach((policy, p) => {
    // The random id is drawn all the same, so that everything seeded after it stays as it was.
    const drawn = ctx.random.uuid();
    const id = policy.key === DEMO_LOOP_POLICY_KEY ? DEMO_LOOP_POLICY_ID : drawn;
    const versions: SeededPolicy['versions'] = [];
    seeded.set(policy.key, { id, name: policy.name, versions });
    const start = ctx.nowMs - (95 - p * 7) * DAY;
    const pk = insertPolicy(ctx.db, { id, orgId, name: policy.name, description: policy.description, creatorId: authors[0]!, createdMs: start });
    let base: string | null = null;
    policy.versions.forEach((version, v) => {
      const versionName = version.versionName ?? `version ${v + 1}`;
      const createdMs = start + v * ctx.random.int(12, 25) * DAY;
      // The loop policy's current version is fixed like its id (agent-workbench init names it); the id is drawn all the same.
      const drawnVersion = ctx.random.uuid();
      const versionId = id === DEMO_LOOP_POLICY_ID && v === policy.versions.length - 1 ? DEMO_LOOP_POLICY_VERSION_ID : drawnVersion;
      base = insertPolicyVersion(ctx.db, {
        id: versionId, policyPk: pk, versionName, content: version.content, baseVersionId: base, creatorId: authors[v % authors.length]!, createdMs,
      });
      versions.push({ id: base, name: versionName, content: version.content, createdMs });
    });
  });
  return seeded;
}

function seedAgent(
  ctx: DemoSeedContext, orgId: string, spec: DemoAgent, policies: Map<string, SeededPolicy>, tagIds: Map<string, string>, userIds: number[], reviewers: string[],
): SeedAgent {
  const { db } = ctx;
  const first = ctx.nowMs - spec.versions[0]!.daysAgo * DAY;
  const drawn = ctx.random.uuid();
  const pk = insertAgent(db, {
    id: orgId === DEMO_ORGANIZATION_ID && spec.name === DEMO_LOOP_AGENT_NAME ? DEMO_LOOP_AGENT_ID : drawn, orgId, name: spec.name, description: spec.description, engineClassId: spec.engine,
    disableCache: spec.disableCache ?? false, cacheFailedJobs: spec.cacheFailedJobs ?? false, creatorId: spec.creator, createdMs: first,
  });
  for (const tag of spec.tags) {
    const tagId = tagIds.get(tag);
    if (tagId) db.run('INSERT INTO agent_tags (agent_pk, tag_id) VALUES (?, ?)', [pk, tagId]);
  }
  const policyId = spec.policyKey ? policies.get(spec.policyKey)?.id ?? '' : '';
  const versions = spec.versions.map((v) => {
    const createdMs = ctx.nowMs - v.daysAgo * DAY;
    const config = Object.fromEntries(Object.entries(v.config).map(([k, value]) => [k, value.replace('{policy}', policyId)]));
    const versionName = v.versionName ?? 'unnamed version';
    const id = insertVersion(db, {
      id: ctx.random.uuid(), agentPk: pk, versionName, description: v.description ?? null, inputDefinitions: v.inputs, engineConfig: config,
      creatorId: spec.creator, createdMs,
    });
    return { pk: Number(db.value('SELECT pk FROM agent_versions WHERE id = ?', [id])), name: versionName, createdMs, inputs: v.inputs };
  });
  refreshAgentSearch(db, pk);
  return { orgId, agentPk: pk, engine: spec.engine, kind: spec.kind, versions, userIds, reviewers };
}

function seedJobs(ctx: DemoSeedContext, agent: SeedAgent, spec: DemoAgent, policy: SeededPolicy | undefined): void {
  const first = agent.versions[0]!.createdMs;
  const span = ctx.nowMs - 10 * 60_000 - first;
  const about = { id: String(ctx.db.value('SELECT id FROM agents WHERE pk = ?', [agent.agentPk])), name: spec.name, engine: spec.engine };
  for (let i = 0; i < spec.jobs; i++) {
    // Skewed towards recent days, as real usage grows after a rollout.
    const createdMs = Math.round(ctx.nowMs - 10 * 60_000 - span * ctx.random.next() ** 1.7);
    const job = { ...finishedJob(ctx.random, agent, createdMs), id: ctx.random.uuid() };
    insertJob(ctx.db, { ...job, ...historyOutcome(policy, about, job) });
  }
}

function seedDataset(ctx: DemoSeedContext, orgId: string | null, ownerId: number | null, dataset: DemoDataset): void {
  const { db } = ctx;
  let pk = ownerId !== null ? db.value('SELECT pk FROM datasets WHERE owner_user_id = ? AND org_id IS NULL', [ownerId]) : undefined;
  const createdMs = ctx.nowMs - dataset.daysAgo * DAY;
  if (typeof pk !== 'number') {
    db.run('INSERT INTO datasets (id, org_id, owner_user_id, name, created_ms, creator_id) VALUES (?, ?, ?, ?, ?, ?)', [
      ctx.random.uuid(), orgId, ownerId, dataset.name, createdMs, dataset.creator,
    ]);
    pk = db.lastInsertId();
  }
  dataset.files.forEach((file, i) => {
    const storageName = ctx.random.uuid();
    fs.writeFileSync(path.join(ctx.filesDir, storageName), file.bytes);
    db.run('INSERT INTO dataset_files (id, dataset_pk, name, size, storage_name, metadata, created_ms, creator_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
      ctx.random.uuid(), pk, file.name, file.bytes.length, storageName, file.metadata ? JSON.stringify(file.metadata) : null, createdMs + i * 3_600_000, dataset.creator,
    ]);
  });
}

