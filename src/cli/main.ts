import { runCli } from './cli';
import { nodeProcess } from './stopSignals';

/** The command line's entry: runs the command and exits with its code. */
void runCli(process.argv.slice(2), process.env, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
}, nodeProcess()).then((code) => {
  process.exitCode = code;
  // An MCP server over stdio ends when its client goes; nothing else may keep the process alive.
  if (process.argv[2] === 'mcp') process.exit(code);
});
