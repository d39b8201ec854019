/** The limits of interface section 8, as checks that explain themselves (for inputs, checked while typing). */

/** The longest agent name. */
export const MAX_AGENT_NAME_LENGTH = 200;

/** Why an agent name cannot be used (1–200 characters), or undefined. */
export function agentNameProblem(name: string): string | undefined {
  const n = name.trim().length;
  if (n === 0) return 'The name must not be empty';
  if (n > MAX_AGENT_NAME_LENGTH) return `At most ${MAX_AGENT_NAME_LENGTH} characters (now ${n})`;
  return undefined;
}

/** Why a policy version name cannot be used (1–255 characters), or undefined. */
export function policyVersionNameProblem(name: string): string | undefined {
  const n = name.trim().length;
  if (n === 0) return 'The version name must not be empty';
  if (n > 255) return `At most 255 characters (now ${n})`;
  return undefined;
}

/** Why an agent version name cannot be used, or undefined: the same 1–255 characters as a policy version's. */
export function agentVersionNameProblem(name: string): string | undefined {
  return policyVersionNameProblem(name);
}

/** Dataset file names: at most 1,024 characters. */
export const MAX_FILE_NAME_LENGTH = 1024;
/** Dataset file sizes: what the size field (a signed 32-bit integer) can express. */
export const MAX_FILE_SIZE = 2_147_483_647;
