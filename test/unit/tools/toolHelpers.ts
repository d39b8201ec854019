import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ServiceClient } from '../../../src/core/client';
import { callTool, toolNamed, type ToolContext, type ToolResult } from '../../../src/core/tools';

/** A tool context over a sandbox client, rooted in a fresh temp folder. */
export async function toolContext(client: ServiceClient, overrides: Partial<ToolContext> = {}): Promise<ToolContext> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'aw-tools-')));
  return { client, root, maxJobs: 200, signal: new AbortController().signal, user: 'tester', pollMs: 60, ...overrides };
}

/** Calls a tool of the catalogue by name. */
export function call(ctx: ToolContext, name: string, input: unknown, confirmed = false): Promise<ToolResult> {
  const tool = toolNamed(name);
  if (!tool) throw new Error(`no tool ${name}`);
  return callTool(tool, input, ctx, confirmed);
}

/** The result's text when it succeeded, else fails with its text. */
export function ok(result: ToolResult): ToolResult {
  if (result.isError) throw new Error(`tool failed: ${result.text}`);
  return result;
}
