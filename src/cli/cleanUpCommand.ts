/**
 * `agent-workbench clean-up [--yes]`: the trial copies a stopped or crashed `try` left on the service,
 * found by the marker the service holds in their description (the core's `findLeftovers`, for this
 * user only), never by the ids a file names. It lists them; with `--yes` it removes them, each read
 * again first and removed only while the service still marks it (`removeLeftovers`).
 */
import { findLeftovers, removeLeftovers } from '../core/trial/trialEnd';
import { describeCopy, describeLeftAlone, planLeftoverRemoval, type LeftAlone } from '../core/trial/trialRemoval';
import { CONNECTION_ENV, clientFromEnv, type Env } from './environment';
import { signedInTrialUser } from '../core/trial/trialOwnership';
import type { CliIo } from './tryCommand';
import { parseCommandArgs } from './usageError';

export const CLEAN_UP_USAGE = `Usage: agent-workbench clean-up [--yes]

Lists the trial copies a stopped or crashed try left on the service: the agents and policies whose
description marks them as a trial copy of the signed-in user (the token's), anywhere in the organization (found by that mark,
never by the ids a file names). With --yes it removes them: each is read again first and removed only
while the service still marks it. Real agents and policies, unmarked agents and other users' copies are
never touched. It cannot tell a running trial's copies from a stopped one's: run it when no try with
the same token is running (give parallel CI pipelines tokens of their own to keep them apart).

Options:
  --yes         remove the copies listed (without it nothing is removed)
  --help        show this text

${CONNECTION_ENV}
Exit code: 0 when no trial copy is left (or --yes removed every one), 1 when copies are listed but not removed (no --yes),
2 on a usage or connection error, 3 when some were left alone (said on stderr with the reason), the others removed with --yes.`;

/** Runs `clean-up` with its arguments (after the command name); answers the exit code. */
export async function runCleanUp(args: readonly string[], env: Env, io: CliIo): Promise<number> {
  const { values } = parseCommandArgs({ args: [...args], strict: true, options: { yes: { type: 'boolean' }, help: { type: 'boolean' } } });
  if (values.help) {
    io.out(CLEAN_UP_USAGE);
    return 0;
  }
  const client = clientFromEnv(env, 'agent-workbench-cli');
  try {
    // Trials are the signed-in user's: the name a try gave its copies is the token's user's, never an option.
    const user = await signedInTrialUser(client);
    const leftovers = await findLeftovers(client, { user });
    const plan = await planLeftoverRemoval(client, leftovers);
    if (!plan.remove.length && !plan.leftAlone.length) {
      io.out(`No trial copy of ${user} is left on the service.`);
      return 0;
    }
    for (const copy of plan.remove) io.out(describeCopy(copy));
    if (!values.yes) {
      sayLeftAlone(plan.leftAlone, io);
      if (plan.remove.length) io.out(`${copies(plan.remove.length)} of ${user} found, none removed: agent-workbench clean-up --yes removes ${plan.remove.length === 1 ? 'it' : 'them'}.`);
      return plan.remove.length ? 1 : 3;
    }
    // Only what was listed goes, and each is read once more just before (the list may be minutes old); --yes is the user's yes to exactly that list.
    const listed = new Set(plan.remove.map((c) => c.id));
    const confirmed = (copy: { kind: 'agent' | 'policy'; id: string }) => (listed.has(copy.id) ? client.gate?.userPicked({ kind: copy.kind, id: copy.id }, 'clean-up --yes') : undefined);
    const outcome = await removeLeftovers(client, leftovers.filter((l) => listed.has(l.id)), undefined, confirmed);
    const leftAlone = [...plan.leftAlone, ...outcome.leftAlone];
    sayLeftAlone(leftAlone, io);
    io.out(`Removed ${copies(outcome.removed)} of ${user}.`);
    return leftAlone.length ? 3 : 0;
  } catch (error) {
    io.err(`agent-workbench clean-up: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  } finally {
    await client.close();
  }
}

function sayLeftAlone(items: readonly LeftAlone[], io: CliIo): void {
  for (const item of items) io.err(`Left alone: ${describeLeftAlone(item)}`);
}

function copies(n: number): string {
  return `${n} trial cop${n === 1 ? 'y' : 'ies'}`;
}
