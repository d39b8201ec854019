/** Paid work: run an agent (its current version or a chosen one) on one or many input sets; one call, one batch. */
import * as z from 'zod';
import { estimatePlan, estimateText } from '../comparison/costEstimate';
import type { RunPlan } from '../runs/runCheck';
import { startJobs } from '../runs/startJobs';
import { count, listText } from './answers';
import { defineTool, ToolRefusal, type ToolContext } from './toolTypes';

const inputSet = z.record(z.string().max(200), z.union([z.string(), z.number(), z.boolean(), z.record(z.string(), z.unknown()), z.array(z.unknown())]));

const RunInput = z.strictObject({
  agent_id: z.string().min(1).max(200).describe('The agent to run (from find_agents).'),
  version_id: z.string().min(1).max(200).optional().describe("A version of the agent to run instead of its current version."),
  inputs: z.array(inputSet).min(1).max(10_000).describe('One object per job: input key → text (or JSON for JSON inputs). describe_agent lists the keys. File inputs are not taken here.'),
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional().describe('Metadata of a single job (a batch carries none).'),
});
type RunInput = z.infer<typeof RunInput>;

/** The run plan of a call, its input keys checked against the version's definitions. */
async function planOf(i: RunInput, ctx: ToolContext): Promise<{ plan: RunPlan; agentName: string; versionName: string }> {
  const opts = { signal: ctx.signal };
  const agent = await ctx.client.agents.get(i.agent_id, opts);
  const version = i.version_id ? await ctx.client.agents.getVersion(i.agent_id, i.version_id, {}, opts) : await ctx.client.agents.currentVersion(i.agent_id, opts);
  const keys = new Set(version.input_definitions.map((d) => d.key));
  i.inputs.forEach((set, n) => {
    const unknown = Object.keys(set).filter((k) => !keys.has(k));
    if (unknown.length) throw new ToolRefusal(`\`inputs.${n}.${unknown[0]}\`: ${version.version_name} of ${agent.name} takes no input "${unknown[0]}" (it takes ${[...keys].join(', ') || 'none'}). Nothing was started.`);
  });
  const inputSets = i.inputs.map((set) => Object.fromEntries(Object.entries(set).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])));
  const batch = inputSets.length > 1;
  const plan: RunPlan = { agentId: i.agent_id, batch, inputSets, ...(i.version_id ? { versionId: i.version_id } : {}), ...(i.metadata && !batch ? { metadata: i.metadata } : {}) };
  return { plan, agentName: agent.name, versionName: version.version_name };
}

export const runAgent = defineTool({
  name: 'run_agent',
  title: 'Run an agent',
  kind: 'paid',
  description:
    'Starts jobs of an agent (its current version, or version_id) on input sets: one job per object in inputs, all in one call. Paid: each job uses tokens and credits, and nothing starts until the user agreed to the estimate (jobs, tokens, cost). Returns the new job ids; read them with read_jobs once finished.',
  input: RunInput,
  output: z.object({ agent_id: z.string(), job_ids: z.array(z.string()) }),
  needsTrust: true,
  async plan(i, ctx) {
    const { plan, agentName, versionName } = await planOf(i, ctx);
    const estimate = await estimatePlan(ctx.client, { agentId: i.agent_id, jobs: plan.inputSets.length, beforeJobIds: [] }, ctx.signal);
    return { text: `Run ${versionName} of ${agentName}: ${estimateText(estimate)}.`, jobs: estimate.jobs, data: { agent_id: i.agent_id, version: versionName, estimate }, targets: [{ kind: 'agent', id: i.agent_id }] };
  },
  async run(i, ctx) {
    const { plan, agentName, versionName } = await planOf(i, ctx);
    const ids = await startJobs(ctx.client, plan, ctx.signal, ctx.grounds?.agent?.(i.agent_id));
    ctx.jobsStarted?.(i.agent_id, ids, `${agentName} · ${versionName}`, plan.inputSets);
    return { text: listText(`Started ${count(ids.length, 'job')} of ${agentName} (${versionName}).`, ids, 'read_jobs reads them once finished; cancel_jobs stops them.'), data: { agent_id: i.agent_id, job_ids: ids } };
  },
});
