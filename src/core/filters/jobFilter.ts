import { jobStatusName } from '../jobStatus';
import { orderingLabel } from './agentFilter';

/** What one agent's Jobs list is narrowed to and ordered by. */
export interface JobFilter {
  statuses?: number[];
  versionName?: string;
  createdFrom?: string;
  createdTo?: string;
  /** `key:value[,key:value…]` (see serviceDecisions.ts). */
  metadata?: string;
  /** Free text: jobs similar to it (the service's `semantic_string`). */
  similarTo?: string;
  ordering?: string;
}

/** The orderings of interface 4.5; `-` means descending. Newest first is the default. */
export const JOB_ORDERINGS = ['created_at', 'last_updated_at', 'status_code', 'agent_version_name', 'duration', 'cost', 'grader_score', 'id'] as const;
export const DEFAULT_JOB_ORDERING = '-created_at';

/** True when anything narrows or reorders the jobs. */
export function isJobFilterActive(filter: JobFilter): boolean {
  return Boolean(filter.statuses?.length || filter.versionName || filter.createdFrom || filter.createdTo || filter.metadata || filter.similarTo || (filter.ordering && filter.ordering !== DEFAULT_JOB_ORDERING));
}

/** The list parameters for the service (interface 4.5). */
export function jobListParams(filter: JobFilter, pageSize: number): Record<string, unknown> {
  return {
    page_size: pageSize,
    status_code: filter.statuses?.length ? filter.statuses.join(',') : undefined,
    version_name: filter.versionName || undefined,
    created_from: filter.createdFrom || undefined,
    created_to: filter.createdTo || undefined,
    metadata: filter.metadata || undefined,
    semantic_string: filter.similarTo || undefined,
    // Similar jobs come most similar first unless the user chose an order.
    ordering: filter.ordering ?? (filter.similarTo ? undefined : DEFAULT_JOB_ORDERING),
  };
}

/** "FAILURE, RETRY · v3 · since 2026-11-01 · customer:acme · like “refund” · by duration ↓" */
export function describeJobFilter(filter: JobFilter): string {
  const parts: string[] = [];
  if (filter.statuses?.length) parts.push(filter.statuses.map(jobStatusName).join(', '));
  if (filter.versionName) parts.push(filter.versionName);
  if (filter.createdFrom && filter.createdTo) parts.push(`${filter.createdFrom.slice(0, 10)} – ${filter.createdTo.slice(0, 10)}`);
  else if (filter.createdFrom) parts.push(`since ${filter.createdFrom.slice(0, 16).replace('T', ' ')}`);
  else if (filter.createdTo) parts.push(`until ${filter.createdTo.slice(0, 16).replace('T', ' ')}`);
  if (filter.metadata) parts.push(filter.metadata);
  if (filter.similarTo) parts.push(`like “${filter.similarTo}”`);
  if (filter.ordering && filter.ordering !== DEFAULT_JOB_ORDERING) parts.push(`by ${orderingLabel(filter.ordering)}`);
  return parts.join(' · ');
}

const METADATA_PAIR = /^[^:,\s][^:,]*:[^,]*$/;

/** Why a metadata filter text is not of the form `key:value[,key:value…]`, or undefined when it is. */
export function metadataFilterProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  const bad = trimmed.split(',').map((p) => p.trim()).find((pair) => !METADATA_PAIR.test(pair));
  return bad === undefined ? undefined : `“${bad}” is not key:value. Use key:value, or several separated by commas.`;
}
