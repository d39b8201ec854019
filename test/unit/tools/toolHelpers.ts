import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ServiceClient } from '../../../src/core/client';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { CONFIRMATION_ID, Confirmations, JobBudget, toolNamed, toolOutputJsonSchema, type AnyTool, type JobLimits, type ToolContext, type ToolResult } from '../../../src/core/tools';

/** Job limits of a test: a minute's and a session's, raised with options named after them. */
export function limits(perMinute = 200, perSession = 1000): JobLimits {
  return { perMinute, perSession, raise: { perMinute: '--max-jobs', perSession: '--max-session-jobs' } };
}

/** A tool context over a sandbox client, rooted in a fresh temp folder, with a budget of its own. */
export async function toolContext(client: ServiceClient, overrides: Partial<ToolContext> = {}): Promise<ToolContext> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'aw-tools-')));
  return { client, root, budget: new JobBudget(() => limits()), signal: new AbortController().signal, user: 'tester', pollMs: 60, ...overrides };
}

/**
 * Calls a tool of the catalogue by name as a client that cannot ask the user: a read answers, paid or
 * changing work answers its plan; `confirmed`: and then, as a user who agreed, calls again with the
 * confirmation id the plan came with.
 */
export async function call(ctx: ToolContext, name: string, input: Record<string, unknown>, confirmed = false): Promise<ToolResult> {
  const tool = toolNamed(name);
  if (!tool) throw new Error(`no tool ${name}`);
  const confirmations = new Confirmations();
  const first = checkedAnswer(tool, await confirmations.call(tool, input, ctx));
  const id = first.data[CONFIRMATION_ID];
  return confirmed && typeof id === 'string' ? checkedAnswer(tool, await confirmations.call(tool, { ...input, [CONFIRMATION_ID]: id }, ctx)) : first;
}

const ajv = addFormats(new Ajv({ strict: false }));
const validators = new Map<string, ValidateFunction>();

/** The answer, once its data is checked against the tool's output schema as an MCP client checks it (Ajv, as the SDK's); errors carry none. */
export function checkedAnswer(tool: AnyTool, result: ToolResult): ToolResult {
  if (result.isError) return result;
  let validate = validators.get(tool.name);
  if (!validate) validators.set(tool.name, (validate = ajv.compile(toolOutputJsonSchema(tool))));
  if (!validate(JSON.parse(JSON.stringify(result.data)))) throw new Error(`${tool.name} answered data its output schema refuses: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(result.data).slice(0, 2000)}`);
  return result;
}

/** The result's text when it succeeded, else fails with its text. */
export function ok(result: ToolResult): ToolResult {
  if (result.isError) throw new Error(`tool failed: ${result.text}`);
  return result;
}
