import type * as vscode from 'vscode';
import type { JsonCheck } from '../../core/documents/jsonProblems';
import { isOutcomeUnknown, outcomeUnknownMessage } from '../../core/outcomeUnknown';
import { loadCore } from '../lazyCore';
import { isCancellation, messageOf } from '../util/errors';
import { problemsSummary, type DocumentDiagnostics } from './diagnostics';

/** What a save did. `notSaved` keeps the text dirty; `unknown` means the write may have happened (never repeated on its own). */
export type SaveOutcome =
  | { kind: 'saved'; message?: string }
  | { kind: 'unchanged'; message: string }
  /** `reason`: what the user declined, in words ("no version name was given"). */
  | { kind: 'cancelled'; reason?: string }
  | { kind: 'notSaved'; message: string; unknown?: boolean; comparing?: boolean };

/** A newer version someone saved while this one was being edited. */
export interface NewerVersion {
  /** The newer version's name. */
  name: string;
  /** Who saved it, as the service names them, if known. */
  author: string | undefined;
  /** True when it was the signed-in user (in another tab or window, or from this one). */
  byYou: boolean;
}

/**
 * One kind of document saved as a new version in the service (policy versions, agent-version drafts).
 * The steps are the kind's; their order, the wording and the handling of failures are the flow's.
 */
export interface NewVersionTarget<V, C> {
  /** How messages name the document: “Refunds” (version 3). */
  readonly title: string;
  check(text: string): JsonCheck<V>;
  /** True when the value is the content of the version it was opened from: nothing to save. */
  unchanged?(value: V): Promise<boolean>;
  /** The last questions before the write (the version name); undefined when the user cancelled. */
  ask?(): Promise<{ versionName?: string } | undefined>;
  /** A newer version saved meanwhile, checked after the last question, just before the write. */
  newer?(): Promise<NewerVersion | undefined>;
  /** Asks what to do about a newer version: compare, save anyway, or cancel (undefined). */
  conflict?(newer: NewerVersion): Thenable<'compare' | 'anyway' | undefined>;
  /** Shows the newer version beside the edit. */
  compare?(): Promise<void>;
  create(value: V, answers: { versionName?: string }): Promise<C>;
  /** After the write succeeded: updates views and tabs; may return a sentence to show. */
  created(created: C, text: string): string | undefined;
  /** The service's field errors as paths inside the document (policies nest their content). */
  fieldErrors?(errors: Record<string, string[]>): Record<string, string[]>;
  /** After a write whose outcome is unknown: reads the views again so they show the truth. */
  readAgain(): void;
}

/**
 * The one "save as a new version" flow: the text is checked first (problems underlined, nothing sent),
 * an unchanged text creates nothing, the last questions come next, and only then — right before the
 * write — is a newer version looked for. A write that may have happened is reported, never repeated.
 */
export async function saveAsNewVersion<V, C>(uri: vscode.Uri, text: string, target: NewVersionTarget<V, C>, diagnostics: DocumentDiagnostics): Promise<SaveOutcome> {
  const check = target.check(text);
  if (!check.ok) {
    diagnostics.set(uri, text, check.problems);
    return { kind: 'notSaved', message: `${target.title} was not saved: it has ${problemsSummary(check.problems)} Fix the underlined parts and save again.` };
  }
  diagnostics.clear(uri);
  try {
    if (await target.unchanged?.(check.value)) {
      return { kind: 'unchanged', message: `Nothing changed: ${target.title} has the same content as the version it was opened from, so no new version was created.` };
    }
    const answers = target.ask ? await target.ask() : {};
    if (!answers) return { kind: 'cancelled', reason: 'no version name was given' };
    const newer = await target.newer?.();
    if (newer) {
      const choice = await target.conflict?.(newer);
      if (choice === 'compare') {
        await target.compare?.();
        // The user's own choice, not a failure: told as a notice.
        return { kind: 'notSaved', comparing: true, message: `${target.title} was not saved yet: compare your edit with the newer version, then save again.` };
      }
      if (choice !== 'anyway') return { kind: 'cancelled', reason: 'a newer version exists and saving over it was declined' };
    }
    const created = await target.create(check.value, answers);
    return { kind: 'saved', message: target.created(created, text) };
  } catch (error) {
    if (isCancellation(error)) return { kind: 'cancelled' };
    return failed(uri, text, target, diagnostics, error);
  }
}

function failed<V, C>(uri: vscode.Uri, text: string, target: NewVersionTarget<V, C>, diagnostics: DocumentDiagnostics, error: unknown): SaveOutcome {
  const core = loadCore();
  const kept = 'Your text is kept; save again when the problem is solved.';
  if (!core.isServiceError(error)) return { kind: 'notSaved', message: `${target.title} was not saved: ${messageOf(error)} ${kept}` };
  const located = core.locateFieldErrors(text, target.fieldErrors ? target.fieldErrors(error.fieldErrors) : error.fieldErrors);
  if (located.length) diagnostics.set(uri, text, located);
  if (isOutcomeUnknown(error)) {
    target.readAgain();
    return { kind: 'notSaved', unknown: true, message: outcomeUnknownMessage({ happened: `${target.title} was saved`, readAgain: 'the versions' }, error) };
  }
  return { kind: 'notSaved', message: `${target.title} was not saved: ${error.message} ${kept}` };
}

/** “You”, a name, or “Someone”: who saved a newer version, for the conflict question. */
export function whoSaved(newer: NewerVersion): string {
  return newer.byYou ? 'You' : (newer.author ?? 'Someone');
}
