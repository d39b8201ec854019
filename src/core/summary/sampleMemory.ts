// How samples are remembered per policy. No dependencies: the extension uses it without loading the engine.

/** A sample kept for one policy; texts past this size are used but not remembered across sessions. */
export const MAX_REMEMBERED_SAMPLE_CHARS = 512 * 1024;

/** How many policies' samples are remembered; those changed longest ago are forgotten first. */
export const MAX_REMEMBERED_SAMPLES = 100;

/** A remembered sample: its text, where it came from, and when it was last used. */
export interface StoredSample {
  text: string;
  origin: string;
  usedAt: number;
}

/**
 * The remembered samples after putting one: texts too large to remember are left out, and past the
 * count limit those changed longest ago go. Returns a new record (the old one is never changed).
 */
export function rememberSample(
  samples: Readonly<Record<string, StoredSample>>,
  key: string,
  sample: StoredSample,
  limits = { maxChars: MAX_REMEMBERED_SAMPLE_CHARS, maxCount: MAX_REMEMBERED_SAMPLES },
): Record<string, StoredSample> {
  const next: Record<string, StoredSample> = { ...samples };
  delete next[key];
  if (sample.text.length <= limits.maxChars) next[key] = sample;
  const keys = Object.keys(next);
  if (keys.length <= limits.maxCount) return next;
  const oldest = keys.sort((a, b) => (next[a]?.usedAt ?? 0) - (next[b]?.usedAt ?? 0)).slice(0, keys.length - limits.maxCount);
  for (const k of oldest) delete next[k];
  return next;
}

/** Whether a value read back from storage is a remembered sample (storage may hold anything). */
export function isStoredSample(value: unknown): value is StoredSample {
  const v = value as Partial<StoredSample> | null;
  return !!v && typeof v === 'object' && typeof v.text === 'string' && typeof v.origin === 'string' && typeof v.usedAt === 'number';
}
