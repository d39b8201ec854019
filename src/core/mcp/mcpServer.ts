/**
 * The MCP server over the tool catalogue: lists the tools with their annotations, and calls them with
 * the confirmation MCP allows — elicitation where the client supports it, else a first call that answers
 * the plan and a second with `confirm: true`. Progress goes out as notifications when the client asked
 * for them; a cancelled request aborts the tool (which stops the jobs it started).
 */
import { ElicitationAnswerValidator } from './answerValidator';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { TOOLS, callTool, parseToolInput, planTool, toolErrorText, toolJsonSchema, type AnyTool, type ToolContext, type ToolResult } from '../tools';

/** What a call's context is made of, apart from the request's own signal and progress. */
export type McpCallContext = Omit<ToolContext, 'signal' | 'progress'>;

export interface McpOptions {
  /**
   * The client, folder, limits and user of a call, asked for at each call (a window's connection may
   * change while the server runs); throws when there is no connection, which the call answers as text.
   */
  context(): McpCallContext;
  readOnly: boolean;
  version: string;
  log: (line: string) => void;
}

/** The tools the server offers: all, or only the reads. */
export function offeredTools(readOnly: boolean): AnyTool[] {
  return TOOLS.filter((t) => !readOnly || t.kind === 'read');
}

/** A tool as MCP lists it. */
export function mcpTool(tool: AnyTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: toolJsonSchema(tool) as Tool['inputSchema'],
    annotations: { title: tool.title, readOnlyHint: tool.kind === 'read', destructiveHint: tool.kind === 'change', idempotentHint: tool.kind === 'read', openWorldHint: tool.name !== 'read_result_file' },
  };
}

function asResult(result: ToolResult): CallToolResult {
  return { content: [{ type: 'text', text: result.text }], structuredContent: result.data, isError: result.isError };
}

/** A new server (one per MCP session) over the shared client. */
export function createMcpServer(o: McpOptions): Server {
  const server = new Server({ name: 'agent-workbench', version: o.version }, { capabilities: { tools: {}, logging: {} }, jsonSchemaValidator: new ElicitationAnswerValidator(), instructions: 'Agent Workbench: agents, jobs, policies, datasets and tables of the agent platform. Reads are free; run_agent, run_comparison and try_policy_edit start paid jobs and publish_policy_edit and cancel_jobs change the organization: each answers its estimate or change first.' });
  const tools = offeredTools(o.readOnly);
  server.setRequestHandler(ListToolsRequestSchema, () => {
    o.log(`listed ${tools.length} tools${o.readOnly ? ' (read-only)' : ''}`);
    return { tools: tools.map(mcpTool) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = tools.find((t) => t.name === request.params.name);
    if (!tool) return asResult({ isError: true, text: `No such tool: ${request.params.name}${o.readOnly ? ' (the server is read-only)' : ''}.`, data: {} });
    let base: McpCallContext;
    try {
      base = o.context();
    } catch (error) {
      return asResult({ isError: true, text: `${error instanceof Error ? error.message : String(error)} Nothing was started.`, data: {} });
    }
    const ctx = callContext(base, extra, o.log);
    const started = Date.now();
    const confirmed = await askUser(server, tool, request.params.arguments, ctx);
    if (typeof confirmed === 'object') return asResult(confirmed);
    const result = await callTool(tool, request.params.arguments, ctx, confirmed);
    o.log(`${tool.name}: ${result.isError ? 'failed' : result.confirmation ? 'answered its plan' : 'done'} in ${Date.now() - started} ms`);
    return asResult(result);
  });
  return server;
}

type Extra = Parameters<Parameters<Server['setRequestHandler']>[1]>[1];

/** A call's context: the host's part, the request's signal, and progress notifications when the client asked for them. */
function callContext(base: McpCallContext, extra: Extra, log: (line: string) => void): ToolContext {
  const token = extra._meta?.progressToken;
  let step = 0;
  return {
    jobsStarted: (agentId, ids) => log(`started ${ids.length} job(s) of agent ${agentId}: ${ids.join(', ')}`),
    ...base,
    signal: extra.signal,
    progress:
      token === undefined
        ? undefined
        : (done, total, message) => {
            // Progress must increase with each notification, even when the count of finished jobs does not.
            step = Math.max(step + 0.001, done);
            void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: step, ...(total ? { total } : {}), message } }).catch(() => undefined);
          },
  };
}

/**
 * Confirmation by elicitation: for paid and changing tools when the client can be asked (and the call
 * does not carry `confirm: true` already). Answers true (the user agreed), false (ask the model's way:
 * the first call answers the plan), or a result to answer at once (declined, or the plan failed).
 */
async function askUser(server: Server, tool: AnyTool, raw: unknown, ctx: ToolContext): Promise<boolean | ToolResult> {
  if (tool.kind === 'read' || !server.getClientCapabilities()?.elicitation) return false;
  if ((raw as { confirm?: unknown } | undefined)?.confirm === true) return false;
  let text: string;
  try {
    const plan = await planTool(tool, parseToolInput(tool, raw), ctx);
    text = plan?.text ?? tool.title;
  } catch (error) {
    return { isError: true, text: toolErrorText(error, tool.name), data: {} };
  }
  const answer = await server.elicitInput({ message: `${tool.title}: ${text} Go ahead?`, requestedSchema: { type: 'object', properties: {} } }, { signal: ctx.signal });
  if (answer.action === 'accept') return true;
  return { isError: false, text: `The user ${answer.action === 'decline' ? 'declined' : 'cancelled'}: nothing was started or changed.`, data: { declined: true } };
}
