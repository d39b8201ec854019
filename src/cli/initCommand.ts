/**
 * `agent-workbench init`: starts a folder for trying policy edits without the editor, with the demo's
 * labelled test set, the demo policy with an edit under review, and a README saying how to run it
 * against the sandbox (`agent-workbench sandbox`) or a service. Needs no connection; writes nothing over
 * a file that is there unless `--force`.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeConfined } from '../core/confinedWrite';
import { INIT_TRY, initFiles } from './initFiles';
import type { CliIo } from './tryCommand';
import { parseCommandArgs } from './usageError';

export const INIT_USAGE = `Usage: agent-workbench init [--force]

Starts the current folder (best an empty one) for trying policy edits in CI, with the demo's files:
  README.md                             how to try the edit against the local sandbox, or your service
  .env.example, .gitignore              the connection's variables; sandbox.json, .env and trial/ kept out of git
  cases/support-call-qa.testset.jsonl   a dozen calls of the sandbox's Support Call QA, each labelled
  policies/quality.policy.json          the sandbox's demo policy with one edit under review

Options:
  --force       replace those files when they exist (without it nothing is written when one exists)
  --help        show this text

Needs no connection. Exit code: 0 when the files were written, 2 when they were not (the reason on stderr).`;

/** Runs `init` with its arguments (after the command name); answers the exit code. */
export async function runInit(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs({ args: [...args], strict: true, options: { force: { type: 'boolean' }, help: { type: 'boolean' } } });
  if (values.help) {
    io.out(INIT_USAGE);
    return 0;
  }
  const root = io.cwd ?? process.cwd();
  const files = initFiles();
  const there: string[] = [];
  for (const file of Object.keys(files)) if (await fs.lstat(path.join(root, file)).catch(() => undefined)) there.push(file);
  if (there.length && !values.force) {
    io.err(`agent-workbench init: ${there.join(', ')} ${there.length === 1 ? 'is' : 'are'} there already, so nothing was written: run it in an empty folder, or give --force to replace ${there.length === 1 ? 'it' : 'them'}.`);
    return 2;
  }
  try {
    // Each whole or not at all, inside this folder, never through a link (and never over a file that appeared meanwhile, without --force).
    for (const [file, text] of Object.entries(files)) await writeConfined(root, file, text, { exclusive: !values.force });
  } catch (error) {
    io.err(`agent-workbench init: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  io.out(`Wrote ${Object.keys(files).join(', ')}.`);
  io.out(`Next: start the sandbox (npx agent-workbench sandbox), set the variables it prints, and run ${INIT_TRY.replace(/^npx /, '')} — README.md has the lines to copy.`);
  return 0;
}
