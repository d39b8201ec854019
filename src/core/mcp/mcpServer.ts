/**
 * The MCP server over the tool catalogue: lists the tools with their annotations, and calls them with
 * the confirmation MCP allows (confirmation.ts) — elicitation where the client supports it, always; else
 * a first call that answers the plan and a one-time confirmation id. Each session has its own job budget
 * and confirmations. Progress goes out as notifications when the client asked for them; a cancelled
 * request aborts the tool (which stops the jobs it started).
 */
import { ElicitationAnswerValidator } from './answerValidator';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { Confirmations, JobBudget, TOOLS, toolJsonSchema, toolOutputJsonSchema, withConfirmationId, type AnyTool, type AskUser, type JobLimits, type ToolContext, type ToolResult } from '../tools';

/** What a call's context is made of, apart from the request's own signal and progress and the session's budget. */
export type McpCallContext = Omit<ToolContext, 'signal' | 'progress' | 'budget'>;

export interface McpOptions {
  /**
   * The client, folder, limits and user of a call, asked for at each call (a window's connection may
   * change while the server runs); throws when there is no connection, which the call answers as text.
   */
  context(): McpCallContext;
  /** The job limits of a session (asked at each check: a setting may change). */
  limits(): JobLimits;
  readOnly: boolean;
  version: string;
  log: (line: string) => void;
  /** The clock of the session's budget and confirmations (tests pass a fake one). */
  now?: () => number;
}

const INSTRUCTIONS =
  'Agent Workbench: agents, jobs, policies, datasets and tables of the agent platform. Reads are free. run_agent, run_comparison, try_policy_edit and try_agent_draft start paid jobs; create_test_set writes a file; publish_policy_edit, publish_agent_draft and cancel_jobs change the organization. Before any of those the server asks the user where the client can be asked; elsewhere the first call answers the plan and a confirmation_id: show the plan to the user and call again with it only once they agree.';

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
    inputSchema: withConfirmationId(tool, toolJsonSchema(tool)) as Tool['inputSchema'],
    outputSchema: toolOutputJsonSchema(tool) as Tool['outputSchema'],
    annotations: { title: tool.title, readOnlyHint: tool.kind === 'read', destructiveHint: tool.kind === 'change', idempotentHint: tool.kind === 'read', openWorldHint: tool.name !== 'read_result_file' },
  };
}

/**
 * A call's answer as MCP has it: the text, and the data as structured content, which matches the tool's
 * output schema (as JSON: what the wire carries, with no undefined left in it). An error is the text alone:
 * it is no answer of the tool's to check against its schema.
 */
function asResult(result: ToolResult): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: result.text }];
  if (result.isError) return { content, isError: true };
  return { content, structuredContent: JSON.parse(JSON.stringify(result.data)) as Record<string, unknown>, isError: false };
}

/**
 * A call naming no tool of this server: the JSON-RPC error -32602 "Unknown tool: x". (The SDK's McpError
 * would send its own "MCP error -32602: " before the message, which the client adds again.)
 */
class UnknownTool extends Error {
  readonly code = ErrorCode.InvalidParams;
  constructor(name: string, readOnly: boolean) {
    super(`Unknown tool: ${name}${readOnly ? ' (this server is read-only: it offers only the tools that read)' : ''}`);
  }
}

/** A new server (one per MCP session) over the shared client, with the session's own job budget and confirmations. */
export function createMcpServer(o: McpOptions): Server {
  const budget = new JobBudget(() => o.limits(), o.now);
  const confirmations = new Confirmations(o.now);
  const server = new Server({ name: 'agent-workbench', version: o.version }, { capabilities: { tools: {}, logging: {} }, jsonSchemaValidator: new ElicitationAnswerValidator(), instructions: INSTRUCTIONS });
  const tools = offeredTools(o.readOnly);
  server.setRequestHandler(ListToolsRequestSchema, () => {
    o.log(`listed ${tools.length} tools${o.readOnly ? ' (read-only)' : ''}`);
    return { tools: tools.map(mcpTool) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = tools.find((t) => t.name === request.params.name);
    // Not a tool's failure but a request naming no tool: a JSON-RPC error, as the specification has it.
    if (!tool) throw new UnknownTool(request.params.name, o.readOnly && TOOLS.some((t) => t.name === request.params.name));
    let base: McpCallContext;
    try {
      base = o.context();
    } catch (error) {
      return asResult({ isError: true, text: `${error instanceof Error ? error.message : String(error)} Nothing was started.`, data: {} });
    }
    const ctx = { ...callContext(base, extra, o.log), budget };
    const started = Date.now();
    const result = await confirmations.call(tool, request.params.arguments, ctx, server.getClientCapabilities()?.elicitation ? elicitation(server) : undefined);
    o.log(`${tool.name}: ${result.isError ? 'failed' : result.confirmation ? 'answered its plan' : 'done'} in ${Date.now() - started} ms`);
    return asResult(result);
  });
  return server;
}

type Extra = Parameters<Parameters<Server['setRequestHandler']>[1]>[1];

/** A call's context: the host's part, the request's signal, and progress notifications when the client asked for them. */
function callContext(base: McpCallContext, extra: Extra, log: (line: string) => void): Omit<ToolContext, 'budget'> {
  const token = extra._meta?.progressToken;
  let sent = -1;
  return {
    jobsStarted: (agentId, ids) => log(`started ${ids.length} job(s) of agent ${agentId}: ${ids.join(', ')}`),
    ...base,
    signal: extra.signal,
    progress:
      token === undefined
        ? undefined
        : (done, total, message) => {
            // In jobs: progress is the jobs final, total the jobs. MCP wants progress to increase with every
            // notification, so one goes out only when the count moved on (never the same value twice).
            if (done <= sent) return;
            sent = done;
            void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: done, ...(total ? { total } : {}), message } }).catch(() => undefined);
          },
  };
}

/** Asks the user through the client (elicitation): the tool, its plan, go ahead or not. */
function elicitation(server: Server): AskUser {
  return async (tool, plan, signal) => {
    const answer = await server.elicitInput({ message: `${tool.title}: ${plan.text} Go ahead?`, requestedSchema: { type: 'object', properties: {} } }, { signal });
    return answer.action;
  };
}
