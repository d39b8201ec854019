// A seeded pseudo-random generator (mulberry32): the demo tables must come out the same in every
// worker, so a query gives the same answer before and after the worker is restarted.

export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with the given probability. */
  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** One element, all equally likely. */
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick() from an empty list');
    return item;
  }

  /** One element, chosen by weight. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [item, weight] of items) {
      roll -= weight;
      if (roll < 0) return item;
    }
    const last = items[items.length - 1];
    if (!last) throw new Error('weighted() from an empty list');
    return last[0];
  }

  /** A log-normal-ish positive number around `median`, for durations, token counts and prices. */
  skewed(median: number, spread: number): number {
    const gauss = this.next() + this.next() + this.next() - 1.5;
    return median * Math.exp(gauss * spread);
  }

  /** A version 4 UUID made from this generator. */
  uuid(): string {
    let hex = '';
    for (let i = 0; i < 4; i++) hex += Math.floor(this.next() * 4294967296).toString(16).padStart(8, '0');
    const variant = ((parseInt(hex[16] ?? '0', 16) & 3) | 8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
}
