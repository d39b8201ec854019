/**
 * The policy file (`*.policy.json`): a policy as it lives in a repository, written by *Export Policy to
 * Workspace* and read by the command line's `try` and by Publish. It names the policy and the version it
 * was exported from (the conflict check), and holds the content under review.
 */
import * as z from 'zod/mini';

export const POLICY_FILE_KIND = 'agent-workbench.policy';

export interface PolicyFile {
  kind: typeof POLICY_FILE_KIND;
  policyId: string;
  name: string;
  /** The version the content was exported from; null for a policy that had none. */
  baseVersionId: string | null;
  content: unknown;
}

const PolicyFileSchema = z.object({
  kind: z.literal(POLICY_FILE_KIND),
  policyId: z.string().check(z.minLength(1)),
  name: z.string(),
  baseVersionId: z.nullable(z.string()),
  content: z.record(z.string(), z.unknown()),
});

/** Reads a policy file, checked; throws one sentence naming what is wrong. */
export function parsePolicyFile(text: string): PolicyFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`The policy file is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = PolicyFileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`This is not a policy file: ${issue?.path.join('.') || 'the file'}: ${issue?.message ?? 'unexpected shape'}.`);
  }
  return parsed.data;
}

/** The text of a policy file for a policy's version. */
export function policyFileText(policy: { id: string; name: string }, versionId: string | null, content: unknown): string {
  const file: PolicyFile = { kind: POLICY_FILE_KIND, policyId: policy.id, name: policy.name, baseVersionId: versionId, content };
  return `${JSON.stringify(file, null, 2)}\n`;
}
