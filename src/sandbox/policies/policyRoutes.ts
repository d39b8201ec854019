import { found, requireOrganization } from '../access';
import { type Handler, type RequestContext, noContent, ok } from '../context';
import { readJsonObject } from '../http/body';
import { HttpError } from '../http/errors';
import { BodyFields } from '../http/fields';
import { assertPageExists, envelope, readPage } from '../http/pagination';
import type { Router } from '../http/router';
import { orderBySql } from '../store/ordering';
import { containsPattern } from '../util';
import { policyContentProblems, withFreshIds } from './policyContent';
import {
  POLICY_SELECT, type DependentAgent, type PolicyRow, agentsUsingPolicy, findPolicy, insertPolicy, insertPolicyVersion, policyObject,
} from './policyStore';

const POLICY_ORDERINGS: Record<string, string> = { name: 'p.name COLLATE NOCASE', created_at: 'p.created_ms', updated_at: 'p.updated_ms' };
const NAME_MAX = 255;
const DESCRIPTION_MAX = 5000;

/** Reads the required `content` of a policy or policy version; problems are listed under `content`. */
export function readContent(f: BodyFields): unknown {
  if (!f.has('content')) {
    f.fail('content', 'This field is required.');
    return undefined;
  }
  const content = f.body.content;
  if (content === null) {
    f.fail('content', 'This field may not be null.');
    return undefined;
  }
  const problems = policyContentProblems(content);
  if (problems.length > 0) f.fail('content', problems);
  return withFreshIds(content);
}

/** GET /v1/policies/: `search` over name and description, `ordering` by name, created_at or updated_at. */
const list: Handler = (ctx) => {
  const orgId = requireOrganization(ctx);
  const { query, app } = ctx;
  const page = readPage(query);
  const search = query.string('search', 500);
  const ordering = query.ordering(Object.keys(POLICY_ORDERINGS));
  query.finish();
  const where = ['p.org_id = ?'];
  const params: (string | number)[] = [orgId];
  if (search !== undefined) {
    where.push("(lower(p.name) LIKE ? ESCAPE '\\' OR lower(p.description) LIKE ? ESCAPE '\\')");
    params.push(containsPattern(search), containsPattern(search));
  }
  const count = Number(app.db.value(`SELECT COUNT(*) FROM policies p WHERE ${where.join(' AND ')}`, params));
  assertPageExists(page, count);
  const order = orderBySql(ordering.length > 0 ? ordering : [{ field: 'name', descending: false }], POLICY_ORDERINGS, 'p.pk');
  const rows = app.db.all<PolicyRow>(`${POLICY_SELECT} WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ? OFFSET ?`, [
    ...params, page.pageSize, page.offset,
  ]);
  return ok(envelope(ctx.req, ctx.url, page, count, rows.map(policyObject)));
};

/** POST /v1/policies/: a policy with its first version (`version 1` unless named); 201 with the policy. */
const create: Handler = async (ctx) => {
  const body = await readJsonObject(ctx.req, ctx.app.limits.jsonBytes);
  const orgId = requireOrganization(ctx, body.organization_id);
  const f = new BodyFields(body);
  const name = f.string('name', { required: true, max: NAME_MAX });
  const description = f.string('description', { nullable: true, allowBlank: true, max: DESCRIPTION_MAX });
  const versionName = f.string('version_name', { min: 1, max: NAME_MAX });
  const content = readContent(f);
  f.finish();
  const { db } = ctx.app;
  const now = ctx.app.now();
  const pk = db.transaction(() => {
    const policyPk = insertPolicy(db, { orgId, name: name!, description: description ?? '', creatorId: ctx.user.id, createdMs: now });
    insertPolicyVersion(db, { policyPk, versionName: versionName ?? 'version 1', content, baseVersionId: null, creatorId: ctx.user.id, createdMs: now });
    return policyPk;
  });
  return ok(policyObject(db.get<PolicyRow>(`${POLICY_SELECT} WHERE p.pk = ?`, [pk])!), 201);
};

function policyOf(ctx: RequestContext, orgId: string): PolicyRow {
  return found(findPolicy(ctx.app.db, orgId, ctx.params.policy_id!));
}

const get: Handler = (ctx) => ok(policyObject(policyOf(ctx, requireOrganization(ctx))));

/** PUT/PATCH /v1/policies/{id}/: name and description; absent fields stay. */
const update: Handler = async (ctx) => {
  const body = await readJsonObject(ctx.req, ctx.app.limits.jsonBytes);
  const orgId = requireOrganization(ctx, body.organization_id);
  const policy = policyOf(ctx, orgId);
  const f = new BodyFields(body);
  const name = f.string('name', { max: NAME_MAX });
  const description = f.string('description', { nullable: true, allowBlank: true, max: DESCRIPTION_MAX });
  f.finish();
  ctx.app.db.run('UPDATE policies SET name = ?, description = ?, updated_ms = ? WHERE pk = ?', [
    name ?? policy.name, description === undefined ? policy.description : (description ?? ''), ctx.app.now(), policy.pk,
  ]);
  return ok(policyObject(findPolicy(ctx.app.db, orgId, policy.id)!));
};

function usedByMessage(dependents: readonly DependentAgent[]): string {
  const agents = new Set(dependents.map((d) => d.base_agent_id)).size;
  const versions = `${dependents.length} version${dependents.length === 1 ? '' : 's'}`;
  return `The policy is used by ${versions} of ${agents} agent${agents === 1 ? '' : 's'}; point them at another policy first.`;
}

/** DELETE /v1/policies/{id}/: 204, or 409 naming every agent version that uses the policy. */
const remove: Handler = (ctx) => {
  const orgId = requireOrganization(ctx);
  const policy = policyOf(ctx, orgId);
  const { db } = ctx.app;
  const dependents = agentsUsingPolicy(db, orgId, policy.id);
  if (dependents.length > 0) {
    throw new HttpError(409, {
      error: usedByMessage(dependents),
      dependent_agents: dependents,
    });
  }
  db.transaction(() => {
    db.run('DELETE FROM policy_versions WHERE policy_pk = ?', [policy.pk]);
    db.run('DELETE FROM policies WHERE pk = ?', [policy.pk]);
  });
  return noContent();
};

/** Registers the policy routes (versions are in policyVersionRoutes.ts). */
export function registerPolicyRoutes(router: Router<Handler>): void {
  router
    .add('GET', '/v1/policies/', list)
    .add('POST', '/v1/policies/', create)
    .add('GET', '/v1/policies/{policy_id}/', get)
    .add('PUT', '/v1/policies/{policy_id}/', update)
    .add('PATCH', '/v1/policies/{policy_id}/', update)
    .add('DELETE', '/v1/policies/{policy_id}/', remove);
}
