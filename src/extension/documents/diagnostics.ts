import { LiveChecker } from './liveChecker';

export type { TextProblem } from './liveChecker';

/** The problems of our documents: the one live checker, under the name its older callers know. */
export const DocumentDiagnostics = LiveChecker;
export type DocumentDiagnostics = LiveChecker;

/** "2 problems: a: …; b: …." */
export function problemsSummary(problems: { message: string }[]): string {
  const shown = problems.slice(0, 3).map((p) => p.message).join('; ');
  const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : '';
  return `${problems.length} problem${problems.length === 1 ? '' : 's'}: ${shown}${more}.`;
}
