/**
 * Page-number pagination. The server's `next`/`previous` links are read only for their `page` number and
 * never fetched: behind a proxy they may name another host, and the token must not travel there.
 */
import type { Envelope } from './schemas/common';
import type { Page } from './types';

/** The page number a link points at; DRF leaves `page` out of the link to page 1. */
export function pageNumberOf(link: string | null | undefined, fallback: number): number | null {
  if (!link) return null;
  // Only the query matters, and only its `page`: a regular expression is enough and much cheaper than URL.
  const match = PAGE_PARAM.exec(link.split('#', 1)[0] as string);
  if (!match) return fallback;
  const n = Number(decodeURIComponentSafe(match[1] as string));
  return Number.isInteger(n) && n >= 1 ? n : fallback;
}

const PAGE_PARAM = /[?&]page=([^&]*)/;

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** A parsed envelope as a {@link Page}, for the page that was asked for. */
export function toPage<T>(envelope: Envelope<T>, page: number): Page<T> {
  return {
    count: envelope.count,
    results: envelope.results,
    page,
    nextPage: pageNumberOf(envelope.next, page + 1),
    previousPage: pageNumberOf(envelope.previous, 1),
  };
}

/** Walks pages from `firstPage` on, following `nextPage` while it moves forward. */
export async function* walkPages<T>(fetchPage: (page: number) => Promise<Page<T>>, firstPage = 1): AsyncGenerator<Page<T>, void, undefined> {
  let page = firstPage;
  for (;;) {
    const current = await fetchPage(page);
    yield current;
    // A next page that does not move forward, or an empty page, would loop forever.
    if (current.nextPage === null || current.nextPage <= page || current.results.length === 0) return;
    page = current.nextPage;
  }
}

/** Every item of every page, in order. */
export async function* walkItems<T>(pages: AsyncIterable<Page<T>>): AsyncGenerator<T, void, undefined> {
  for await (const page of pages) yield* page.results;
}
