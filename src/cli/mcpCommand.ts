/**
 * `agent-workbench mcp`: the tool catalogue as an MCP server, over stdio (the default: a client starts it)
 * or Streamable HTTP on 127.0.0.1 (`--port`). The connection comes from the environment as for `try`;
 * stdout carries only the protocol, logs go to stderr.
 */
import * as path from 'node:path';
import type { ServiceClient } from '../core/client';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { DEFAULT_MAX_JOBS, DEFAULT_MAX_SESSION_JOBS, type JobLimits } from '../core/tools';
import { CONNECTION_ENV, clientFromEnv, type Env } from './environment';
import { newServerToken, serveHttp } from '../core/mcp/mcpHttp';
import { createMcpServer, type McpCallContext, type McpOptions } from '../core/mcp/mcpServer';
import { writeTokenFile } from './mcpToken';
import type { CliIo } from './tryCommand';
import { parseCommandArgs, UsageError } from './usageError';

export const MCP_USAGE = `Usage: agent-workbench mcp [--port N [--token-env VAR]] [--read-only] [--root FOLDER] [--max-jobs N] [--max-session-jobs N]

Serves Agent Workbench's tools (find agents, read jobs, run agents, try a policy edit, …) to an MCP
client. Paid and changing tools ask the user first: through the client (elicitation) where it can, else
their first call answers the plan and a confirmation_id, and only a second call with that id and the
same input does the work (once, within 5 minutes).

Options:
  --port N          serve Streamable HTTP on http://127.0.0.1:N/mcp instead of stdio (0: a free port);
                    clients must send "Authorization: Bearer <token>": a new random token written to a
                    file only you can read (its path is printed; removed when the server stops)
  --token-env VAR   with --port: the token is the value of VAR instead (a token of this server's own)
  --read-only       offer only the tools that read
  --root FOLDER     the folder tool paths (test sets, policy files) must stay in (default: the current folder)
  --max-jobs N      the most jobs the tools may start in any one minute (default ${DEFAULT_MAX_JOBS})
  --max-session-jobs N  the most jobs they may start in one session (default ${DEFAULT_MAX_SESSION_JOBS})
  --help            show this text

${CONNECTION_ENV}
Logs go to stderr; stdout is the protocol's.`;

/** Runs `mcp` until the client goes (stdio) or the process is stopped (HTTP); answers the exit code. */
export async function runMcp(args: readonly string[], env: Env, io: CliIo, version: string): Promise<number> {
  const { values } = parseCommandArgs({ args: [...args], strict: true, options: { port: { type: 'string' }, 'token-env': { type: 'string' }, 'read-only': { type: 'boolean' }, root: { type: 'string' }, 'max-jobs': { type: 'string' }, 'max-session-jobs': { type: 'string' }, 'poll-ms': { type: 'string' }, help: { type: 'boolean' } } });
  if (values.help) {
    io.out(MCP_USAGE);
    return 0;
  }
  const limits: JobLimits = {
    perMinute: wholeNumber('--max-jobs', values['max-jobs']) ?? DEFAULT_MAX_JOBS,
    perSession: wholeNumber('--max-session-jobs', values['max-session-jobs']) ?? DEFAULT_MAX_SESSION_JOBS,
    raise: { perMinute: 'the option --max-jobs of agent-workbench mcp', perSession: 'the option --max-session-jobs of agent-workbench mcp' },
  };
  const port = wholeNumber('--port', values.port, 65535);
  const token = values['token-env'] ? env[values['token-env']] : undefined;
  if (values['token-env'] && !token) throw new UsageError(`${values['token-env']} (--token-env) is not set.`);
  // Without a connection the server still starts: a client that started it must hear why, from each call.
  let client: ServiceClient | undefined;
  let missing = '';
  try {
    client = clientFromEnv(env, 'agent-workbench-mcp');
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    missing = noConnectionText(error.message.replace(/\.$/, ''));
  }
  const call = { root: path.resolve(values.root ?? '.'), user: env.AGENT_WORKBENCH_USER ?? 'mcp', pollMs: values['poll-ms'] ? Number(values['poll-ms']) : undefined };
  const context = (): McpCallContext => {
    if (!client) throw new Error(missing);
    return { ...call, client };
  };
  const options: McpOptions = { context, limits: () => limits, readOnly: values['read-only'] === true, version, log: (line: string) => io.err(`agent-workbench mcp: ${line}`) };
  // A client that started the server without the connection must still hear why: the server starts, lists its
  // tools and answers every call with what to set, where an exit would show it only "Connection closed".
  if (!client) options.log(`${missing} Serving anyway: every tool call answers this.`);
  if (port === undefined) {
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
    await createMcpServer(options).connect(transport);
    options.log(`serving ${options.readOnly ? 'the read-only tools' : 'the tools'} over stdio (root ${call.root})`);
    await Promise.race([closed, new Promise<void>((resolve) => process.stdin.once('end', resolve))]);
    await client?.close();
    return 0;
  }
  await serveUntilStopped(port, token, options, io, env);
  await client?.close();
  return 0;
}

/** An option's whole number (undefined when not given); a `UsageError` for anything else. */
function wholeNumber(option: string, text: string | undefined, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim()) || Number(text) > max) throw new UsageError(`${option} takes a whole number${max < Number.MAX_SAFE_INTEGER ? ` from 0 to ${max}` : ''}, not "${text}".`);
  return Number(text);
}

/** What a tool call is answered when the server has no connection: what to set, and where. */
function noConnectionText(problem: string): string {
  return `Agent Workbench has no connection: ${problem} in the environment the MCP client starts agent-workbench mcp with (agent-workbench sandbox --memory prints all three for a local sandbox).`;
}

/** Serves HTTP until SIGINT or SIGTERM, with the token given, else a new one written to a file only this user reads. */
async function serveUntilStopped(port: number, given: string | undefined, options: McpOptions, io: CliIo, env: Env): Promise<void> {
  const token = given ?? newServerToken();
  const tokenFile = given ? undefined : await writeTokenFile(token, env);
  const http = await serveHttp({ port, token, makeServer: () => createMcpServer(options), log: options.log });
  // The one line a script reads to find the server (like the sandbox's ready line): the token's file, never the token.
  io.out(JSON.stringify({ url: http.url, ...(tokenFile ? { token_file: tokenFile.file } : {}) }));
  options.log(`serving ${options.readOnly ? 'the read-only tools' : 'the tools'} at ${http.url}; clients send "Authorization: Bearer <token>" with ${tokenFile ? `the token in ${tokenFile.file} (readable by you only; removed when the server stops)` : 'the token of --token-env'}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await http.close();
  await tokenFile?.remove();
}
