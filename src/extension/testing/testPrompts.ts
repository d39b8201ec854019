/**
 * Answers that integration tests and benchmarks give in place of the user (modal dialogs cannot be
 * clicked from there). One object is made at activation and handed to what asks; tests set its fields
 * through the test API. Read only behind `__TEST_HOOKS__`: the build users get always asks the user.
 */
import type { CoveragePrompts } from '../coverage/coveragePrompts';
import type { UploadPrompts } from '../datasets/uploads';
import type { SavePrompts } from '../policies/policyDocuments';
import type { SandboxPrompts } from '../sandbox/localSandbox';

export interface TestPrompts {
  uploads?: UploadPrompts;
  policySave?: SavePrompts;
  sandbox?: SandboxPrompts;
  /** Answers the question before jobs start (a comparison, a trial) from its text, in place of the modal dialog. */
  start?: (question: { message: string; detail: string; button: string }) => boolean;
  /** Takes an offer shown as a notification (its text and its actions); answers the action chosen, if any. */
  offer?: (text: string, actions: string[]) => string | undefined;
  /** Whether the workspace is trusted (code-server runs the tests with trust turned off, so always trusted). */
  workspaceTrusted?: boolean;
  /** Answers a modal question asked through askModal (a confirmation naming a write's target, "not a trial of yours"): the action taken, or undefined. */
  modal?: (question: { message: string; detail: string; actions: string[] }) => string | undefined;
  /** Set: a language model tool's confirmation is answered with it (true: go ahead), with the message it would have shown. */
  toolConfirmation?: (message: string) => boolean;
  /** Rule coverage's questions: the test set of a policy, the jobs to add as cases, the question before an uncovered trial. */
  coverage?: Partial<CoveragePrompts>;
}
