/**
 * Answers that integration tests and benchmarks give in place of the user (modal dialogs cannot be
 * clicked from there). Read only behind `__TEST_HOOKS__`: the build users get always asks them.
 */
import type { UploadPrompts } from '../datasets/uploads';
import type { SavePrompts } from '../policies/policyDocuments';
import type { SandboxPrompts } from '../sandbox/localSandbox';

export interface TestPrompts {
  uploads?: UploadPrompts;
  policySave?: SavePrompts;
  sandbox?: SandboxPrompts;
  /** Whether the workspace is trusted (code-server runs the tests with trust turned off, so always trusted). */
  workspaceTrusted?: boolean;
}

/** Set by tests through the test API; undefined fields mean "ask the user". */
export const testPrompts: TestPrompts = {};
