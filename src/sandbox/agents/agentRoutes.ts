import { found, requireOrganization } from '../access';
import { type Handler, ok } from '../context';
import { readJsonObject } from '../http/body';
import { BodyFields } from '../http/fields';
import type { Router } from '../http/router';
import { parseJson } from '../util';
import { listAgents } from './agentList';
import { findAgent, insertAgent, loadBaseAgentObject, refreshAgentSearch } from './agentStore';
import { readEngineConfig, readInputDefinitions } from './definitions';
import { DEFAULT_AGENT_VERSION_NAME, definitionsOf, findVersion, insertVersion, loadVersionObject } from './versionStore';

const NAME_MAX = 200;
const DESCRIPTION_MAX = 5000;
const VERSION_NAME_MAX = 255;
/** An engine class id is a name, never a path: no slashes, no `..`. */
const ENGINE_CLASS_ID = /^[A-Za-z][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/;

const list: Handler = (ctx) => ok(listAgents(ctx, requireOrganization(ctx)));

const get: Handler = (ctx) => {
  const orgId = requireOrganization(ctx);
  const agent = found(findAgent(ctx.app.db, orgId, ctx.params.agent_id!));
  return ok(loadBaseAgentObject(ctx.app.db, agent));
};

/** POST /v1/agents/: a base agent with its first version (201). */
const create: Handler = async (ctx) => {
  const body = await readJsonObject(ctx.req, ctx.app.limits.jsonBytes);
  const orgId = requireOrganization(ctx, body.organization_id);
  const f = new BodyFields(body);
  const name = f.string('name', { required: true, max: NAME_MAX });
  const engineClassId = f.string('engine_class_id', { required: true, max: 200 });
  if (typeof engineClassId === 'string' && !ENGINE_CLASS_ID.test(engineClassId)) {
    f.fail('engine_class_id', 'Enter a valid engine class id: a letter, then letters, digits, "_", "-" or single dots.');
  }
  const description = f.string('description', { nullable: true, allowBlank: true, max: DESCRIPTION_MAX });
  const disableCache = f.boolean('disable_cache');
  const cacheFailedJobs = f.boolean('cache_failed_jobs');
  const versionName = f.string('version_name', { max: VERSION_NAME_MAX });
  const versionDescription = f.string('version_description', { nullable: true, allowBlank: true, max: DESCRIPTION_MAX });
  const inputDefinitions = readInputDefinitions(f, false);
  const engineConfig = readEngineConfig(f, false);
  f.finish();
  const { db } = ctx.app;
  const now = ctx.app.now();
  const agent = db.transaction(() => {
    const pk = insertAgent(db, {
      orgId, name: name!, description: description ?? '', engineClassId: engineClassId!, disableCache: disableCache ?? false,
      cacheFailedJobs: cacheFailedJobs ?? false, creatorId: ctx.user.id, createdMs: now,
    });
    insertVersion(db, {
      agentPk: pk, versionName: versionName ?? DEFAULT_AGENT_VERSION_NAME, description: versionDescription ?? null,
      inputDefinitions: inputDefinitions ?? [], engineConfig: engineConfig ?? {}, creatorId: ctx.user.id, createdMs: now,
    });
    refreshAgentSearch(db, pk);
    return db.get<{ id: string }>('SELECT id FROM agents WHERE pk = ?', [pk])!;
  });
  return ok(loadBaseAgentObject(db, findAgent(db, orgId, agent.id)!), 201);
};

/** PUT/PATCH /v1/agents/{agent_id}/: name, description and cache flags; absent fields stay. */
const update: Handler = async (ctx) => {
  const body = await readJsonObject(ctx.req, ctx.app.limits.jsonBytes);
  const orgId = requireOrganization(ctx, body.organization_id);
  const { db } = ctx.app;
  const agent = found(findAgent(db, orgId, ctx.params.agent_id!));
  const f = new BodyFields(body);
  const name = f.string('name', { max: NAME_MAX, min: 1 });
  const description = f.string('description', { nullable: true, allowBlank: true, max: DESCRIPTION_MAX });
  const disableCache = f.boolean('disable_cache');
  const cacheFailedJobs = f.boolean('cache_failed_jobs');
  f.finish();
  db.transaction(() => {
    db.run(
      `UPDATE agents SET name = ?, description = ?, disable_cache = ?, cache_failed_jobs = ?, updated_ms = ? WHERE pk = ?`,
      [name ?? agent.name, description === undefined ? agent.description : (description ?? ''),
        disableCache === undefined ? agent.disable_cache : Number(disableCache),
        cacheFailedJobs === undefined ? agent.cache_failed_jobs : Number(cacheFailedJobs), ctx.app.now(), agent.pk],
    );
    refreshAgentSearch(db, agent.pk);
  });
  return ok(loadBaseAgentObject(db, findAgent(db, orgId, agent.id)!));
};

/**
 * POST /v1/agents/{agent_id}/duplicate/ (no body): a new base agent "Copy of <name>" (same engine,
 * settings and tags) whose first version copies the source's current version; answers 201 with that
 * agent version. The client renames the copy right after.
 */
const duplicate: Handler = (ctx) => {
  // The live service declares no request body here: a body is not read, and a name in it is not used.
  ctx.req.resume();
  const orgId = requireOrganization(ctx, undefined);
  const { db } = ctx.app;
  const source = found(findAgent(db, orgId, ctx.params.agent_id!));
  const name = `Copy of ${source.name}`.slice(0, NAME_MAX);
  const now = ctx.app.now();
  const current = source.current_version_id ? findVersion(db, source.pk, source.current_version_id) : undefined;
  const copy = db.transaction(() => {
    const pk = insertAgent(db, {
      orgId, name, description: source.description ?? '', engineClassId: source.engine_class_id,
      disableCache: source.disable_cache === 1, cacheFailedJobs: source.cache_failed_jobs === 1, creatorId: ctx.user.id, createdMs: now,
    });
    db.run('INSERT INTO agent_tags (agent_pk, tag_id) SELECT ?, tag_id FROM agent_tags WHERE agent_pk = ?', [pk, source.pk]);
    const versionId = insertVersion(db, {
      agentPk: pk, versionName: current?.version_name ?? DEFAULT_AGENT_VERSION_NAME, description: current?.description ?? null,
      inputDefinitions: current ? definitionsOf(current) : [],
      engineConfig: (current ? parseJson<Record<string, string>>(current.engine_config) : null) ?? {}, creatorId: ctx.user.id, createdMs: now,
    });
    refreshAgentSearch(db, pk);
    return { pk, versionId };
  });
  const agent = db.get<{ id: string }>('SELECT id FROM agents WHERE pk = ?', [copy.pk])!;
  const agentRow = findAgent(db, orgId, agent.id)!;
  return ok(loadVersionObject(db, findVersion(db, copy.pk, copy.versionId)!, agentRow), 201);
};

/** Registers the base agent routes. */
export function registerAgentRoutes(router: Router<Handler>): void {
  router
    .add('GET', '/v1/agents/', list)
    .add('POST', '/v1/agents/', create)
    .add('GET', '/v1/agents/{agent_id}/', get)
    .add('PUT', '/v1/agents/{agent_id}/', update)
    .add('PATCH', '/v1/agents/{agent_id}/', update)
    .add('POST', '/v1/agents/{agent_id}/duplicate/', duplicate);
}
