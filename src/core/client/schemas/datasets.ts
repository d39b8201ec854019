/** Datasets and dataset files (interface section 2). */
import * as z from 'zod/mini';
import { CreatorSchema, pageEnvelope } from './common';

export const DatasetSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  creator: z.nullish(CreatorSchema),
  created_at: z.string(),
  organization: z.nullish(z.string()),
});
export type Dataset = z.infer<typeof DatasetSchema>;

export const DatasetFileSchema = z.looseObject({
  id: z.string(),
  dataset: DatasetSchema,
  name: z.string(),
  size: z.number(),
  creator: z.nullable(CreatorSchema),
  created_at: z.string(),
});
export type DatasetFile = z.infer<typeof DatasetFileSchema>;

export const DatasetPageSchema = pageEnvelope(DatasetSchema);
export const DatasetFilePageSchema = pageEnvelope(DatasetFileSchema);
