import { isTrialEntity } from '../trial/trialMarker';

/** What the Agents view is narrowed to and ordered by; turned into list parameters and a short description. */
export interface AgentFilter {
  search?: string;
  engines?: string[];
  excludeEngines?: string[];
  tags?: { id: string; name: string }[];
  ordering?: string;
  /** Skip job statistics for a faster list (job count and last job are not shown then). */
  skipJobStats?: boolean;
  /** Hide the copies a policy trial made (marked in their description); the service cannot, so the view does. */
  hideTrials?: boolean;
}

/** The orderings of interface 4.9, plus `updated_at` which the live service accepts; `-` means descending. */
export const AGENT_ORDERINGS = ['name', 'created_at', 'updated_at', 'most_recent_job', 'job_count', 'engine_class_id', 'creator'] as const;

const ORDERING_LABELS: Record<string, string> = {
  name: 'name',
  created_at: 'creation time',
  updated_at: 'last change',
  most_recent_job: 'most recent job',
  job_count: 'job count',
  engine_class_id: 'engine',
  creator: 'creator',
  last_updated_at: 'last update',
  status_code: 'status',
  agent_version_name: 'version',
  duration: 'duration',
  cost: 'cost',
  grader_score: 'grader score',
  id: 'ID',
};

/** A readable name of an ordering value such as `-most_recent_job`. */
export function orderingLabel(ordering: string): string {
  const desc = ordering.startsWith('-');
  const key = desc ? ordering.slice(1) : ordering;
  return `${ORDERING_LABELS[key] ?? key}${desc ? ' ↓' : ' ↑'}`;
}

/** True when anything narrows or reorders the list. */
export function isAgentFilterActive(filter: AgentFilter): boolean {
  return Boolean(filter.search || filter.engines?.length || filter.excludeEngines?.length || filter.tags?.length || filter.ordering || filter.skipJobStats || filter.hideTrials);
}

/** The list parameters for the service (interface 4.9 and docs/service.md). */
export function agentListParams(filter: AgentFilter, pageSize: number): Record<string, unknown> {
  return {
    page_size: pageSize,
    search: filter.search || undefined,
    engine_class_id: filter.engines?.length ? filter.engines : undefined,
    exclude_engine_class_id: filter.excludeEngines?.length ? filter.excludeEngines[0] : undefined,
    tags: filter.tags?.length ? filter.tags.map((t) => t.id) : undefined,
    ordering: filter.ordering || undefined,
    include_job_stats: filter.skipJobStats ? false : undefined,
  };
}

/** "“review” · engine: llm · tags: billing · by name ↑ · no job stats" */
export function describeAgentFilter(filter: AgentFilter): string {
  const parts: string[] = [];
  if (filter.search) parts.push(`“${filter.search}”`);
  if (filter.engines?.length) parts.push(`engine: ${filter.engines.join(', ')}`);
  if (filter.excludeEngines?.length) parts.push(`not ${filter.excludeEngines.join(', ')}`);
  if (filter.tags?.length) parts.push(`tags: ${filter.tags.map((t) => t.name).join(', ')}`);
  if (filter.ordering) parts.push(`by ${orderingLabel(filter.ordering)}`);
  if (filter.skipJobStats) parts.push('no job stats');
  if (filter.hideTrials) parts.push('no trials');
  return parts.join(' · ');
}

/**
 * A page of agents as the view shows it: trial agents left out when the filter hides them, and the
 * service's count lowered by those seen so far (the pages not read yet may hold more).
 */
export function visibleAgentsPage<A extends { description?: string | null }>(filter: AgentFilter, page: { count: number; results: readonly A[] }, hiddenBefore: number): { count: number; results: A[]; hidden: number } {
  if (!filter.hideTrials) return { count: page.count, results: [...page.results], hidden: hiddenBefore };
  const results = page.results.filter((a) => !isTrialEntity(a));
  const hidden = hiddenBefore + page.results.length - results.length;
  return { count: Math.max(0, page.count - hidden), results, hidden };
}
