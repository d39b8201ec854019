/** Base agents, their versions, and starting jobs (interface 4.2-4.4, 4.6, 4.9; docs/service.md). */
import type { Gateway } from '../gateway';
import { seg } from '../query';
import {
  AgentVersionListSchema,
  AgentVersionSchema,
  BaseAgentPageSchema,
  BaseAgentSchema,
  JobIdSchema,
  type AgentVersion,
  type BaseAgent,
} from '../schemas/agents';
import type { CallOptions, Page } from '../types';
import { fetchItems, fetchPage, fetchPages, type PagedList } from './paging';

export type ListAgentsParams = {
  page?: number;
  page_size?: number;
  search?: string;
  name?: string;
  /** `name`, `created_at`, `updated_at`, `most_recent_job`, `job_count`, `engine_class_id`, `creator`; `-` descends. */
  ordering?: string;
  engine_class_id?: string | string[];
  exclude_engine_class_id?: string;
  /** Default true on the service; false answers faster, with `job_count` null. */
  include_job_stats?: boolean;
  /** Tag ids. */
  tags?: string[];
  created_from?: string;
  created_to?: string;
  creator_id?: string | number;
  job_count_min?: number;
  job_count_max?: number;
};

/** An input definition as sent when creating agents and versions. */
export interface InputDefinitionInput {
  key: string;
  data_type: string;
  description?: string;
  example?: string;
  accepts_multiple_files?: boolean;
}

export interface CreateAgentBody {
  name: string;
  engine_class_id: string;
  version_name?: string;
  description?: string | null;
  input_definitions?: InputDefinitionInput[];
  engine_config?: Record<string, string>;
}

export interface UpdateAgentBody {
  name?: string;
  disable_cache?: boolean;
  cache_failed_jobs?: boolean;
  description?: string | null;
}

export interface DuplicateAgentBody {
  name: string;
}

export interface CreateAgentVersionBody {
  input_definitions: InputDefinitionInput[];
  engine_config: Record<string, string>;
  version_name?: string;
  description?: string | null;
}

export interface GetAgentVersionParams {
  /** Ask the service whether the engine supports evaluation (`get_supports_eval`). */
  supportsEval?: boolean;
}

export interface RunAgentBody {
  /** One text value per input definition `key`. */
  inputs: Record<string, string>;
  metadata?: Record<string, unknown>;
}

const AGENTS: PagedList<BaseAgent, ListAgentsParams> = { operation: 'listAgents', schema: BaseAgentPageSchema };
const agentPath = (agentId: string): string => `/v1/agents/${seg(agentId)}/`;

/** Agents of the organization. */
export class AgentsApi {
  constructor(private readonly gateway: Gateway) {}

  /** One page of agents. */
  list(params: ListAgentsParams = {}, opts?: CallOptions): Promise<Page<BaseAgent>> {
    return fetchPage(this.gateway, AGENTS, '/v1/agents/', params, opts);
  }

  /** Every page of agents, from `params.page` on. */
  pages(params: ListAgentsParams = {}, opts?: CallOptions): AsyncGenerator<Page<BaseAgent>, void, undefined> {
    return fetchPages(this.gateway, AGENTS, '/v1/agents/', params, opts);
  }

  /** Every agent, page after page. */
  items(params: ListAgentsParams = {}, opts?: CallOptions): AsyncGenerator<BaseAgent, void, undefined> {
    return fetchItems(this.gateway, AGENTS, '/v1/agents/', params, opts);
  }

  /** One base agent. */
  get(agentId: string, opts?: CallOptions): Promise<BaseAgent> {
    return this.gateway.send({ operation: 'getAgent', method: 'GET', path: agentPath(agentId), schema: BaseAgentSchema }, opts?.signal);
  }

  /** Creates an agent, optionally with the fields of its first version. */
  create(body: CreateAgentBody, opts?: CallOptions): Promise<BaseAgent> {
    return this.gateway.send({ operation: 'createAgent', method: 'POST', path: '/v1/agents/', json: body, schema: BaseAgentSchema }, opts?.signal);
  }

  /** Changes name, cache settings or description of a base agent. */
  update(agentId: string, body: UpdateAgentBody, opts?: CallOptions): Promise<BaseAgent> {
    return this.gateway.send({ operation: 'updateAgent', method: 'PUT', path: agentPath(agentId), json: body, schema: BaseAgentSchema }, opts?.signal);
  }

  /** Copies an agent under a new name; answers the copy's version. */
  duplicate(agentId: string, body: DuplicateAgentBody, opts?: CallOptions): Promise<AgentVersion> {
    const path = `${agentPath(agentId)}duplicate/`;
    return this.gateway.send({ operation: 'duplicateAgent', method: 'POST', path, json: body, schema: AgentVersionSchema }, opts?.signal);
  }

  /** All versions of an agent (a plain list, not paged). */
  listVersions(agentId: string, opts?: CallOptions): Promise<AgentVersion[]> {
    const path = `${agentPath(agentId)}versions/`;
    return this.gateway.send({ operation: 'listAgentVersions', method: 'GET', path, schema: AgentVersionListSchema }, opts?.signal);
  }

  /** One version of an agent. */
  getVersion(agentId: string, versionId: string, params: GetAgentVersionParams = {}, opts?: CallOptions): Promise<AgentVersion> {
    const path = `${agentPath(agentId)}versions/${seg(versionId)}/`;
    const query = { get_supports_eval: params.supportsEval };
    return this.gateway.send({ operation: 'getAgentVersion', method: 'GET', path, query, schema: AgentVersionSchema }, opts?.signal);
  }

  /** The version the agent's jobs run. */
  currentVersion(agentId: string, opts?: CallOptions): Promise<AgentVersion> {
    const path = `${agentPath(agentId)}versions/current/`;
    return this.gateway.send({ operation: 'getCurrentAgentVersion', method: 'GET', path, schema: AgentVersionSchema }, opts?.signal);
  }

  /** Adds a version to an agent; it becomes the current version. */
  createVersion(agentId: string, body: CreateAgentVersionBody, opts?: CallOptions): Promise<AgentVersion> {
    const path = `${agentPath(agentId)}versions/`;
    return this.gateway.send({ operation: 'createAgentVersion', method: 'POST', path, json: body, schema: AgentVersionSchema }, opts?.signal);
  }

  /** Starts a job of the agent's current version; answers the new job's id. */
  run(agentId: string, body: RunAgentBody, opts?: CallOptions): Promise<string> {
    const path = `/v1/agents/run/${seg(agentId)}/async/`;
    const json = body.metadata === undefined ? { ...body.inputs } : { ...body.inputs, metadata: body.metadata };
    return this.gateway.send({ operation: 'runAgent', method: 'POST', path, json, schema: JobIdSchema }, opts?.signal);
  }
}
