import { found, requireOrganization } from '../access';
import { type Handler, ok } from '../context';
import { readJsonObject } from '../http/body';
import { BodyFields } from '../http/fields';
import type { Router } from '../http/router';
import { findAgent, loadBaseAgentObject, refreshAgentSearch } from './agentStore';
import { readEngineConfig, readInputDefinitions } from './definitions';
import { DEFAULT_AGENT_VERSION_NAME, findVersion, insertVersion, listVersions, loadVersionObject, versionObject } from './versionStore';

/** GET /v1/agents/{agent_id}/versions/: every version, newest first, as a plain array (not paged). */
const list: Handler = (ctx) => {
  const orgId = requireOrganization(ctx);
  const { db } = ctx.app;
  const agent = found(findAgent(db, orgId, ctx.params.agent_id!));
  const base = loadBaseAgentObject(db, agent);
  return ok(listVersions(db, agent.pk).map((v) => versionObject(v, agent, base)));
};

/** GET .../versions/{agent_version_id}/ and .../versions/current/. */
const get: Handler = (ctx) => {
  const orgId = requireOrganization(ctx);
  const supportsEval = ctx.query.bool('get_supports_eval') ?? false;
  ctx.query.finish();
  const { db } = ctx.app;
  const agent = found(findAgent(db, orgId, ctx.params.agent_id!));
  const versionId = ctx.params.agent_version_id ?? agent.current_version_id;
  const version = found(versionId ? findVersion(db, agent.pk, versionId) : undefined);
  return ok(loadVersionObject(db, version, agent, { supportsEval }));
};

/** POST /v1/agents/{agent_id}/versions/: a new version, which becomes the current one (201). */
const create: Handler = async (ctx) => {
  const body = await readJsonObject(ctx.req, ctx.app.limits.jsonBytes);
  const orgId = requireOrganization(ctx, body.organization_id);
  const { db } = ctx.app;
  const agent = found(findAgent(db, orgId, ctx.params.agent_id!));
  const f = new BodyFields(body);
  const inputDefinitions = readInputDefinitions(f, true);
  const engineConfig = readEngineConfig(f, true);
  const versionName = f.string('version_name', { min: 1, max: 255 });
  const description = f.string('description', { nullable: true, allowBlank: true, max: 5000 });
  f.finish();
  const versionId = db.transaction(() => {
    const id = insertVersion(db, {
      agentPk: agent.pk, versionName: versionName ?? DEFAULT_AGENT_VERSION_NAME, description: description ?? null,
      inputDefinitions: inputDefinitions!, engineConfig: engineConfig!, creatorId: ctx.user.id, createdMs: ctx.app.now(),
    });
    refreshAgentSearch(db, agent.pk);
    return id;
  });
  const fresh = findAgent(db, orgId, agent.id)!;
  return ok(loadVersionObject(db, findVersion(db, agent.pk, versionId)!, fresh), 201);
};

/**
 * PATCH .../versions/{agent_version_id}/: only the version name and the description change
 * (each at least one character); 200 with a message, as the live service answers.
 */
const update: Handler = async (ctx) => {
  const body = await readJsonObject(ctx.req, ctx.app.limits.jsonBytes);
  const orgId = requireOrganization(ctx, body.organization_id);
  const { db } = ctx.app;
  const agent = found(findAgent(db, orgId, ctx.params.agent_id!));
  const version = found(findVersion(db, agent.pk, ctx.params.agent_version_id!));
  const f = new BodyFields(body);
  const versionName = f.string('version_name', { min: 1, max: 255 });
  const description = f.string('description', { min: 1, max: 5000 });
  f.finish();
  db.transaction(() => {
    if (versionName) db.run('UPDATE agent_versions SET version_name = ? WHERE pk = ?', [versionName, version.pk]);
    if (description) db.run('UPDATE agent_versions SET description = ? WHERE pk = ?', [description, version.pk]);
    refreshAgentSearch(db, agent.pk);
  });
  return ok({ message: 'Agent version updated successfully.' });
};

/** Registers the agent version routes (`current` before the id: it is not a UUID, so it never clashes). */
export function registerVersionRoutes(router: Router<Handler>): void {
  router
    .add('GET', '/v1/agents/{agent_id}/versions/', list)
    .add('POST', '/v1/agents/{agent_id}/versions/', create)
    .add('GET', '/v1/agents/{agent_id}/versions/current/', get)
    .add('GET', '/v1/agents/{agent_id}/versions/{agent_version_id}/', get)
    .add('PATCH', '/v1/agents/{agent_id}/versions/{agent_version_id}/', update);
}
