/** The tables API of the live service: lists, describe, preview, queries with results, uploads. */
import * as z from 'zod/mini';
import { freeText } from './common';

export const TableColumnSchema = z.looseObject({
  name: z.string(),
  // A ClickHouse type name (`String`, `Nullable(Int64)`…); a column whose type is not said is still a column.
  type: z.nullish(z.string()),
});
export type TableColumn = z.infer<typeof TableColumnSchema>;

const FreeColumnSchema = z.looseObject({ name: freeText, type: freeText });

/**
 * Columns are free objects on the live service: a name that is a number reads as its text, a type that is not
 * text as unknown; a list with a column that has no name at all reads as no columns known, so the rows' own keys
 * name them. Null or absent reads as no columns known too (`?? []` where used).
 */
const columns = z.pipe(
  z.nullish(z.array(z.unknown())),
  z.transform((list): TableColumn[] | null | undefined => {
    if (!list) return list;
    const read = list.map((entry): TableColumn | undefined => {
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return undefined;
      const parsed = FreeColumnSchema.safeParse(entry);
      return parsed.success && parsed.data.name ? { ...parsed.data, name: parsed.data.name } : undefined;
    });
    return read.every((c) => c !== undefined) ? read : null;
  }),
);

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
  columns,
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
