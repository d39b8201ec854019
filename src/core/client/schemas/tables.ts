/** The tables API of the live service: lists, describe, preview, queries with results, uploads. */
import * as z from 'zod/mini';

export const TableColumnSchema = z.looseObject({
  name: z.string(),
  // A ClickHouse type name (`String`, `Nullable(Int64)`…); a column whose type is not said is still a column.
  type: z.nullish(z.string()),
});
export type TableColumn = z.infer<typeof TableColumnSchema>;

// Null or absent reads as no columns known (`?? []` where used).
const columns = z.nullish(z.array(TableColumnSchema));

export const TableSchema = z.looseObject({
  name: z.string(),
  columns,
});
export type Table = z.infer<typeof TableSchema>;

export const TableListSchema = z.looseObject({
  results: z.array(TableSchema),
  total: z.nullish(z.number()),
});
export type TableList = z.infer<typeof TableListSchema>;

export const TableDescriptionSchema = z.looseObject({
  table_name: z.string(),
  columns,
  row_count: z.nullish(z.number()),
  updated_at: z.nullish(z.string()),
});
export type TableDescription = z.infer<typeof TableDescriptionSchema>;

/** A row keyed by column name; values are any JSON (a huge cell may come back shortened, as a string). */
const RowSchema = z.record(z.string(), z.unknown());

export const TablePreviewSchema = z.looseObject({
  table_name: z.string(),
  columns,
  rows: z.nullish(z.array(RowSchema)),
  row_count: z.nullish(z.number()),
});
export type TablePreview = z.infer<typeof TablePreviewSchema>;

export const TableQuerySubmittedSchema = z.looseObject({
  table_query_id: z.string(),
  status: z.string(),
  created_at: z.nullish(z.string()),
});
export type TableQuerySubmitted = z.infer<typeof TableQuerySubmittedSchema>;

export const TableQueryResultSchema = z.looseObject({
  table_query_id: z.string(),
  status: z.string(),
  error: z.nullish(z.string()),
  columns: z.nullish(columns),
  rows: z.nullish(z.array(RowSchema)),
  row_count: z.nullish(z.number()),
  truncated: z.nullish(z.boolean()),
  execution_time_ms: z.nullish(z.number()),
});
export type TableQueryResult = z.infer<typeof TableQueryResultSchema>;

export const TableUploadedSchema = z.looseObject({
  table_name: z.string(),
  organization_id: z.nullish(z.string()),
  summary: z.optional(z.unknown()),
});
export type TableUploaded = z.infer<typeof TableUploadedSchema>;
