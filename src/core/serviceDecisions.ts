/**
 * Our own decisions where neither the interface nor the live service says (docs/service.md, "Our
 * decisions"). Kept in one place so that they are easy to change; the client and the sandbox both read them.
 */

/** Listing a dataset's files: a paged list of dataset files. */
export const datasetFilesPath = (datasetId: string): string => `/v1/datasets/${encodeURIComponent(datasetId)}/files/`;

/** Submitting a database query: answered 202 with `{worksheet_query_id, status}`; then poll the result. */
export const submitQueryPath = '/v1/database/query/';

/** Status values of a database query result. */
export const QUERY_STATUSES = ['PENDING', 'STARTED', 'SUCCESS', 'FAILURE'] as const;
export type QueryStatus = (typeof QUERY_STATUSES)[number];

/** A query in one of these states will not change any more. */
export function isFinalQueryStatus(status: string): boolean {
  return status === 'SUCCESS' || status === 'FAILURE';
}

/**
 * Format of the jobs list `metadata` / `exclude_metadata` filters: comma-separated `key:value`
 * pairs; a job matches `metadata` when every pair equals the job's metadata value (compared as text),
 * and is dropped by `exclude_metadata` when any pair matches.
 */
export const METADATA_FILTER_FORMAT = 'key:value[,key:value...]';

/**
 * A server that answers 404, 405 or 501 to an endpoint (or an error the client already marked
 * `unsupported`) does not offer it: we say so plainly, or use what it has instead.
 */
export function isUnsupported(error: unknown): boolean {
  const e = error as { kind?: unknown; status?: unknown } | null;
  return e?.kind === 'unsupported' || e?.status === 404 || e?.status === 405 || e?.status === 501;
}

/** True when an error says the service does not know the thing asked for. */
export function isNotFound(error: unknown): boolean {
  return (error as { status?: unknown } | null)?.status === 404;
}
