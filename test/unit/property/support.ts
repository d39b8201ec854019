/**
 * Shared settings of the property suites: a fixed seed per property (so every run tries the same
 * cases), bounded runs, and the two ways to vary them:
 * - `PROPERTY_SEED=<n>` gives every property another base seed (a fresh set of cases);
 * - `PROPERTY_REPLAY=<seed>:<path>` replays exactly the failure fast-check printed (`{ seed, path }`);
 *   run that one test alone (`--grep`), as the pair means nothing to another property.
 */
import type { Parameters } from 'fast-check';

const BASE_SEED = Number(process.env.PROPERTY_SEED ?? 20_250_301);
const REPLAY = /^(-?\d+):([\d:]+)$/.exec(process.env.PROPERTY_REPLAY ?? '');

/** Options for `fc.assert`: the property's own seed (derived from its name), and `numRuns`. */
export function runs<T>(name: string, numRuns: number): Parameters<T> {
  if (REPLAY) return { seed: Number(REPLAY[1]), path: REPLAY[2], numRuns, endOnFailure: true };
  let hash = BASE_SEED | 0;
  for (const char of name) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return { seed: hash, numRuns, endOnFailure: true };
}
