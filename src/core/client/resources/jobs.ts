/** Agent jobs: lists, status, cancel (interface 4.5, 4.11; docs/service.md). */
import type { Gateway } from '../gateway';
import { seg, type Query } from '../query';
import {
  AgentJobPageSchema,
  JobStatusRecordSchema,
  JobStatusSummaryListSchema,
  type AgentJob,
  type JobStatusRecord,
  type JobStatusSummary,
} from '../schemas/jobs';
import { JobArtifactSchema, JobResultRecordListSchema, JobResultSchema, type JobResult, type JobResultRecord } from '../schemas/results';
import { ServiceError, isServiceError } from '../errors';
import type { CallOptions, Page, WriteOptions } from '../types';
import { fetchItems, fetchPage, fetchPages, type PagedEndpoint } from './paging';

export type ListJobsParams = {
  page?: number;
  page_size?: number;
  created_from?: string;
  created_to?: string;
  /** `key:value[,key:value...]` (see `METADATA_FILTER_FORMAT`). */
  metadata?: string;
  exclude_metadata?: string;
  job_id?: string;
  /** `id`, `agent_version_name`, `status_code`, `created_at`, `last_updated_at`, `cost`, `duration`, `grader_score`; `-` descends. */
  ordering?: string | string[];
  semantic_string?: string;
  /** The numeric status code. */
  status_code?: string | number;
  version_name?: string;
  search?: string;
  verdict?: string;
  job_inputs?: string;
  /** Cap on how many recent jobs are counted (service default 100000; 0 for no cap). */
  limit?: number;
};

const JOBS: PagedEndpoint<AgentJob, ListJobsParams> = {
  operation: 'listJobs',
  schema: AgentJobPageSchema,
  // Several orderings travel as one comma-separated value, as Django REST framework reads them.
  query: (params): Query => (Array.isArray(params.ordering) ? { ...params, ordering: params.ordering.join(',') } : params),
};
/** How many job ids one bulk results request carries. */
export const RESULTS_CHUNK_SIZE = 100;
const RESULT_UNAVAILABLE = 'The result of this job is not available (the service has no result data for it).';

/** True when reading one job's result failed because the service has no result for it (a 500 without a JSON body). */
export function isResultUnavailable(error: unknown): boolean {
  return isServiceError(error) && error.operation === 'getJobResult' && error.status === 500 && error.body === undefined;
}

const jobsPath = (agentId: string): string => `/v1/agents/${seg(agentId)}/jobs/`;

/** Jobs of agents. */
export class JobsApi {
  constructor(private readonly gateway: Gateway) {}

  /** One page of an agent's jobs. */
  list(agentId: string, params: ListJobsParams = {}, opts?: CallOptions): Promise<Page<AgentJob>> {
    return fetchPage(this.gateway, JOBS, jobsPath(agentId), params, opts);
  }

  /** Every page of an agent's jobs, from `params.page` on. */
  pages(agentId: string, params: ListJobsParams = {}, opts?: CallOptions): AsyncGenerator<Page<AgentJob>, void, undefined> {
    return fetchPages(this.gateway, JOBS, jobsPath(agentId), params, opts);
  }

  /** Every job of an agent, page after page. */
  items(agentId: string, params: ListJobsParams = {}, opts?: CallOptions): AsyncGenerator<AgentJob, void, undefined> {
    return fetchItems(this.gateway, JOBS, jobsPath(agentId), params, opts);
  }

  /** The status record of one job. */
  status(jobId: string, opts?: CallOptions): Promise<JobStatusRecord> {
    const path = `/v1/agents/jobs/${seg(jobId)}/status/`;
    return this.gateway.send({ operation: 'getJobStatus', method: 'GET', path, schema: JobStatusRecordSchema }, opts?.signal);
  }

  /** Statuses of many jobs in one request (for watchers); no request at all for an empty list. */
  async statuses(jobIds: readonly string[], opts?: CallOptions): Promise<JobStatusSummary[]> {
    if (jobIds.length === 0) return [];
    const json = { job_ids: jobIds };
    const path = '/v1/agents/jobs/statuses/';
    return this.gateway.send(
      { operation: 'getJobStatuses', method: 'POST', path, json, schema: JobStatusSummaryListSchema, readOnly: true },
      opts?.signal,
    );
  }

  /** Asks the service to cancel a job that is not final yet. */
  cancel(jobId: string, opts?: WriteOptions): Promise<void> {
    const path = `/v1/agents/jobs/${seg(jobId)}/cancel/`;
    return this.gateway.send({ operation: 'cancelJob', method: 'POST', path, schema: null, target: { kind: 'job', id: jobId }, ground: opts?.ground }, opts?.signal);
  }

  /** What one job answered: its inputs, outputs and tokens; see {@link isResultUnavailable} for jobs without one. */
  async result(jobId: string, opts?: CallOptions): Promise<JobResult> {
    const path = `/v1/agents/jobs/${seg(jobId)}/result/`;
    try {
      return await this.gateway.send({ operation: 'getJobResult', method: 'GET', path, schema: JobResultSchema }, opts?.signal);
    } catch (error) {
      if (!isResultUnavailable(error)) throw error;
      const e = error as ServiceError;
      throw new ServiceError({ kind: 'http', message: RESULT_UNAVAILABLE, operation: e.operation, method: e.method, path: e.path, status: 500, cause: e });
    }
  }

  /**
   * One artifact a job's outputs name by its key (`evidence_data` values): its `result`, any JSON value
   * (null included). 404 when the service has no such artifact.
   */
  async artifact(jobId: string, artifactKey: string, opts?: CallOptions): Promise<unknown> {
    const path = `/v1/agents/jobs/${seg(jobId)}/artifacts/result/`;
    const answer = await this.gateway.send({ operation: 'getJobArtifact', method: 'GET', path, query: { artifact_key: artifactKey }, schema: JobArtifactSchema }, opts?.signal);
    return answer.result;
  }

  /**
   * Results of many jobs, in the order asked (the service answers in any order; a job it does not know is left
   * out): one request per hundred ids, one after the other; none for an empty list.
   */
  async results(jobIds: readonly string[], opts?: CallOptions): Promise<JobResultRecord[]> {
    const byId = new Map<string, JobResultRecord>();
    for (let start = 0; start < jobIds.length; start += RESULTS_CHUNK_SIZE) {
      const json = { job_ids: jobIds.slice(start, start + RESULTS_CHUNK_SIZE) };
      const call = { operation: 'getJobResults', method: 'POST', path: '/v1/agents/jobs/results/', json, schema: JobResultRecordListSchema, readOnly: true } as const;
      for (const record of await this.gateway.send(call, opts?.signal)) byId.set(record.id, record);
    }
    return [...new Set(jobIds)].flatMap((id) => byId.get(id) ?? []);
  }
}
