/** What jobs answered: outputs, results of one job and of many (service's "Results" endpoints). */
import * as z from 'zod/mini';
import { orNull } from './common';

/** Output values travel as text; anything else a server sends is kept as its JSON text. */
const OutputValueSchema = z.pipe(
  z.optional(z.unknown()),
  z.transform((value): string | null => (value === null || value === undefined ? null : typeof value === 'string' ? value : JSON.stringify(value))),
);

/** One output of a job; `value` is JSON text when `data_type` is `application/json`. */
export const JobOutputSchema = z.looseObject({
  key: z.string(),
  description: orNull(z.string()),
  data_type: orNull(z.string()),
  value: OutputValueSchema,
  cost: orNull(z.number()),
});
export type JobOutput = z.infer<typeof JobOutputSchema>;

export const JobOutputListSchema = z.array(JobOutputSchema);
const OutputsSchema = z.pipe(orNull(JobOutputListSchema), z.transform((outputs): JobOutput[] => outputs ?? []));

/** The answer of `GET /v1/agents/jobs/{job_id}/result/`. */
export const JobResultSchema = z.looseObject({
  agent_id: orNull(z.string()),
  agent_version_id: orNull(z.string()),
  inputs: z.pipe(orNull(z.array(z.unknown())), z.transform((inputs): unknown[] => inputs ?? [])),
  input_tokens: orNull(z.number()),
  output_tokens: orNull(z.number()),
  outputs: OutputsSchema,
});
export type JobResult = z.infer<typeof JobResultSchema>;

/** One item of the answer of `POST /v1/agents/jobs/results/`. */
const JobResultRecordBaseSchema = z.looseObject({
  id: z.string(),
  // The status as the service names it (a code or a word); kept as sent.
  status: orNull(z.union([z.number(), z.string()])),
  corrected_outputs: orNull(JobOutputListSchema),
  agent_id: orNull(z.string()),
  agent_version_id: orNull(z.string()),
  cost: orNull(z.number()),
  inputs: z.optional(z.unknown()),
  input_tokens: orNull(z.number()),
  output_tokens: orNull(z.number()),
});

/** A record whose `result` is outputs or null; a failed job's error code is moved to `result_error`. */
export const JobResultRecordSchema = z.pipe(
  // "List of job outputs, or error code if job failed".
  z.extend(JobResultRecordBaseSchema, { result: orNull(z.union([JobOutputListSchema, z.string()])) }),
  z.transform(({ result, ...record }): JobResultRecord =>
    typeof result === 'string' ? { ...record, result: null, result_error: result } : { ...record, result },
  ),
);
/** A record of the bulk results answer; `result_error` is the error code a failed job may have instead of outputs. */
export type JobResultRecord = z.infer<typeof JobResultRecordBaseSchema> & { result: JobOutput[] | null; result_error?: string };

export const JobResultRecordListSchema = z.array(JobResultRecordSchema);

/** The answer of `POST /v1/agents/{agent_id}/jobs/cancel-all/`. */
/** The answer of `GET /v1/agents/jobs/{id}/artifacts/result/`: only the artifact's `result` (any JSON). */
export const JobArtifactSchema = z.looseObject({ result: z.unknown() });
export type JobArtifact = z.infer<typeof JobArtifactSchema>;

export const CancelAllJobsSchema = z.looseObject({
  task_id: orNull(z.string()),
  targeted_count: z.number(),
  note: z.pipe(orNull(z.string()), z.transform((note): string => note ?? '')),
});
export type CancelAllJobs = z.infer<typeof CancelAllJobsSchema>;
