/** Database query results (interface section 2) and the answer to submitting a query (our decision). */
import * as z from 'zod/mini';

export const QuerySummarySchema = z.looseObject({
  read_rows: z.nullish(z.number()),
  read_bytes: z.nullish(z.number()),
  written_rows: z.nullish(z.number()),
  written_bytes: z.nullish(z.number()),
  total_rows_to_read: z.nullish(z.number()),
  result_rows: z.nullish(z.number()),
  result_bytes: z.nullish(z.number()),
  elapsed_ns: z.nullish(z.number()),
  query_id: z.nullish(z.string()),
});
export type QuerySummary = z.infer<typeof QuerySummarySchema>;

export const QueryResultSchema = z.looseObject({
  query: z.nullish(z.string()),
  summary: z.nullish(QuerySummarySchema),
  row_count: z.number(),
  column_names: z.array(z.string()),
  column_types: z.nullish(z.array(z.string())),
  // Cells are text; SQL NULL stays null.
  result_rows: z.array(z.array(z.nullable(z.string()))),
  start_timestamp: z.nullish(z.number()),
  end_timestamp: z.nullish(z.number()),
  query_id: z.nullish(z.string()),
  // Set when the service cut the rows short.
  truncated: z.optional(z.boolean()),
});
export type QueryResult = z.infer<typeof QueryResultSchema>;

export const QueryResultSetSchema = z.looseObject({
  worksheet_query_id: z.string(),
  status: z.string(),
  results: z.nullish(z.array(QueryResultSchema)),
  error: z.nullish(z.string()),
});
export type QueryResultSet = z.infer<typeof QueryResultSetSchema>;

export const SubmittedQuerySchema = z.looseObject({
  worksheet_query_id: z.string(),
  status: z.string(),
});
export type SubmittedQuery = z.infer<typeof SubmittedQuerySchema>;
