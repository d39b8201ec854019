import type { OrderTerm } from '../http/queryParams';

/** An ORDER BY clause from `ordering` terms; the unique tie-breaker keeps pages from repeating or skipping rows. */
export function orderBySql(terms: OrderTerm[], columns: Record<string, string>, tieBreaker: string): string {
  const parts = terms.map((t) => `${columns[t.field]} ${t.descending ? 'DESC' : 'ASC'}`);
  const lastDescending = terms.length === 0 || terms[terms.length - 1]!.descending;
  parts.push(`${tieBreaker} ${lastDescending ? 'DESC' : 'ASC'}`);
  return parts.join(', ');
}
