/**
 * The tool catalogue: every tool, in the order a model meets them (reads, paid work, changes), and the
 * one way a host calls a tool — input checked by its schema, paid and changing work run only with a
 * confirmed plan (confirmation.ts asks), the session's job budget applied, every failure turned into a sentence.
 */
import * as z from 'zod';
import { describeAgent, findAgents } from './agentTools';
import { cancelJobsTool } from './cancelTools';
import { ruleCoverageTool } from './coverageTools';
import { listDatasets, listTables, queryTables } from './dataTools';
import { readResultFile } from './fileTools';
import { listJobs, readJobs } from './jobTools';
import { readPolicy } from './policyTools';
import { runAgent } from './runTools';
import { createTestSet, runComparison } from './testSetTools';
import { DeclinedAnswerSchema, PlanAnswerSchema } from './answerSchemas';
import { inputErrorText, toolErrorText } from './toolErrors';
import { budgetRefusal } from './jobBudget';
import { ToolRefusal, type AnyTool, type ConfirmedPlan, type ToolAnswer, type ToolContext, type ToolPlan } from './toolTypes';
import { confirmedGrounds } from '../writeGate/grounds';
import { publishAgentDraft, publishPolicyEdit, tryAgentDraftTool, tryPolicyEditTool } from './trialTools';

/** Every tool of the catalogue. */
export const TOOLS: readonly AnyTool[] = [
  findAgents,
  describeAgent,
  listJobs,
  readJobs,
  readPolicy,
  ruleCoverageTool,
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

/** The default most jobs the tools may start in a minute. */
export const DEFAULT_MAX_JOBS = 200;
/** The default most jobs the tools may start in one session (an MCP session, a VS Code window). */
export const DEFAULT_MAX_SESSION_JOBS = 1000;

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

/**
 * The JSON Schema of what a tool answers as data (MCP's output schema): its `output`, and for paid and
 * changing tools also the plan a first call answers and a declined plan. Errors carry no data to check.
 */
export function toolOutputJsonSchema(tool: AnyTool): Record<string, unknown> {
  const answers = tool.kind === 'read' ? (tool.output as z.ZodType) : z.union([tool.output as z.ZodType, PlanAnswerSchema, DeclinedAnswerSchema]);
  const schema = z.toJSONSchema(answers, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  // MCP wants an object schema at the root; a union of objects (anyOf) is one.
  return { type: 'object', ...schema };
}

/** What a call answered: text and data, or an error said as text; `confirmation` when paid or changing work waits for a yes. */
export interface ToolResult extends ToolAnswer {
  isError: boolean;
  /** Set when nothing ran because the user has yet to agree: what would run. */
  confirmation?: ToolPlan;
}

/** Checks the input against the tool's schema; throws a refusal naming the field. */
export function parseToolInput(tool: AnyTool, raw: unknown): unknown {
  const parsed = (tool.input as z.ZodType).safeParse(raw ?? {});
  if (!parsed.success) throw new ToolRefusal(inputErrorText(parsed.error, inputFields(tool), tool.name));
  return parsed.data;
}

/** The fields a tool's input takes. */
export function inputFields(tool: AnyTool): string[] {
  return tool.input instanceof z.ZodObject ? Object.keys(tool.input.shape) : [];
}

/** What a paid or changing call would do, refused when the session's job budget has no room for it (the refusal says the estimate). */
export async function planTool(tool: AnyTool, input: unknown, ctx: ToolContext): Promise<ToolPlan | undefined> {
  if (tool.kind === 'read' || !tool.plan) return undefined;
  const plan = await tool.plan(input, ctx);
  const problem = ctx.budget.problem(plan.jobs);
  if (problem) throw budgetRefusal(plan.text, plan.jobs, problem);
  return plan;
}

/**
 * Calls a tool. Reads run at once; paid and changing work runs only with the plan the user agreed to
 * (`confirmed`, which the host gives: MCP's confirmation module, VS Code's dialog) — never because the
 * input says so — and only when the session's job budget takes its jobs.
 */
export async function callTool(tool: AnyTool, raw: unknown, ctx: ToolContext, confirmed?: ConfirmedPlan): Promise<ToolResult> {
  try {
    const input = parseToolInput(tool, raw);
    if (tool.kind !== 'read' && tool.plan) {
      if (!confirmed) throw new ToolRefusal(`${tool.name} runs only once the user agreed to its plan. Nothing was started or changed.`);
      // Taken before the run starts, with no wait in between: calls sent together cannot all fit the same room.
      ctx.budget.take(confirmed.plan.jobs, confirmed.plan.text);
    }
    // What the user agreed to is the plan: its targets, and nothing else, may be written.
    const grounds = confirmed ? confirmedGrounds(ctx.client.gate, confirmed.plan.targets ?? [], `the confirmation of ${tool.title}`) : {};
    return { isError: false, ...(await tool.run(input, { ...ctx, grounds }, confirmed)) };
  } catch (error) {
    return errorResult(error, tool);
  }
}

/** A failure as a tool's answer: one sentence, and the refusal's data. */
export function errorResult(error: unknown, tool: AnyTool): ToolResult {
  return { isError: true, text: toolErrorText(error, tool.name), data: error instanceof ToolRefusal ? error.data : {} };
}
