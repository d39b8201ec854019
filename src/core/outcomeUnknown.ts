/**
 * A write whose outcome is unknown: the request went out and its answer was lost (the connection was cut,
 * a gateway error came after the fact, a 2xx could not be read). It may or may not have happened, so it is
 * never sent again on its own: the views are read again and the user is told one sentence, wherever it was.
 */

/** What the client appends to the message of a failed write whose outcome is unknown. */
export const OUTCOME_UNKNOWN_SUFFIX = ' The change may or may not have been made: refresh to check before trying again.';

/** What was being written, for the sentence. */
export interface UnknownWrite {
  /** What may have happened, as a clause: `“Refunds” (version 3) was saved`, `the job of Support Call QA started`. */
  happened: string;
  /** What was read again to show what the service has: `the versions`, `the agent's jobs`. */
  readAgain: string;
}

/** True when the error is a write that may or may not have happened. */
export function isOutcomeUnknown(error: unknown): boolean {
  return (error as { outcomeUnknown?: unknown } | null | undefined)?.outcomeUnknown === true;
}

/** The one sentence for a write whose outcome is unknown, with the client's reason (without its own advice). */
export function outcomeUnknownMessage(write: UnknownWrite, error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const reason = raw.endsWith(OUTCOME_UNKNOWN_SUFFIX) ? raw.slice(0, -OUTCOME_UNKNOWN_SUFFIX.length) : raw;
  return (
    `It is not known whether ${write.happened}: the answer was lost after the request was sent${reason ? ` (${reason.replace(/\.$/, '')})` : ''}. ` +
    `It was not sent again; ${write.readAgain} were read again to show what the service has — check them before trying again.`
  );
}
