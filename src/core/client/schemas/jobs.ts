/** Agent jobs and job status records (interface sections 2 and 3, with the live service's leniencies). */
import * as z from 'zod/mini';
import { JobStatus } from '../../jobStatus';
import { pageEnvelope } from './common';

export const StatusEventSchema = z.looseObject({
  timestamp: z.string(),
  status_code: z.number(),
  error_message: z.nullish(z.string()),
  error_details: z.nullish(z.unknown()),
  count: z.nullish(z.number()),
});
export type StatusEvent = z.infer<typeof StatusEventSchema>;

export const EvaluationSchema = z.looseObject({
  created_at: z.nullish(z.string()),
  updated_at: z.nullish(z.string()),
  // Any JSON: text, numbers, objects.
  reference: z.optional(z.unknown()),
  // Fractional on the live service, or null.
  human_score: z.nullish(z.number()),
  grader_score: z.nullish(z.number()),
  feedback: z.nullish(z.string()),
});
export type Evaluation = z.infer<typeof EvaluationSchema>;

export const FeedbackReviewSchema = z.looseObject({
  reviewed_by: z.nullish(z.string()),
  // `pending`, `approved` or `rejected`; kept as text so a new state does not break the list.
  review_status: z.nullish(z.string()),
  corrected_verdict: z.nullish(z.string()),
  review_comment: z.nullish(z.string()),
  reviewed_at: z.nullish(z.string()),
});
export type FeedbackReview = z.infer<typeof FeedbackReviewSchema>;

export const JobInputSchema = z.looseObject({
  key: z.string(),
  description: z.nullish(z.string()),
  data_type: z.nullish(z.string()),
  value: z.nullish(z.string()),
  file_name: z.nullish(z.string()),
});
export type JobInput = z.infer<typeof JobInputSchema>;

export const AgentJobSchema = z.looseObject({
  id: z.string(),
  agent_version_name: z.nullish(z.string()),
  status_events: z.optional(z.array(StatusEventSchema)),
  status_code: z.number(),
  created_at: z.string(),
  last_updated_at: z.nullish(z.string()),
  evaluation: z.nullish(EvaluationSchema),
  feedback_review: z.nullish(FeedbackReviewSchema),
  job_inputs: z.optional(z.array(JobInputSchema)),
  metadata: z.nullish(z.record(z.string(), z.unknown())),
});
export type AgentJob = z.infer<typeof AgentJobSchema>;

/**
 * The status of a job just queued may be null ("not yet known"): it reads as PENDING, a job that is still to
 * come, so one new job neither fails the answer for all the others nor looks final.
 */
const StatusNotYetKnownSchema = z.pipe(z.nullable(z.number()), z.transform((status): number => status ?? JobStatus.PENDING));

export const JobStatusRecordSchema = z.looseObject({
  // Null for a job just started, as in the many-jobs answer (docs/service.md, The contract).
  status: StatusNotYetKnownSchema,
  // Unix time in seconds, fractional.
  timestamp: z.number(),
  error_message: z.nullish(z.string()),
});
export type JobStatusRecord = z.infer<typeof JobStatusRecordSchema>;

/** One item of the answer to `POST /v1/agents/jobs/statuses/`. */
export const JobStatusSummarySchema = z.looseObject({
  id: z.string(),
  status: StatusNotYetKnownSchema,
  created_at: z.nullish(z.string()),
  last_updated_at: z.nullish(z.string()),
  timestamp: z.nullish(z.number()),
  error_message: z.nullish(z.string()),
});
export type JobStatusSummary = z.infer<typeof JobStatusSummarySchema>;

export const AgentJobPageSchema = pageEnvelope(AgentJobSchema);
export const JobStatusSummaryListSchema = z.array(JobStatusSummarySchema);
