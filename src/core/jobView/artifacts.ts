/**
 * The artifacts a job's outputs name. The live service keeps a tool's full results apart from the job's
 * outputs and puts their keys in the outputs (the values of `evidence_data`, say
 * `agent-job-…/extraction_12.json`); GET …/artifacts/result/?artifact_key= reads one. No dependencies:
 * the page's bundle may use this file as is.
 */

/** One artifact a job names: what its output calls it, and its key. */
export interface ArtifactRef {
  name: string;
  key: string;
}

/** The output (or field of an output) whose values are artifact keys. */
const EVIDENCE_FIELD = 'evidence_data';
/** More than this many keys in one job is not a list a person reads. */
export const MAX_ARTIFACTS = 50;
const MAX_KEY_LENGTH = 1024;
const MAX_DEPTH = 6;

/** True for a string that can be an artifact key: 1–1024 characters, no spaces or control characters. */
export function isArtifactKey(value: unknown): value is string {
  // eslint-disable-next-line no-control-regex -- a key with control characters is no key
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_KEY_LENGTH && !/[\s\u0000-\u001f\u007f]/.test(value);
}

/**
 * The artifact keys under `evidence_data` in a job's outputs: an output of that name, or a field of that
 * name in an output's JSON. Each key once, in the order met, named by the path that led to it.
 */
export function artifactRefs(outputs: readonly { key: string; value: string | null }[]): ArtifactRef[] {
  const found = new Map<string, ArtifactRef>();
  const add = (name: string, key: string): void => {
    if (found.size < MAX_ARTIFACTS && !found.has(key)) found.set(key, { name, key });
  };
  for (const output of outputs) {
    if (output.value === null) continue;
    const parsed = parseJson(output.value);
    if (output.key === EVIDENCE_FIELD) {
      if (parsed === undefined) {
        if (isArtifactKey(output.value)) add(EVIDENCE_FIELD, output.value);
      } else collect(parsed, '', add, 0);
    } else if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) && EVIDENCE_FIELD in parsed) {
      collect((parsed as Record<string, unknown>)[EVIDENCE_FIELD], '', add, 0);
    }
  }
  return [...found.values()];
}

/** Adds the keys in `value`, named by the path from `evidence_data` (its field names, indexes in brackets). */
function collect(value: unknown, path: string, add: (name: string, key: string) => void, depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (isArtifactKey(value)) return add(path || EVIDENCE_FIELD, value);
  if (Array.isArray(value)) value.forEach((item, i) => collect(item, `${path || EVIDENCE_FIELD}[${i}]`, add, depth + 1));
  else if (value !== null && typeof value === 'object') {
    for (const [field, item] of Object.entries(value)) collect(item, path ? `${path}.${field}` : field, add, depth + 1);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
