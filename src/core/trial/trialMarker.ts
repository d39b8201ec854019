/**
 * How a trial's entities say what they are: a name that reads "… · trial <time> · <user>" and a marker
 * in their description that Clean Up finds them by. Plain functions with no package, so the Agents
 * view can mark trial agents without loading the client.
 */

/** Written in the description of everything a trial creates: Clean Up finds leftovers by it, not by name. */
export const TRIAL_MARKER_PREFIX = 'agent-workbench-trial:';

/** The marker of a trial, as written in descriptions: the trial and whose it is. */
export function trialMarker(record: { trialId: string; user: string }): string {
  return `${TRIAL_MARKER_PREFIX}${record.trialId}:${encodeURIComponent(record.user)}`;
}

// A marker as readMarker finds it (global: for taking every one out).
const MARKER_TEXT = /agent-workbench-trial:[A-Za-z0-9-]{8,}:\S*/g;

/** The trial id and user a description's marker names, or undefined when it has none. */
export function readMarker(description: string | null | undefined): { trialId: string; user: string } | undefined {
  const match = /agent-workbench-trial:([A-Za-z0-9-]{8,}):(\S*)/.exec(description ?? '');
  if (!match) return undefined;
  let user = match[2]!;
  try {
    user = decodeURIComponent(user);
  } catch {
    // A marker edited by hand stays readable as it is.
  }
  return { trialId: match[1]!, user };
}

/** True when a description carries a trial's marker (a trial agent or policy). */
export function isTrialEntity(item: { description?: string | null }): boolean {
  return readMarker(item.description) !== undefined;
}

/** "<what> · trial 2026-11-24 14:05 · <user>": says what it is and whose it is (UTC, so names sort alike everywhere). */
export function trialName(what: string, user: string, at: Date): string {
  const stamp = at.toISOString().slice(0, 16).replace('T', ' ');
  return `${what} · trial ${stamp} · ${user}`;
}

/** The name a trial gives the signed-in user: a display name, else the first name, else the e-mail's local part. */
export function trialUserName(user: { display_name?: string | null; first_name?: string | null; email?: string | null } | undefined): string {
  return userDisplayName(user) ?? 'me';
}

/** A user's name as trials and labels give it (display name, first name, e-mail's local part), or undefined when the user has none. */
export function userDisplayName(user: { display_name?: string | null; first_name?: string | null; email?: string | null } | undefined): string | undefined {
  return user?.display_name?.trim() || user?.first_name?.trim() || user?.email?.split('@')[0]?.trim() || undefined;
}
/** A description with every trial marker taken out (the words around it kept, the spaces it leaves tidied). */
export function withoutTrialMarker(description: string): string {
  return description
    .split('\n')
    .map((line) => line.replace(MARKER_TEXT, ' ').replace(/[ \t]{2,}/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
