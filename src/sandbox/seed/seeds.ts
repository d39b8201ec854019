import type { SandboxDb } from '../store/database';
import { seedBase } from './base';
import { seedDemo } from './demoSeed';
import { seedLarge } from './largeSeed';
import { SeededRandom } from './random';
import type { SeedName } from './seedNames';

export { SEED_NAMES, type SeedName } from './seedNames';

/** The one seed of the demo's random generator: change it and every id changes. */
const DEMO_SEED = 20_240_611;

/**
 * Fills a new store: `empty` has only the demo user, their organization and personal dataset;
 * `demo` adds a realistic organization and a second one; `large` adds 10,000 agents and 100,000 jobs
 * on top. Ids and values are the same on every run; times are relative to `nowMs` so that the data
 * always looks recent.
 */
export function applySeed(db: SandboxDb, filesDir: string, seed: SeedName, nowMs: number, stepMs: number): void {
  db.transaction(() => {
    seedBase(db, nowMs);
    if (seed === 'empty') return;
    const random = new SeededRandom(DEMO_SEED);
    seedDemo({ db, filesDir, random, nowMs, stepMs });
    if (seed === 'large') {
      const tagIds = db.all<{ id: string }>('SELECT id FROM tags ORDER BY name').map((r) => r.id);
      seedLarge(db, new SeededRandom(DEMO_SEED + 1), nowMs, tagIds);
    }
  });
}
