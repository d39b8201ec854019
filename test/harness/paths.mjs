// Where the harness keeps things: the repository, the cache outside it (so a fresh clone reuses
// code-server), and the git-ignored result and data folders inside it.
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (two levels above this file). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The cache folder for downloaded tools, outside the clone; `AGENT_WORKBENCH_TEST_CACHE` overrides it. */
export function cacheRoot() {
  if (process.env.AGENT_WORKBENCH_TEST_CACHE) return path.resolve(process.env.AGENT_WORKBENCH_TEST_CACHE);
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'agent-workbench-test');
}

/** Screenshots and other artefacts of a test run (git-ignored). */
export const resultsDir = path.join(repoRoot, 'test-results');

/** The packaged extension that `npm run package` writes. */
export const vsixPath = path.join(repoRoot, 'agent-workbench.vsix');
