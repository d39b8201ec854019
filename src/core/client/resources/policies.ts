/** Policies and their versions (interface 4.1; docs/service.md). */
import type { Gateway } from '../gateway';
import { seg } from '../query';
import {
  PolicyPageSchema,
  PolicySchema,
  PolicyVersionPageSchema,
  PolicyVersionSchema,
  type Policy,
  type PolicyVersion,
} from '../schemas/policies';
import { isServiceError, ServiceError } from '../errors';
import { DependentAgentSchema, type DependentAgent } from '../schemas/policies';
import type { CallOptions, Page, WriteOptions } from '../types';
import { fetchItems, fetchPage, fetchPages, type PagedEndpoint } from './paging';

export type ListPoliciesParams = { page?: number; page_size?: number; search?: string; ordering?: string };
export type ListPolicyVersionsParams = { page?: number; page_size?: number; search?: string; ordering?: string };

export interface CreatePolicyBody {
  name: string;
  description?: string;
  /** The first version's content. */
  content: unknown;
  /** Defaults to `version 1` on the service. */
  version_name?: string;
}

export interface UpdatePolicyBody {
  name?: string;
  description?: string;
}

export interface CreatePolicyVersionBody {
  content: unknown;
  version_name?: string;
  /** The version this one derives from; must belong to the same policy. */
  base_version_id?: string;
}

/** The agent versions that keep a policy from being deleted, read from the 409 of `delete`; undefined for any other error. */
export function dependentAgentsOf(error: unknown): DependentAgent[] | undefined {
  if (!isServiceError(error) || error.status !== 409 || error.body === null || typeof error.body !== 'object') return undefined;
  const list = (error.body as { dependent_agents?: unknown }).dependent_agents;
  if (!Array.isArray(list)) return undefined;
  return list.flatMap((item) => {
    const parsed = DependentAgentSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

const POLICIES: PagedEndpoint<Policy, ListPoliciesParams> = { operation: 'listPolicies', schema: PolicyPageSchema };
const VERSIONS: PagedEndpoint<PolicyVersion, ListPolicyVersionsParams> = { operation: 'listPolicyVersions', schema: PolicyVersionPageSchema };
const policyPath = (policyId: string): string => `/v1/policies/${seg(policyId)}/`;
const versionsPath = (policyId: string): string => `${policyPath(policyId)}versions/`;

/** Policies of the organization. */
export class PoliciesApi {
  constructor(private readonly gateway: Gateway) {}

  /** One page of policies. */
  list(params: ListPoliciesParams = {}, opts?: CallOptions): Promise<Page<Policy>> {
    return fetchPage(this.gateway, POLICIES, '/v1/policies/', params, opts);
  }

  /** Every page of policies, from `params.page` on. */
  pages(params: ListPoliciesParams = {}, opts?: CallOptions): AsyncGenerator<Page<Policy>, void, undefined> {
    return fetchPages(this.gateway, POLICIES, '/v1/policies/', params, opts);
  }

  /** Every policy, page after page. */
  items(params: ListPoliciesParams = {}, opts?: CallOptions): AsyncGenerator<Policy, void, undefined> {
    return fetchItems(this.gateway, POLICIES, '/v1/policies/', params, opts);
  }

  /** One policy. */
  get(policyId: string, opts?: CallOptions): Promise<Policy> {
    return this.gateway.send({ operation: 'getPolicy', method: 'GET', path: policyPath(policyId), schema: PolicySchema }, opts?.signal);
  }

  /** Creates a policy with its first version; `unsupported` when the server does not offer it. */
  create(body: CreatePolicyBody, opts?: WriteOptions): Promise<Policy> {
    const call = { operation: 'createPolicy', method: 'POST', path: '/v1/policies/', json: body, schema: PolicySchema, feature: 'creating policies', ground: opts?.ground } as const;
    return this.gateway.send(call, opts?.signal);
  }

  /**
   * Renames a policy or changes its description. A 405, or a 404 for a policy that can still be read, means
   * the server does not offer it (`unsupported`); a 404 for a policy that is gone stays a 404.
   */
  async update(policyId: string, body: UpdatePolicyBody, opts?: WriteOptions): Promise<Policy> {
    const call = { operation: 'updatePolicy', method: 'PATCH', path: policyPath(policyId), json: body, schema: PolicySchema, target: { kind: 'policy', id: policyId }, ground: opts?.ground } as const;
    try {
      return await this.gateway.send(call, opts?.signal);
    } catch (error) {
      if (!isServiceError(error) || (error.status !== 404 && error.status !== 405)) throw error;
      if (error.status === 404 && !(await this.get(policyId, opts).then(() => true, () => false))) throw error;
      const what = body.name === undefined ? 'changing the description of a policy' : 'renaming policies';
      throw new ServiceError({ ...error, kind: 'unsupported', message: `This server does not offer ${what} (it answered ${error.status}).`, cause: error });
    }
  }

  /** Deletes a policy; a 409 (agents use it) lists them: read them with {@link dependentAgentsOf}. */
  delete(policyId: string, opts?: WriteOptions): Promise<void> {
    return this.gateway.send({ operation: 'deletePolicy', method: 'DELETE', path: policyPath(policyId), schema: null, target: { kind: 'policy', id: policyId }, ground: opts?.ground }, opts?.signal);
  }

  /** One page of a policy's versions. */
  listVersions(policyId: string, params: ListPolicyVersionsParams = {}, opts?: CallOptions): Promise<Page<PolicyVersion>> {
    return fetchPage(this.gateway, VERSIONS, versionsPath(policyId), params, opts);
  }

  /** Every page of a policy's versions. */
  versionPages(policyId: string, params: ListPolicyVersionsParams = {}, opts?: CallOptions): AsyncGenerator<Page<PolicyVersion>, void, undefined> {
    return fetchPages(this.gateway, VERSIONS, versionsPath(policyId), params, opts);
  }

  /** Every version of a policy. */
  versionItems(policyId: string, params: ListPolicyVersionsParams = {}, opts?: CallOptions): AsyncGenerator<PolicyVersion, void, undefined> {
    return fetchItems(this.gateway, VERSIONS, versionsPath(policyId), params, opts);
  }

  /** One version of a policy. */
  getVersion(policyId: string, versionId: string, opts?: CallOptions): Promise<PolicyVersion> {
    const path = `${versionsPath(policyId)}${seg(versionId)}/`;
    return this.gateway.send({ operation: 'getPolicyVersion', method: 'GET', path, schema: PolicyVersionSchema }, opts?.signal);
  }

  /** Adds a version; it becomes the current one and earlier versions stay. */
  createVersion(policyId: string, body: CreatePolicyVersionBody, opts?: WriteOptions): Promise<PolicyVersion> {
    const path = versionsPath(policyId);
    return this.gateway.send({ operation: 'createPolicyVersion', method: 'POST', path, json: body, schema: PolicyVersionSchema, target: { kind: 'policy', id: policyId }, ground: opts?.ground }, opts?.signal);
  }
}
