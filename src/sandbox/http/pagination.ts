import type { IncomingMessage } from 'node:http';
import { notFound } from './errors';
import type { QueryFields } from './queryParams';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

/** Which page a list request asks for. */
export interface PageRequest {
  page: number;
  pageSize: number;
  offset: number;
}

/** The pagination envelope of every list endpoint. */
export interface Envelope<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** Reads `page` (≥ 1) and `page_size` (≥ 1, silently capped at {@link MAX_PAGE_SIZE}). */
export function readPage(query: QueryFields): PageRequest {
  const page = query.int('page', { min: 1 }) ?? 1;
  const pageSize = query.int('page_size', { min: 1, clampAt: MAX_PAGE_SIZE }) ?? DEFAULT_PAGE_SIZE;
  return { page, pageSize, offset: (page - 1) * pageSize };
}

/** Answers 404 "Invalid page." for a page past the end (page 1 of an empty list is fine). */
export function assertPageExists(request: PageRequest, count: number): void {
  const last = Math.max(1, Math.ceil(count / request.pageSize));
  if (request.page > last) throw notFound('Invalid page.');
}

/**
 * Builds the envelope with absolute `next`/`previous` links made from the request's own Host
 * header and query string (so they survive the filters), as DRF's PageNumberPagination does.
 */
export function envelope<T>(req: IncomingMessage, url: URL, request: PageRequest, count: number, results: T[]): Envelope<T> {
  const hasNext = request.offset + results.length < count;
  return {
    count,
    next: hasNext ? pageLink(req, url, request.page + 1) : null,
    previous: request.page > 1 ? pageLink(req, url, request.page - 1) : null,
    results,
  };
}

function pageLink(req: IncomingMessage, url: URL, page: number): string {
  const forwarded = String(req.headers['x-forwarded-proto'] ?? '').split(',')[0]!.trim();
  const scheme = forwarded === 'https' ? 'https' : 'http';
  const host = req.headers.host ?? url.host;
  const params = new URLSearchParams(url.search);
  // DRF drops `page` for the first page rather than writing page=1.
  if (page === 1) params.delete('page');
  else params.set('page', String(page));
  const search = params.toString();
  return `${scheme}://${host}${url.pathname}${search ? `?${search}` : ''}`;
}
