/**
 * A run of a trial writes its record where the last run on the same test set wrote its own. Before it
 * does, the old record is read: a run never replaces the record of an unfinished trial whose copies the
 * service still has (marked as that trial's and this run's user's), since that file is what names them.
 * Anything else — no file, a file that is not a trial, a finished trial, copies gone or not this
 * user's — may be replaced. The file only names candidates; the service says what they are.
 */
import { promises as fs } from 'node:fs';
import type { ServiceClient } from '../client';
import { parseTrial, type TrialRecord } from './trialRecord';
import { describeCopy, planTrialRemoval, type VerifiedCopy } from './trialRemoval';

/** A trial file whose copies are still on the service: a new run does not overwrite it. */
export class TrialFileInUse extends Error {
  constructor(
    readonly file: string,
    readonly copies: readonly VerifiedCopy[],
    user: string,
  ) {
    super(
      `${file} records a trial whose copies are still on the service (${copies.map(describeCopy).join('; ')}): a new run would overwrite it. Remove them with agent-workbench clean-up --yes (or Clean Up Trials… in VS Code; they are marked as ${user}'s trial copies), then run again.`,
    );
    this.name = 'TrialFileInUse';
  }
}

/** Throws {@link TrialFileInUse} when `file` records an unfinished trial whose copies, marked as `user`'s, the service still has. */
export async function checkTrialFileReplaceable(client: ServiceClient, file: string, user: string, signal?: AbortSignal): Promise<void> {
  const record = await readTrialFile(file);
  if (!record || record.state === 'published' || record.state === 'discarded') return;
  // Checked as this run's user's: a file naming another user's trial neither holds this run back nor names its copies.
  const plan = await planTrialRemoval(client, { ...record, user }, undefined, signal);
  const live = plan.remove.filter((copy) => copy.ground === 'marked');
  if (live.length) throw new TrialFileInUse(file, live, user);
}

/** The trial a file records, or undefined when there is no file or it is not a trial file. */
async function readTrialFile(file: string): Promise<TrialRecord | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return parseTrial(text);
  } catch {
    // Not a trial file (or not one any more): nothing on the service depends on it.
    return undefined;
  }
}
