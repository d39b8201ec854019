/**
 * What the trial commands say and ask alike: the lists of a removal's confirmation, the note on what was
 * left alone, "not a trial of yours" (a file of another user: nothing it names is touched, the only offer
 * is to delete the file), and the grounds a confirmation's list gives the removal of exactly its copies.
 */
import * as vscode from 'vscode';
import type { ServiceClient } from '../../core/client';
import type { WriteGround } from '../../core/writeGate/writeGate';
import type { LeftAlone, RemovalPlan, VerifiedCopy } from '../core';
import { loadCore } from '../lazyCore';
import type { Log } from '../log';
import { askModal } from '../util/modal';
import { target } from '../util/picked';
import type { TrialFile } from './trialWorkspace';

/** What tests pass instead of answering the dialogs. */
export interface EndArgs {
  confirmed?: boolean;
}

/** "3 trial copies". */
export const copies = (n: number): string => `${n} trial cop${n === 1 ? 'y' : 'ies'}`;

/** Reads what may go, with a notification while the service is asked. */
export function checking<T>(work: () => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Checking with the service which copies are this trial’s…' }, work);
}

/** The confirmation's list: what goes (name, id, made when, jobs), then what is left alone and why. */
export function planText(plan: Pick<RemovalPlan, 'remove' | 'leftAlone'>, heading: string): string {
  const core = loadCore();
  const going = plan.remove.length ? `${heading}:\n${plan.remove.map((c) => `• ${core.describeCopy(c)}`).join('\n')}\n\n` : '';
  const left = plan.leftAlone.length ? `Left alone (named by a trial file, but the service does not mark it as that trial's copy):\n${plan.leftAlone.map((l) => `• ${core.describeLeftAlone(l)}`).join('\n')}\n\n` : '';
  return going + left;
}

/** A sentence for the end of a message when something was left alone; the list goes to the log. */
export function leftAloneNote(log: Log, leftAlone: readonly LeftAlone[]): string {
  if (!leftAlone.length) return '';
  for (const item of leftAlone) log.warn(`Left alone: ${loadCore().describeLeftAlone(item)}`);
  return ` ${leftAlone.length} thing${leftAlone.length === 1 ? '' : 's'} the trial file named ${leftAlone.length === 1 ? 'is' : 'are'} not marked as its cop${leftAlone.length === 1 ? 'y' : 'ies'} and ${leftAlone.length === 1 ? 'was' : 'were'} left alone (see the log).`;
}

/**
 * The user's yes to a removal's list, as the core's `confirmed` takes it: the ground of deleting each copy
 * the list named (an unmarked copy needs it; a marked one goes on its marker), and of nothing else.
 */
export function confirmedRemoval(client: ServiceClient, listed: readonly VerifiedCopy[], how: string): (copy: VerifiedCopy) => WriteGround | undefined {
  const grounds = loadCore().confirmedGrounds(client.gate, listed.map((c) => (c.kind === 'agent' ? target.agent(c.id) : target.policy(c.id))), how);
  return (copy) => (copy.kind === 'agent' ? grounds.agent?.(copy.id) : grounds.policy?.(copy.id));
}

/**
 * Trial files that are not the user's (another user's record, or naming nothing the service marks as its
 * copies): nothing is touched on the service; the only offer is to delete the files. Answers 0 (removed).
 */
export async function notYours(log: Log, files: readonly TrialFile[], detail: string, args: EndArgs): Promise<number> {
  const names = files.map((f) => vscode.workspace.asRelativePath(f.uri)).join(', ');
  for (const f of files) log.warn(`${vscode.workspace.asRelativePath(f.uri)} is not a trial of yours: nothing it names was touched.`);
  if (args.confirmed) return 0;
  const remove = files.length === 1 ? 'Delete File' : 'Delete Files';
  const answer = await askModal(`${names} ${files.length === 1 ? 'is' : 'are'} not a trial of yours`, `${detail}\n\nNothing was changed on the service.`.trimStart(), remove);
  if (answer === remove) for (const f of files) await vscode.workspace.fs.delete(f.uri);
  return 0;
}

/** Runs a trial action; another user's record (the core's NotYourTrial) is answered with {@link notYours}, and `otherwise`. */
export async function asTrialOfYours<T>(log: Log, trial: TrialFile, args: EndArgs, otherwise: T, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof loadCore().NotYourTrial)) throw error;
    await notYours(log, [trial], error.message, args);
    return otherwise;
  }
}
