/**
 * The budget of the checks that run while the user types: each checker is linear in its document, and
 * above a size it treats the document as plain text, with one note saying so, rather than block the
 * editor. The sizes are below the largest documents each checker handles within 50 ms on a slow
 * machine (see bench/benchmarks/liveChecks.ts).
 */

/** The checkers that run while typing, by the kind that names their problems (`agentWorkbench.<kind>`). */
export type LiveCheckKind = 'runs' | 'testSets' | 'sql' | 'json';

/** Characters above which a document is not checked while typing. */
export const LIVE_CHECK_MAX_CHARS: Readonly<Record<LiveCheckKind, number>> = {
  // A batch with a problem in every input set: some 100,000 characters in 50 ms on the benchmark machine.
  runs: 50_000,
  // CSV rows with a warning each: some 360,000 characters.
  testSets: 200_000,
  // A SELECT with a thousand JOINs, checked and completed: some 75,000 characters.
  sql: 40_000,
  /** Policy versions and agent drafts, checked against their schema: some 360,000 characters. */
  json: 200_000,
};

/** The name of the problem collection of a checker: one scheme for all of them. */
export function liveCheckCollectionName(kind: string): string {
  // Older callers name their kind `agent-workbench-<kind>`: the same collection.
  return `agentWorkbench.${kind.replace(/^agent-workbench-/, '').replace(/^agentWorkbench\./, '')}`;
}

/** The one note shown on a document too large to check while typing, or undefined when it is checked. */
export function overBudgetNote(chars: number, maxChars: number): string | undefined {
  if (chars <= maxChars) return undefined;
  return `Checks are off for this document while you type: it has ${size(chars)}, more than the ${size(maxChars)} Agent Workbench checks as you type. It is plain text here; running it still checks it in full.`;
}

function size(chars: number): string {
  return `${chars.toLocaleString('en-US')} characters`;
}
