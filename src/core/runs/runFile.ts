import * as z from 'zod/mini';

const InputSetSchema = z.record(z.string(), z.unknown()).check(z.describe('One value per input key of the agent version.'));

/**
 * A run file: which agent (and optionally which version) to run, the inputs by key — one input set,
 * or an array of input sets run as one batch — and metadata stored on the job. The editor's JSON schema
 * starts from this definition (see runFileSchema.ts), so the two agree.
 */
export const RunFileSchema = z
  .strictObject({
    agent: z.string().check(z.minLength(1), z.describe('ID of the agent to run.')),
    agentName: z.optional(z.string().check(z.describe('Name of the agent, for people reading this file; the agent is found by its ID.'))),
    version: z.optional(z.string().check(z.minLength(1), z.describe('ID of the version to run; without it the agent runs its current version.'))),
    versionName: z.optional(z.string().check(z.describe('Name of the version, for people reading this file; the version is found by its ID.'))),
    inputs: z
      .union([InputSetSchema, z.array(InputSetSchema).check(z.minLength(1))])
      .check(z.describe('The inputs by key. An array of input sets is a batch: one job per set, started with one request.')),
    metadata: z.optional(z.record(z.string(), z.unknown()).check(z.describe('Stored on the job as sent (single runs only: the service ignores it on batches).'))),
  })
  .check(z.describe('A run of an agent. Run it with the ▶ Run lens or the editor title button.'));

export type RunFile = z.infer<typeof RunFileSchema>;

/** The input sets of a run file, and whether they are a batch. */
export function inputSetsOf(file: RunFile): { sets: Array<Record<string, unknown>>; batch: boolean } {
  return Array.isArray(file.inputs) ? { sets: file.inputs, batch: true } : { sets: [file.inputs], batch: false };
}
