/** Engines, models and the signed-in user (service's "Discovery and account" endpoints). */
import * as z from 'zod/mini';
import { freeText, orNull } from './common';

/** One engine of `GET /v1/agents/types/`: a free object, so a field of another type (a numeric id) reads as text or null. */
export const EngineTypeSchema = z.looseObject({
  id: freeText,
  engine_class_id: freeText,
  name: freeText,
  description: freeText,
  /** The inputs the engine expects (a JSON schema or a list of input definitions). */
  input_schema: z.optional(z.unknown()),
  /** The `engine_config` a new agent starts from. */
  default_engine_config: z.optional(z.unknown()),
});
export type EngineType = z.infer<typeof EngineTypeSchema>;

export const EngineTypeListSchema = z.looseObject({
  engine_types: z.array(z.string()),
  total_count: z.number(),
  // Entries that are not objects at all are left out rather than failing the engine list.
  engines: z.pipe(
    orNull(z.array(z.unknown())),
    z.transform((engines): EngineType[] => (engines ?? []).flatMap((engine) => {
      const parsed = EngineTypeSchema.safeParse(engine);
      return parsed.success ? [parsed.data] : [];
    })),
  ),
});
export type EngineTypeList = z.infer<typeof EngineTypeListSchema>;

/** One model id accepted in `engine_config.model`. */
export const ModelSchema = z.looseObject({
  id: z.string(),
  providers: z.nullish(z.array(z.string())),
  capabilities: z.nullish(z.array(z.string())),
  context_window: z.nullish(z.number()),
  max_output_tokens: z.nullish(z.number()),
  supports_system_message: z.nullish(z.boolean()),
  supports_temperature: z.nullish(z.boolean()),
  supports_reasoning_effort: z.nullish(z.boolean()),
  supports_json_output: z.nullish(z.boolean()),
  supports_json_schema: z.nullish(z.boolean()),
});
export type Model = z.infer<typeof ModelSchema>;

export const ModelListSchema = z.looseObject({
  models: z.array(ModelSchema),
  total_count: z.number(),
  tenant_scope: z.optional(z.unknown()),
});
export type ModelList = z.infer<typeof ModelListSchema>;

/** The user the token belongs to (`GET /v1/users/current_user/`). */
export const CurrentUserSchema = z.looseObject({
  id: z.union([z.number(), z.string()]),
  email: orNull(z.string()),
  first_name: orNull(z.string()),
  last_name: orNull(z.string()),
  display_name: orNull(z.string()),
});
export type CurrentUser = z.infer<typeof CurrentUserSchema>;
