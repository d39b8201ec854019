/** Base agents and agent versions (interface section 2, with the live service's leniencies). */
import * as z from 'zod/mini';
import { CreatorSchema, TagsSchema, pageEnvelope } from './common';

export const InputDefinitionSchema = z.looseObject({
  key: z.string(),
  data_type: z.nullish(z.string()),
  description: z.nullish(z.string()),
  example: z.nullish(z.string()),
  accepts_multiple_files: z.nullish(z.boolean()),
});
export type InputDefinition = z.infer<typeof InputDefinitionSchema>;

export const BaseAgentSchema = z.looseObject({
  id: z.string(),
  created_at: z.string(),
  name: z.string(),
  disable_cache: z.boolean(),
  cache_failed_jobs: z.boolean(),
  organization_id: z.string(),
  engine_class_id: z.string(),
  current_version_id: z.nullable(z.string()),
  // Null (or absent) when job statistics were not asked for.
  job_count: z.nullish(z.number()),
  most_recent_job: z.nullish(z.string()),
  engine_name: z.nullish(z.string()),
  tags: z.nullish(TagsSchema),
  creator: z.nullish(CreatorSchema),
  description: z.nullish(z.string()),
  updated_at: z.nullish(z.string()),
});
export type BaseAgent = z.infer<typeof BaseAgentSchema>;

export const AgentVersionSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  version_name: z.string(),
  created_at: z.string(),
  engine_class_id: z.string(),
  engine_name: z.nullish(z.string()),
  input_definitions: z.array(InputDefinitionSchema),
  engine_config: z.unknown(),
  organization_id: z.string(),
  readonly: z.boolean(),
  base_agent: BaseAgentSchema,
  creator: z.nullish(CreatorSchema),
  description: z.nullish(z.string()),
});
export type AgentVersion = z.infer<typeof AgentVersionSchema>;

export const BaseAgentPageSchema = pageEnvelope(BaseAgentSchema);
export const AgentVersionListSchema = z.array(AgentVersionSchema);
/** Starting a job answers with the new job's id as a bare JSON string. */
export const JobIdSchema = z.string();
/** Starting many jobs answers with their ids, in the order of the inputs. */
export const JobIdListSchema = z.array(z.string());
