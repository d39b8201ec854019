/** Base agents, their versions, and starting jobs (interface 4.2-4.4, 4.6, 4.9; docs/service.md). */
import type { Gateway } from '../gateway';
import type { WriteGround, WriteTarget } from '../../writeGate/writeGate';
import { seg } from '../query';
import {
  AgentVersionListSchema,
  AgentVersionSchema,
  BaseAgentPageSchema,
  BaseAgentSchema,
  JobIdListSchema,
  JobIdSchema,
  type AgentVersion,
  type BaseAgent,
} from '../schemas/agents';
import { EngineTypeListSchema, ModelListSchema, type EngineTypeList, type ModelList } from '../schemas/discovery';
import { CancelAllJobsSchema, JobOutputListSchema, type CancelAllJobs, type JobOutput } from '../schemas/results';
import type { CallOptions, Page, WriteOptions } from '../types';
import { fetchItems, fetchPage, fetchPages, type PagedEndpoint } from './paging';
import { assertNoFileInputs, runRequestBody, type RunAgentBody } from './runBody';

export type { RunAgentBody } from './runBody';

export type ListModelsParams = {
  /** Adds the models that also take this kind of input. */
  capability?: 'image' | 'audio' | 'video';
};


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


/** The two fields of a version that can change after it is made (each at least one character). */
export interface UpdateAgentVersionBody {
  version_name?: string;
  description?: string;
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

const AGENTS: PagedEndpoint<BaseAgent, ListAgentsParams> = { operation: 'listAgents', schema: BaseAgentPageSchema };
const agentPath = (agentId: string): string => `/v1/agents/${seg(agentId)}/`;
/** The gate's view of a write to an agent: the agent, and why it may be written. */
const written = (agentId: string, opts: WriteOptions | undefined): { target: WriteTarget; ground?: WriteGround } => ({ target: { kind: 'agent', id: agentId }, ground: opts?.ground });

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
  create(body: CreateAgentBody, opts?: WriteOptions): Promise<BaseAgent> {
    return this.gateway.send({ operation: 'createAgent', method: 'POST', path: '/v1/agents/', json: body, schema: BaseAgentSchema, feature: 'creating agents', ground: opts?.ground }, opts?.signal);
  }

  /** Changes name, cache settings or description of a base agent. */
  update(agentId: string, body: UpdateAgentBody, opts?: WriteOptions): Promise<BaseAgent> {
    return this.gateway.send({ operation: 'updateAgent', method: 'PUT', path: agentPath(agentId), json: body, schema: BaseAgentSchema, ...written(agentId, opts) }, opts?.signal);
  }

  /** Deletes an agent with its versions and jobs. */
  delete(agentId: string, opts?: WriteOptions): Promise<void> {
    return this.gateway.send({ operation: 'deleteAgent', method: 'DELETE', path: agentPath(agentId), schema: null, ...written(agentId, opts) }, opts?.signal);
  }

  /** Changes only the given fields of a base agent (PATCH), e.g. the name of a fresh copy. */
  patch(agentId: string, body: UpdateAgentBody, opts?: WriteOptions): Promise<BaseAgent> {
    return this.gateway.send({ operation: 'patchAgent', method: 'PATCH', path: agentPath(agentId), json: body, schema: BaseAgentSchema, ...written(agentId, opts) }, opts?.signal);
  }

  /**
   * Copies an agent; answers the copy's version. The live service takes no body here, so the copy's
   * name is the service's: {@link duplicateAgentAs} names it as the user asked.
   */
  duplicate(agentId: string, opts?: WriteOptions): Promise<AgentVersion> {
    const path = `${agentPath(agentId)}duplicate/`;
    return this.gateway.send({ operation: 'duplicateAgent', method: 'POST', path, schema: AgentVersionSchema, ...written(agentId, opts) }, opts?.signal);
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

  /**
   * Renames a version or changes its description (PATCH). The service answers only a message, so the
   * caller reads the version again to show it.
   */
  updateVersion(agentId: string, versionId: string, body: UpdateAgentVersionBody, opts?: WriteOptions): Promise<void> {
    const path = `${agentPath(agentId)}versions/${seg(versionId)}/`;
    return this.gateway.send({ operation: 'updateAgentVersion', method: 'PATCH', path, json: body, schema: null, ...written(agentId, opts) }, opts?.signal);
  }

  /** Deletes one version of an agent (never sent for the current one: see `versionDeleteProblem`). */
  deleteVersion(agentId: string, versionId: string, opts?: WriteOptions): Promise<void> {
    const path = `${agentPath(agentId)}versions/${seg(versionId)}/`;
    return this.gateway.send({ operation: 'deleteAgentVersion', method: 'DELETE', path, schema: null, ...written(agentId, opts) }, opts?.signal);
  }

  /** Adds a version to an agent; it becomes the current version. */
  createVersion(agentId: string, body: CreateAgentVersionBody, opts?: WriteOptions): Promise<AgentVersion> {
    const path = `${agentPath(agentId)}versions/`;
    return this.gateway.send({ operation: 'createAgentVersion', method: 'POST', path, json: body, schema: AgentVersionSchema, ...written(agentId, opts) }, opts?.signal);
  }

  /** Starts a job of the agent's current version; answers the new job's id. Files go as a streamed form. */
  async run(agentId: string, body: RunAgentBody, opts?: WriteOptions): Promise<string> {
    const request = await runRequestBody(body);
    const path = `/v1/agents/run/${seg(agentId)}/async/`;
    return this.gateway.send({ operation: 'runAgent', method: 'POST', path, ...request, schema: JobIdSchema, ...written(agentId, opts) }, opts?.signal);
  }

  /** Starts a job of one chosen version; answers the new job's id. */
  async runVersion(agentId: string, versionId: string, body: RunAgentBody, opts?: WriteOptions): Promise<string> {
    const request = await runRequestBody(body);
    const path = `/v1/agents/run/${seg(agentId)}/versions/${seg(versionId)}/async/`;
    return this.gateway.send({ operation: 'runAgentVersion', method: 'POST', path, ...request, schema: JobIdSchema, ...written(agentId, opts) }, opts?.signal);
  }

  /** Starts one job per input set with one request; answers the job ids in the order of the inputs. */
  async runMany(agentId: string, inputs: Array<Record<string, unknown>>, opts?: WriteOptions): Promise<string[]> {
    assertNoFileInputs(inputs);
    const path = `/v1/agents/run/${seg(agentId)}/async/many/`;
    return this.gateway.send({ operation: 'runAgentMany', method: 'POST', path, json: { inputs }, schema: JobIdListSchema, ...written(agentId, opts) }, opts?.signal);
  }

  /** Runs the current version and waits for its outputs (slow by nature: prefer {@link run}). */
  async runSync(agentId: string, body: RunAgentBody, opts?: WriteOptions): Promise<JobOutput[]> {
    const request = await runRequestBody(body);
    const path = `/v1/agents/run/${seg(agentId)}/`;
    return this.gateway.send({ operation: 'runAgentSync', method: 'POST', path, ...request, schema: JobOutputListSchema, ...written(agentId, opts) }, opts?.signal);
  }

  /** Asks the service to cancel every job of the agent that is not final yet. */
  cancelAllJobs(agentId: string, opts?: WriteOptions): Promise<CancelAllJobs> {
    const path = `${agentPath(agentId)}jobs/cancel-all/`;
    return this.gateway.send({ operation: 'cancelAllJobs', method: 'POST', path, schema: CancelAllJobsSchema, ...written(agentId, opts) }, opts?.signal);
  }

  /** The engines a new agent may use, with their descriptions and default configuration. */
  engineTypes(opts?: CallOptions): Promise<EngineTypeList> {
    return this.gateway.send({ operation: 'listEngineTypes', method: 'GET', path: '/v1/agents/types/', schema: EngineTypeListSchema }, opts?.signal);
  }

  /** The model ids accepted in `engine_config.model`; text models always, plus those with the capability asked for. */
  models(params: ListModelsParams = {}, opts?: CallOptions): Promise<ModelList> {
    const call = { operation: 'listModels', method: 'GET', path: '/v1/agents/models/', query: { capability: params.capability }, schema: ModelListSchema } as const;
    return this.gateway.send(call, opts?.signal);
  }
}
