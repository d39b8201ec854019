/** The command line's commands and their help: `agent-workbench <command> [options]`. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLEAN_UP_USAGE, runCleanUp } from './cleanUpCommand';
import { COVERAGE_USAGE, runCoverage } from './coverageCommand';
import type { Env } from './environment';
import { CONNECTION_ENV } from './environment';
import { EXPORT_POLICY_USAGE, runExportPolicy } from './exportPolicyCommand';
import { INIT_USAGE, runInit } from './initCommand';
import { MCP_USAGE, runMcp } from './mcpCommand';
import { SANDBOX_USAGE, runSandbox } from './sandboxCommand';
import type { CliProcess } from './stopSignals';
import { TRY_USAGE, runTry, type CliIo } from './tryCommand';
import { UsageError, usageErrorText } from './usageError';

export type { CliIo };

export const USAGE = `Usage: agent-workbench <command> [options]

Agent Workbench on the command line: try policy edits in CI, serve the tools to coding agents, run the local sandbox.

Commands:
  init           start a folder with the demo's test set and policy file, and how to try it
  export-policy  write a policy's current version as <name>.policy.json, to edit and try
  try            try a policy edit on a test set on copies, and fail when an expected outcome changes
  coverage       which rules of a policy a test set exercises, read from its newest comparison
  clean-up       list the trial copies a stopped or crashed try left, and remove them with --yes
  mcp            serve the tools (find agents, read jobs, run, try, publish, …) to an MCP client
  sandbox        start the local sandbox of the service (no account needed)
  help           show this text, or a command's (agent-workbench help try)

agent-workbench <command> --help shows a command's options.
${CONNECTION_ENV}`;

const HELP: Record<string, string> = { init: INIT_USAGE, 'export-policy': EXPORT_POLICY_USAGE, try: TRY_USAGE, coverage: COVERAGE_USAGE, 'clean-up': CLEAN_UP_USAGE, mcp: MCP_USAGE, sandbox: SANDBOX_USAGE };

/** The version of the package this command line came in. */
export function cliVersion(): string {
  for (const file of [path.join(__dirname, '..', 'package.json'), path.join(__dirname, '..', '..', 'package.json')]) {
    try {
      const json = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (json.name === 'agent-workbench' && json.version) return json.version;
    } catch {
      // Not there: the next place.
    }
  }
  return '0.0.0';
}

/** Runs a command line; answers the exit code (2 for a usage error). `host`: the process's stop signals, for the commands that clean up when stopped. */
export async function runCli(argv: readonly string[], env: Env, io: CliIo, host?: CliProcess): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h') {
    io[command ? 'out' : 'err'](USAGE);
    return command ? 0 : 2;
  }
  if (command === '--version' || command === '-v') {
    io.out(cliVersion());
    return 0;
  }
  if (command === 'help') {
    io.out(HELP[rest[0] ?? ''] ?? USAGE);
    return 0;
  }
  if (!Object.hasOwn(HELP, command)) {
    io.err(usageErrorText(undefined, `there is no command "${command}".`));
    return 2;
  }
  try {
    if (command === 'init') return await runInit(rest, io);
    if (command === 'export-policy') return await runExportPolicy(rest, env, io);
    if (command === 'try') return await runTry(rest, env, io, host);
    if (command === 'coverage') return await runCoverage(rest, env, io);
    if (command === 'clean-up') return await runCleanUp(rest, env, io);
    if (command === 'mcp') return await runMcp(rest, env, io, cliVersion());
    return await runSandbox(rest, (line) => io.out(line), (line) => io.err(line));
  } catch (error) {
    // A mistake in the call (an option, a missing variable): one line, and where the command's help is.
    if (error instanceof UsageError) {
      io.err(usageErrorText(command, error.message));
      return 2;
    }
    io.err(`agent-workbench ${command}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
}
