/**
 * Every failure of a tool as one sentence a model can act on: the field its input got wrong, "no such
 * agent", what failed on the service and whether anything was started (an unknown outcome is said as
 * such and never retried). No stack trace and no token ever reaches an answer.
 */
import type * as z from 'zod';
import { isServiceError } from '../client';
import { ConfinedWriteRefused } from '../confinedWrite';
import { isOutcomeUnknown } from '../outcomeUnknown';
import { redact } from '../redact';
import { TrialRefused } from '../trial/trialPlanning';
import { ToolRefusal } from './toolTypes';

/**
 * "Input refused: `agent_id`: expected string, received undefined." An unknown field is refused with the
 * fields the tool takes (`allowed`): a misnamed filter must not read as no filter at all.
 */
export function inputErrorText(error: z.ZodError, allowed?: readonly string[], toolName = 'the tool'): string {
  const lines = error.issues.slice(0, 5).map((issue) => {
    const at = issue.path.join('.');
    if (issue.code !== 'unrecognized_keys') return `\`${at || '(input)'}\`: ${issue.message}`;
    const unknown = issue.keys.map((k) => `\`${k}\``).join(', ');
    const takes = !at && allowed ? `: ${toolName} takes only ${allowed.join(', ')}` : '';
    return `unknown field${issue.keys.length > 1 ? 's' : ''} ${unknown}${at ? ` in \`${at}\`` : ''}${takes}`;
  });
  return `Input refused: ${lines.join('; ')}. Nothing was started.`;
}

/** What a tool's failure says; `started` names what the call had started before it failed, if anything. */
export function toolErrorText(error: unknown, toolName: string, started?: string): string {
  if (error instanceof ToolRefusal) return error.message;
  // A trial refused by its plan (a stale policy file, a draft like the current version, no case to run) started nothing.
  if (error instanceof TrialRefused) return `${error.message} Nothing was started.`;
  // Files are checked before a call starts anything, so a refused write is a refusal like the others.
  if (error instanceof ConfinedWriteRefused) return `${error.message}${started ? ` Already started before: ${started}.` : ''}`;
  const after = started ? ` Already started before the failure: ${started}.` : ' Nothing was started.';
  if (isOutcomeUnknown(error)) return `${toolName}: the answer of the service was lost after a write was sent, so it is not known whether it happened (it was not sent again).${started ? ` Started before: ${started}.` : ''} Read the state again before retrying.`;
  if (isServiceError(error)) {
    if (error.status === 404) return `No such ${thingOf(error.path)}: ${error.message}${after}`;
    if (error.kind === 'aborted') return `${toolName} was cancelled.${after}`;
    return `${toolName} failed: ${error.message}${after}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `${toolName} failed: ${redact(message)}${after}`;
}

function thingOf(path: string): string {
  const parts = path.split('?')[0]!.split('/').filter((p) => p && p !== 'v1');
  const named = [...parts].reverse().find((p) => /^[a-z_-]+$/.test(p) && !/^(current|results|status)$/.test(p));
  const map: Record<string, string> = { agents: 'agent', versions: 'version', jobs: 'job', policies: 'policy', datasets: 'dataset', files: 'file', tables: 'table' };
  return (named && map[named]) ?? named ?? 'item';
}
