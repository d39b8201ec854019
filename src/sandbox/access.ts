import type { RequestContext } from './context';
import { HttpError, Msg, fieldError, forbidden } from './http/errors';
import { isUuid } from './http/fields';

/**
 * The `organization_id` of a request, which must name one of the caller's organizations (403 when
 * not: whether that organization exists is not revealed). The query parameter wins; some endpoints
 * also take it from the JSON body or a form field, passed as `fallback`.
 */
export function requireOrganization(ctx: RequestContext, fallback?: unknown): string {
  const orgId = optionalOrganization(ctx, fallback);
  if (orgId === undefined) throw fieldError('organization_id', Msg.required);
  return orgId;
}

/** Like {@link requireOrganization}, but absent is fine (datasets then use the personal dataset). */
export function optionalOrganization(ctx: RequestContext, fallback?: unknown): string | undefined {
  const all = ctx.url.searchParams.getAll('organization_id');
  const raw = all[all.length - 1] ?? (typeof fallback === 'string' ? fallback : undefined);
  if (raw === undefined || raw === '') {
    if (fallback !== undefined && fallback !== null && typeof fallback !== 'string') throw fieldError('organization_id', Msg.uuid);
    return undefined;
  }
  if (!isUuid(raw.trim())) throw fieldError('organization_id', Msg.uuid);
  const orgId = raw.trim().toLowerCase();
  if (!ctx.user.orgIds.has(orgId)) throw forbidden();
  return orgId;
}

/** 404 unless a row was found (in the caller's organization). */
export function found<T>(row: T | undefined, detail = 'Not found.'): T {
  if (row === undefined) throw new HttpError(404, { detail });
  return row;
}
