/** The list-call plumbing every paged resource shares: one page, all pages, all items. */
import type * as z from 'zod/mini';
import type { Gateway } from '../gateway';
import { toPage, walkItems, walkPages } from '../pagination';
import type { Query } from '../query';
import type { Envelope } from '../schemas/common';
import type { CallOptions, Page } from '../types';

/** Query parameters every paged list takes. */
export type PageParams = { page?: number; page_size?: number };

/** A paged list endpoint, bound to its operation name and schema. */
export interface PagedEndpoint<T, P extends PageParams> {
  operation: string;
  schema: z.ZodMiniType<Envelope<T>>;
  /** Leave `organization_id` out (personal datasets). */
  personal?: (params: P) => boolean;
  /** Turns the caller's params into the query (drop client-only keys, join lists). */
  query?: (params: P) => Query;
  feature?: string;
}

/** Fetches one page of `path`. */
export async function fetchPage<T, P extends PageParams>(
  gateway: Gateway,
  list: PagedEndpoint<T, P>,
  path: string,
  params: P,
  opts: CallOptions | undefined,
): Promise<Page<T>> {
  const query = list.query ? list.query(params) : (params as Query);
  const envelope = await gateway.send(
    { operation: list.operation, method: 'GET', path, query, schema: list.schema, personal: list.personal?.(params), feature: list.feature },
    opts?.signal,
  );
  return toPage(envelope, params.page ?? 1);
}

/** Every page of `path` from `params.page` (default 1) on. */
export function fetchPages<T, P extends PageParams>(
  gateway: Gateway,
  list: PagedEndpoint<T, P>,
  path: string,
  params: P,
  opts: CallOptions | undefined,
): AsyncGenerator<Page<T>, void, undefined> {
  return walkPages((page) => fetchPage(gateway, list, path, { ...params, page }, opts), params.page ?? 1);
}

/** Every item of every page of `path`. */
export function fetchItems<T, P extends PageParams>(
  gateway: Gateway,
  list: PagedEndpoint<T, P>,
  path: string,
  params: P,
  opts: CallOptions | undefined,
): AsyncGenerator<T, void, undefined> {
  return walkItems(fetchPages(gateway, list, path, params, opts));
}
