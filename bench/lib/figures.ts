// What a benchmark reports: one or more rows of the results table, each with its budget verdict,
// the method in a sentence or two, and the measured numbers behind it (kept in results.json).

/** One row of the results table. */
export interface Figure {
  /** Stable key in results.json, e.g. `upload.memory`. */
  key: string;
  /** The figure's name in the table. */
  title: string;
  /** Our value as shown, e.g. `8.4 ms`; `—` when it could not be measured. */
  ours: string;
  /** The side-by-side reference as shown, or `—` when the budget is absolute. */
  reference: string;
  /** ours ÷ reference (or the ratio the budget is written in), when there is one. */
  ratio: number | null;
  /** The budget as the issue writes it. */
  budget: string;
  /** Within budget; null when not measured. */
  within: boolean | null;
  /** How it was measured (a few sentences for results.md). */
  method: string;
  /** Samples and intermediate numbers, for results.json. */
  values: Record<string, unknown>;
  /** The runs behind a median figure: how many, and the least and most of them (as shown). */
  spread?: Spread;
  /** Why it could not be measured, or what went wrong. */
  problem?: string;
}

/** How many runs a median figure is taken from, and their least and most values. */
export interface Spread {
  runs: number;
  min: number;
  max: number;
  /** `min–max` as shown beside the median, e.g. `1.10–1.25 s`. */
  text: string;
}

/** The spread of `samples`, shown with `format` (e.g. {@link ms}). */
export function spread(samples: readonly number[], format: (n: number) => string): Spread | undefined {
  const finite = samples.filter(Number.isFinite);
  if (finite.length === 0) return undefined;
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  return { runs: finite.length, min, max, text: `${format(min)}–${format(max)}` };
}

/** `0.93×`. */
export function times(ratio: number): string {
  return `${ratio.toFixed(2)}×`;
}

/** A figure that could not be measured, with the reason. */
export function notMeasured(key: string, title: string, budget: string, method: string, problem: string): Figure {
  return { key, title, ours: '—', reference: '—', ratio: null, budget, within: null, method, values: {}, problem };
}

/** `12.3 ms`, `1.25 s` for longer times. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return '—';
  if (value >= 10_000) return `${(value / 1000).toFixed(1)} s`;
  if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
  return `${value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : Math.round(value)} ms`;
}

/** `743 KB`, `1.2 MB` (powers of 1024, as the README's sizes). */
export function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}

/** `412 MB/s`. */
export function throughput(bytesPerSecond: number): string {
  return `${Math.round(bytesPerSecond / (1024 * 1024))} MB/s`;
}
