/** The seeds a new store can start with (apart from seeds.ts, so that parsing the sandbox's options loads no seed). */
export const SEED_NAMES = ['demo', 'empty', 'large'] as const;
export type SeedName = (typeof SEED_NAMES)[number];
