import { runCli } from './tryCommand';

/** The command line's entry: runs the command and exits with its code. */
void runCli(process.argv.slice(2), process.env, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
}).then((code) => {
  process.exitCode = code;
});
