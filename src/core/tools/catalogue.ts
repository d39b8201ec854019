/**
 * The tool catalogue: every tool, in the order a model meets them (reads, paid work, changes), and the
 * one way a host calls a tool — input checked by its schema, paid and changing work planned and confirmed
 * first, the job limit applied, every failure turned into a sentence.
 */
import * as z from 'zod';
import { describeAgent, findAgents } from './agentTools';
import { cancelJobsTool } from './cancelTools';
import { listDatasets, listTables, queryTables } from './dataTools';
import { readResultFile } from './fileTools';
import { listJobs, readJobs } from './jobTools';
import { readPolicy } from './policyTools';
import { runAgent } from './runTools';
import { createTestSet, runComparison } from './testSetTools';
import { inputErrorText, toolErrorText } from './toolErrors';
import { ToolRefusal, type AnyTool, type ToolAnswer, type ToolContext, type ToolPlan } from './toolTypes';
import { confirmedGrounds } from '../writeGate/grounds';
import { publishAgentDraft, publishPolicyEdit, tryAgentDraftTool, tryPolicyEditTool } from './trialTools';

/** Every tool of the catalogue. */
export const TOOLS: readonly AnyTool[] = [
  findAgents,
  describeAgent,
  listJobs,
  readJobs,
  readPolicy,
  listDatasets,
  listTables,
  queryTables,
  readResultFile,
  runAgent,
  createTestSet,
  runComparison,
  tryPolicyEditTool,
  publishPolicyEdit,
  tryAgentDraftTool,
  publishAgentDraft,
  cancelJobsTool,
];

/** The default most jobs one call may start. */
export const DEFAULT_MAX_JOBS = 200;

/** A tool by name. */
export function toolNamed(name: string): AnyTool | undefined {
  return TOOLS.find((t) => t.name === name);
}

/** A tool's input schema as JSON Schema (draft 2020-12, as MCP and VS Code take it). */
export function toolJsonSchema(tool: AnyTool): Record<string, unknown> {
  const schema = z.toJSONSchema(tool.input as z.ZodType, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/** What a call answered: text and data, or an error said as text; `confirmation` when paid or changing work waits for a yes. */
export interface ToolResult extends ToolAnswer {
  isError: boolean;
  /** Set when nothing ran because the call was not confirmed: what would run. */
  confirmation?: ToolPlan;
}

/** Checks the input against the tool's schema; throws a refusal naming the field. */
export function parseToolInput(tool: AnyTool, raw: unknown): unknown {
  const parsed = (tool.input as z.ZodType).safeParse(raw ?? {});
  if (!parsed.success) throw new ToolRefusal(inputErrorText(parsed.error));
  return parsed.data;
}

/** What a paid or changing call would do, with the job limit applied (a refusal says the estimate). */
export async function planTool(tool: AnyTool, input: unknown, ctx: ToolContext): Promise<ToolPlan | undefined> {
  if (tool.kind === 'read' || !tool.plan) return undefined;
  const plan = await tool.plan(input, ctx);
  if (plan.jobs > ctx.maxJobs) throw new ToolRefusal(`Refused: ${plan.text} That is over the limit of ${ctx.maxJobs} jobs a call may start (raise it with the setting agentWorkbench.tools.maxJobs or --max-jobs). Nothing was started.`, { plan: plan.data, jobs: plan.jobs, max_jobs: ctx.maxJobs });
  return plan;
}

/**
 * Calls a tool. Paid and changing work runs only when `confirmed` (the host asked the user) or the input
 * carries `confirm: true` (a client that cannot ask: the first call answered the plan); otherwise the
 * answer is the plan and nothing starts.
 */
export async function callTool(tool: AnyTool, raw: unknown, ctx: ToolContext, confirmed = false): Promise<ToolResult> {
  try {
    const input = parseToolInput(tool, raw);
    const plan = await planTool(tool, input, ctx);
    if (plan && !confirmed && (input as { confirm?: boolean }).confirm !== true) {
      return { isError: false, confirmation: plan, text: `Not started yet: ${plan.text}\nAsk the user; if they agree, call ${tool.name} again with the same input and confirm: true.`, data: { needs_confirmation: true, plan: plan.data, jobs: plan.jobs } };
    }
    // What the user agreed to is the plan: its targets, and nothing else, may be written.
    const grounds = plan ? confirmedGrounds(ctx.client.gate, plan.targets ?? [], `the confirmation of ${tool.title}`) : {};
    return { isError: false, ...(await tool.run(input, { ...ctx, grounds })) };
  } catch (error) {
    return { isError: true, text: toolErrorText(error, tool.name), data: error instanceof ToolRefusal ? error.data : {} };
  }
}
