/**
 * The shapes of tool answers that more than one tool gives: a comparison's summary, and the answers of
 * the confirmation (the plan with its id, a declined plan). Each tool's own data is declared beside it
 * (`output`); MCP lists them as output schemas and a client checks the structured content against them,
 * so a schema here is only what the answers really hold.
 */
import * as z from 'zod';

const nullableText = z.string().nullable();

/** One target of a comparison: a version, the results before, a trial copy. */
const ComparisonTargetSchema = z.object({ id: z.string(), label: z.string(), kind: z.string(), failed: z.unknown() });

/** One case of a comparison as the answer lists it (changed and failing cases only). */
const ComparisonCaseSchema = z.object({
  case: z.string(),
  tags: z.array(z.string()),
  expected: z.unknown(),
  review: z.unknown(),
  changed: z.boolean(),
  mismatch: z.boolean(),
  targets: z.array(z.object({ target: z.string(), label: z.string(), state: z.string(), values: z.array(z.object({ key: z.string(), value: z.unknown() })), job_id: nullableText, error: nullableText })),
});

/** A comparison's summary (comparisonAnswer.ts): the figures per target and the cases that changed or fail. */
export const ComparisonAnswerSchema = z.object({
  title: z.string(),
  agent_id: z.string(),
  test_set: z.string(),
  keys: z.array(z.string()),
  complete: z.boolean(),
  targets: z.array(ComparisonTargetSchema),
  // Per target: accuracy, changes against the baseline, failures, cost, tokens, durations, outcomes.
  summary: z.array(z.record(z.string(), z.unknown())),
  cases: z.array(ComparisonCaseSchema),
  cases_total: z.number().int(),
  cases_left_out: z.number().int(),
});
export type ComparisonAnswer = z.infer<typeof ComparisonAnswerSchema>;

/** The first answer of paid or changing work where the client cannot ask the user: the plan and its confirmation id. */
export const PlanAnswerSchema = z.object({
  needs_confirmation: z.literal(true),
  plan: z.record(z.string(), z.unknown()),
  jobs: z.number().int(),
  confirmation_id: z.string(),
  expires_in_minutes: z.number(),
});

/** The answer when the user said no to a plan (or dismissed the question). */
export const DeclinedAnswerSchema = z.object({ declined: z.literal(true) });
