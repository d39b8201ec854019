/** Reads of agents: find them, describe one (versions, current version, input definitions). */
import * as z from 'zod';
import { AgentVersionDraftSchema, draftFromVersion } from '../documents/agentVersionDraft';
import { isServiceError, tagNames } from '../client';
import { count, listText } from './answers';
import { defineTool, type ToolContext } from './toolTypes';

const nullableText = z.string().nullable();

const FoundAgents = z.object({
  agents: z.array(z.object({ id: z.string(), name: z.string(), engine: z.string(), job_count: z.number().nullable(), current_version_id: nullableText, tags: z.array(z.string()) })),
});

/** The policy an agent version applies, as a reader needs it: its name and current version (read_policy reads its content). */
const AppliedPolicySchema = z.object({
  id: z.string(),
  /** Null when the policy cannot be read (removed since, or not this organization's). */
  name: nullableText,
  current_version: z.object({ id: z.string(), name: nullableText }).nullable(),
});
type AppliedPolicy = z.infer<typeof AppliedPolicySchema>;

const AgentDescription = z.object({
  agent: z.object({ id: z.string(), name: z.string(), engine: z.string(), description: nullableText, job_count: z.number().nullable() }),
  current_version_id: nullableText,
  policy_id: nullableText,
  policy: AppliedPolicySchema.nullable(),
  inputs: z.array(z.object({ key: z.string(), data_type: z.string(), description: nullableText, example: nullableText })),
  versions: z.array(z.object({ id: z.string(), name: z.string(), created_at: z.string() })),
  // What try_agent_draft takes, to change and try.
  next_version_draft: z.nullable(AgentVersionDraftSchema),
});

export const findAgents = defineTool({
  name: 'find_agents',
  title: 'Find agents',
  kind: 'read',
  description:
    'Finds agents of the organization by name or description text, engine or tag. Returns each agent\'s id, name, engine, job count and tags (the id is what the other tools take). Reads only; costs nothing. Trial copies (names with "· trial") are left out unless include_trials is true.',
  input: z.strictObject({
    search: z.string().max(200).optional().describe('Text the agent name or description contains.'),
    engine: z.string().max(200).optional().describe('Engine class id, e.g. "demo-review".'),
    tag: z.string().max(200).optional().describe('A tag name the agent carries.'),
    include_trials: z.boolean().optional().describe('Also list trial copies of agents.'),
    limit: z.number().int().min(1).max(200).default(50).describe('The most agents to answer.'),
  }),
  output: FoundAgents,
  reads: (i) => `agents${i.search ? ` matching “${i.search}”` : ''}`,
  async run(i, ctx) {
    const found = [];
    for await (const agent of ctx.client.agents.items({ search: i.search, engine_class_id: i.engine, page_size: 100 }, { signal: ctx.signal })) {
      if (!i.include_trials && / · trial /.test(agent.name)) continue;
      const tags = tagNames(agent.tags);
      if (i.tag && !tags.some((t) => t.toLowerCase() === i.tag!.toLowerCase())) continue;
      found.push({ id: agent.id, name: agent.name, engine: agent.engine_class_id, job_count: agent.job_count ?? null, current_version_id: agent.current_version_id, tags });
      if (found.length >= i.limit) break;
    }
    const text = listText(`${count(found.length, 'agent')} found.`, found.map((a) => `${a.name} (${a.id}) · ${a.engine}${a.job_count !== null ? ` · ${count(a.job_count, 'job')}` : ''}${a.tags.length ? ` · tags ${a.tags.join(', ')}` : ''}`), 'Use describe_agent for versions and inputs, list_jobs for its jobs.');
    return { text, data: { agents: found } };
  },
});

export const describeAgent = defineTool({
  name: 'describe_agent',
  title: 'Describe an agent',
  kind: 'read',
  description:
    'Describes one agent: its versions (id, name, date), which one is current (the one its jobs run), the inputs the current version takes (key, type, description, example) and the policy it applies (id, name, current version); as data, a draft of its next version (the current one’s engine_config and input_definitions) that try_agent_draft takes once changed. Reads only; costs nothing.',
  input: z.strictObject({ agent_id: z.string().min(1).max(200).describe('The agent id (from find_agents).') }),
  output: AgentDescription,
  reads: (i) => `agent ${i.agent_id} and its versions`,
  async run(i, ctx) {
    const opts = { signal: ctx.signal };
    const [agent, versions] = await Promise.all([ctx.client.agents.get(i.agent_id, opts), ctx.client.agents.listVersions(i.agent_id, opts)]);
    const current = versions.find((v) => v.id === agent.current_version_id);
    const inputs = (current?.input_definitions ?? []).map((d) => ({ key: d.key, data_type: d.data_type ?? 'text/plain', description: d.description ?? null, example: d.example ?? null }));
    const config = current?.engine_config as { policy_id?: unknown } | null | undefined;
    const policyId = typeof config?.policy_id === 'string' ? config.policy_id : null;
    const policy = policyId ? await appliedPolicy(ctx, policyId) : null;
    const lines = [
      `${agent.name} (${agent.id}) · engine ${agent.engine_class_id}${agent.job_count != null ? ` · ${count(agent.job_count, 'job')}` : ''}`,
      `Current version: ${current ? `${current.version_name} (${current.id})` : 'none'}${policy ? ` · applies ${policyText(policy)}` : ''}`,
      `Inputs: ${inputs.map((d) => `${d.key} (${d.data_type})`).join(', ') || 'none'}`,
      listText(`${count(versions.length, 'version')}:`, versions.map((v) => `${v.version_name} (${v.id}) · ${v.created_at}${v.id === agent.current_version_id ? ' · current' : ''}`)),
    ];
    return {
      text: lines.join('\n'),
      data: {
        agent: { id: agent.id, name: agent.name, engine: agent.engine_class_id, description: agent.description ?? null, job_count: agent.job_count ?? null },
        current_version_id: agent.current_version_id,
        policy_id: policyId,
        policy,
        inputs,
        versions: versions.map((v) => ({ id: v.id, name: v.version_name, created_at: v.created_at })),
        next_version_draft: current ? draftFromVersion(current) : null,
      },
    };
  },
});

async function appliedPolicy(ctx: ToolContext, policyId: string): Promise<AppliedPolicy> {
  const opts = { signal: ctx.signal };
  try {
    const policy = await ctx.client.policies.get(policyId, opts);
    const versionId = policy.current_version_id;
    const version = versionId ? await ctx.client.policies.getVersion(policyId, versionId, opts) : undefined;
    return { id: policy.id, name: policy.name, current_version: version ? { id: version.id, name: version.version_name ?? null } : null };
  } catch (error) {
    // A policy gone since the version was made is said as such; the description of the agent still stands.
    if (isServiceError(error) && error.status === 404) return { id: policyId, name: null, current_version: null };
    throw error;
  }
}

function policyText(p: AppliedPolicy): string {
  if (p.name === null) return `policy ${p.id} (not found: removed since?)`;
  const version = p.current_version ? `, current version ${p.current_version.name ?? 'unnamed'} (${p.current_version.id})` : ', no version yet';
  return `policy ${p.name} (${p.id})${version}`;
}
