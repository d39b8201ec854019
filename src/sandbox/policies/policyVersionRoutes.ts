import { found, requireOrganization } from '../access';
import { type Handler, ok } from '../context';
import { readJsonObject } from '../http/body';
import { BodyFields } from '../http/fields';
import { assertPageExists, envelope, readPage } from '../http/pagination';
import type { Router } from '../http/router';
import { orderBySql } from '../store/ordering';
import { containsPattern } from '../util';
import { readContent } from './policyRoutes';
import {
  POLICY_VERSION_SELECT, type PolicyVersionRow, findPolicy, findPolicyVersion, insertPolicyVersion, policyVersionObject,
} from './policyStore';

const VERSION_ORDERINGS: Record<string, string> = {
  created_at: 'pv.created_ms',
  updated_at: 'pv.updated_ms',
  version_name: 'pv.version_name COLLATE NOCASE',
};

/** GET /v1/policies/{policy_id}/versions/: paged, newest first unless `ordering`; `search` over version names. */
const list: Handler = (ctx) => {
  const orgId = requireOrganization(ctx);
  const { query, app } = ctx;
  const policy = found(findPolicy(app.db, orgId, ctx.params.policy_id!));
  const page = readPage(query);
  const search = query.string('search', 500);
  const ordering = query.ordering(Object.keys(VERSION_ORDERINGS));
  query.finish();
  const where = ['pv.policy_pk = ?'];
  const params: (string | number)[] = [policy.pk];
  if (search !== undefined) {
    where.push("lower(pv.version_name) LIKE ? ESCAPE '\\'");
    params.push(containsPattern(search));
  }
  const count = Number(app.db.value(`SELECT COUNT(*) FROM policy_versions pv WHERE ${where.join(' AND ')}`, params));
  assertPageExists(page, count);
  const order = orderBySql(ordering.length > 0 ? ordering : [{ field: 'created_at', descending: true }], VERSION_ORDERINGS, 'pv.pk');
  const rows = app.db.all<PolicyVersionRow>(`${POLICY_VERSION_SELECT} WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ? OFFSET ?`, [
    ...params, page.pageSize, page.offset,
  ]);
  return ok(envelope(ctx.req, ctx.url, page, count, rows.map((v) => policyVersionObject(v, policy))));
};

const get: Handler = (ctx) => {
  const orgId = requireOrganization(ctx);
  const policy = found(findPolicy(ctx.app.db, orgId, ctx.params.policy_id!));
  const version = found(findPolicyVersion(ctx.app.db, policy.pk, ctx.params.version_id!));
  return ok(policyVersionObject(version, policy));
};

/**
 * POST /v1/policies/{policy_id}/versions/: a new version that becomes current; earlier versions are
 * left unchanged. `version_name` defaults to `version N` (N = number of versions + 1);
 * `base_version_id` must name a version of the same policy.
 */
const create: Handler = async (ctx) => {
  const body = await readJsonObject(ctx.req, ctx.app.limits.jsonBytes);
  const orgId = requireOrganization(ctx, body.organization_id);
  const { db } = ctx.app;
  const policy = found(findPolicy(db, orgId, ctx.params.policy_id!));
  const f = new BodyFields(body);
  const versionName = f.string('version_name', { min: 1, max: 255 });
  const content = readContent(f);
  const baseVersionId = f.uuid('base_version_id', { nullable: true });
  if (baseVersionId && !findPolicyVersion(db, policy.pk, baseVersionId)) {
    f.fail('base_version_id', 'This version does not belong to this policy.');
  }
  f.finish();
  const id = db.transaction(() => {
    const count = Number(db.value('SELECT COUNT(*) FROM policy_versions WHERE policy_pk = ?', [policy.pk]));
    return insertPolicyVersion(db, {
      policyPk: policy.pk, versionName: versionName ?? `version ${count + 1}`, content, baseVersionId: baseVersionId ?? null,
      creatorId: ctx.user.id, createdMs: ctx.app.now(),
    });
  });
  const fresh = findPolicy(db, orgId, policy.id)!;
  return ok(policyVersionObject(findPolicyVersion(db, policy.pk, id)!, fresh), 201);
};

/** Registers the policy version routes. */
export function registerPolicyVersionRoutes(router: Router<Handler>): void {
  router
    .add('GET', '/v1/policies/{policy_id}/versions/', list)
    .add('POST', '/v1/policies/{policy_id}/versions/', create)
    .add('GET', '/v1/policies/{policy_id}/versions/{version_id}/', get);
}
