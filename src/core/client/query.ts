/** Query strings for the service: `organization_id` first, arrays as repeated keys, empty values left out. */

export type QueryValue = string | number | boolean | readonly (string | number)[] | null | undefined;
export type Query = Record<string, QueryValue>;

/** `?organization_id=…&page=2&tags=a&tags=b`, or '' when there is nothing to send. */
export function queryString(query: Query | undefined, organizationId: string | undefined): string {
  let out = organizationId ? `?organization_id=${encodeURIComponent(organizationId)}` : '';
  if (!query) return out;
  for (const key in query) {
    const value = query[key];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value === 'object') {
      for (const item of value) out += `${out ? '&' : '?'}${encodeURIComponent(key)}=${encodeURIComponent(item)}`;
    } else {
      out += `${out ? '&' : '?'}${encodeURIComponent(key)}=${encodeURIComponent(value)}`;
    }
  }
  return out;
}

/** A path segment from an id: `/` and friends are escaped, so an id can never change the path. */
export function seg(id: string | number): string {
  const text = encodeURIComponent(String(id));
  // `.` and `..` would be folded away by path normalisation on the way.
  return text === '.' || text === '..' ? text.replace(/\./g, '%2E') : text;
}
