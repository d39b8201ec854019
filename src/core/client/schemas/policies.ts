/** Policies and their versions (interface section 2 and service-gaps.md). */
import * as z from 'zod/mini';
import { CreatorSchema, orNull, pageEnvelope } from './common';

export const PolicySchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.nullish(z.string()),
  organization_id: z.nullish(z.string()),
  current_version_id: z.nullable(z.string()),
  created_at: z.string(),
  updated_at: z.nullish(z.string()),
});
export type Policy = z.infer<typeof PolicySchema>;

/**
 * A policy version. The answer to creating one carries only `id`, `version_name` and `content`; list and
 * get add the rest. `content` stays unchecked here: the policy editor validates it, and a version with an
 * unexpected content must still open so that it can be repaired.
 */
export const PolicyVersionSchema = z.looseObject({
  id: z.string(),
  version_name: z.nullish(z.string()),
  content: z.unknown(),
  created_at: z.nullish(z.string()),
  updated_at: z.nullish(z.string()),
  base_version_id: z.nullish(z.string()),
  created_by: z.nullish(CreatorSchema),
  policy: z.nullish(PolicySchema),
});
export type PolicyVersion = z.infer<typeof PolicyVersionSchema>;

export const PolicyPageSchema = pageEnvelope(PolicySchema);
export const PolicyVersionPageSchema = pageEnvelope(PolicyVersionSchema);

/** An agent version that uses a policy, as a 409 of deleting that policy lists it. */
export const DependentAgentSchema = z.looseObject({
  base_agent_id: orNull(z.string()),
  agent_name: orNull(z.string()),
  version_id: orNull(z.string()),
  version_name: orNull(z.string()),
});
export type DependentAgent = z.infer<typeof DependentAgentSchema>;
