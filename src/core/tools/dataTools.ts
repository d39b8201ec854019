/** Reads of data: datasets and their files; tables, one table's columns; a read-only SQL query over the tables with a row limit. */
import * as z from 'zod';
import { followQuery } from '../queries/followQuery';
import { count, listText } from './answers';
import { defineTool, ToolRefusal } from './toolTypes';

const DatasetsListed = z.union([
  z.object({ datasets: z.array(z.object({ id: z.string(), name: z.string(), created_at: z.string() })) }),
  z.object({ files: z.array(z.object({ id: z.string(), name: z.string(), size: z.number(), created_at: z.string() })) }),
]);

const TablesListed = z.union([
  z.object({ tables: z.array(z.object({ name: z.string(), columns: z.array(z.string()) })) }),
  z.object({ table: z.string(), row_count: z.number().nullable(), columns: z.array(z.object({ name: z.string(), type: z.string().nullable() })) }),
]);

const QueryRows = z.object({ columns: z.array(z.string()), rows: z.array(z.record(z.string(), z.unknown())), truncated: z.boolean() });

export const listDatasets = defineTool({
  name: 'list_datasets',
  title: 'List datasets and files',
  kind: 'read',
  description: 'Without dataset_id: the datasets of the organization (id, name). With dataset_id: its files (id, name, size, date). Reads only; costs nothing.',
  input: z.strictObject({
    dataset_id: z.string().min(1).max(200).optional().describe('A dataset id: list its files instead.'),
    limit: z.number().int().min(1).max(500).default(100).describe('The most items to answer.'),
  }),
  output: DatasetsListed,
  reads: (i) => (i.dataset_id ? `files of dataset ${i.dataset_id}` : 'datasets'),
  async run(i, ctx) {
    const opts = { signal: ctx.signal };
    if (!i.dataset_id) {
      const sets = [];
      for await (const d of ctx.client.datasets.items({}, opts)) if (sets.push({ id: d.id, name: d.name, created_at: d.created_at }) >= i.limit) break;
      return { text: listText(`${count(sets.length, 'dataset')}.`, sets.map((d) => `${d.name} (${d.id})`), 'list_datasets with a dataset_id lists its files.'), data: { datasets: sets } };
    }
    const files = [];
    for await (const f of ctx.client.datasets.fileItems(i.dataset_id, {}, opts)) if (files.push({ id: f.id, name: f.name, size: f.size, created_at: f.created_at }) >= i.limit) break;
    return { text: listText(`${count(files.length, 'file')} in dataset ${i.dataset_id}.`, files.map((f) => `${f.name} (${f.id}) · ${f.size.toLocaleString('en-US')} bytes`)), data: { files } };
  },
});

export const listTables = defineTool({
  name: 'list_tables',
  title: 'List tables',
  kind: 'read',
  description: 'Lists the tables SQL queries can read, or with table_name describes one (columns and types, row count). Reads only; costs nothing.',
  input: z.strictObject({ table_name: z.string().min(1).max(128).optional().describe('A table to describe instead.') }),
  output: TablesListed,
  reads: (i) => (i.table_name ? `table ${i.table_name}` : 'the list of tables'),
  async run(i, ctx) {
    const opts = { signal: ctx.signal };
    if (i.table_name) {
      const d = await ctx.client.tables.describe(i.table_name, opts);
      const columns = (d.columns ?? []).map((c) => ({ name: c.name, type: c.type ?? null }));
      return { text: `${d.table_name}${d.row_count != null ? ` · ${count(d.row_count, 'row')}` : ''}\nColumns: ${columns.map((c) => `${c.name} ${c.type ?? ''}`.trim()).join(', ')}`, data: { table: d.table_name, row_count: d.row_count ?? null, columns } };
    }
    const list = await ctx.client.tables.list(opts);
    const tables = list.results.map((t) => ({ name: t.name, columns: (t.columns ?? []).map((c) => c.name) }));
    return { text: listText(`${count(tables.length, 'table')}.`, tables.map((t) => `${t.name}${t.columns.length ? ` (${t.columns.slice(0, 8).join(', ')}${t.columns.length > 8 ? ', …' : ''})` : ''}`), 'list_tables with table_name describes one.'), data: { tables } };
  },
});

const FINAL = new Set(['SUCCESS', 'FAILURE', 'REVOKED']);

export const queryTables = defineTool({
  name: 'query_tables',
  title: 'Query tables (read-only SQL)',
  kind: 'read',
  description:
    'Runs one read-only SQL statement (SELECT or WITH) over the tables and answers its rows, at most max_rows (the service cuts the rest and says so). Reads only; the query runs on the service and costs nothing (no jobs).',
  input: z.strictObject({
    sql: z.string().min(1).max(20_000).describe('One SELECT or WITH statement.'),
    max_rows: z.number().int().min(1).max(1000).default(100).describe('The most rows to answer.'),
  }),
  output: QueryRows,
  needsTrust: true,
  reads: () => 'the rows of a read-only SQL query',
  async run(i, ctx) {
    if (!/^\s*(\(\s*)*(select|with)\b/i.test(i.sql.replace(/^\s*(--[^\n]*\n|\/\*[\s\S]*?\*\/)\s*/g, ''))) throw new ToolRefusal('`sql`: only one SELECT or WITH statement is run (read-only). Nothing was sent.');
    const submitted = await ctx.client.tables.query(i.sql, i.max_rows, { signal: ctx.signal });
    const result = await followQuery((signal) => ctx.client.tables.queryResult(submitted.table_query_id, { signal }), submitted.table_query_id, {
      signal: ctx.signal,
      isFinal: (r) => FINAL.has(r.status),
      onPending: (r, ms) => ctx.progress?.(0, undefined, `query ${r.status.toLowerCase()} · ${Math.round(ms / 1000)} s`),
      firstDelayMs: 100,
      maxWaitMs: 5 * 60_000,
    });
    if (result.status !== 'SUCCESS') throw new ToolRefusal(`The query failed on the service: ${result.error ?? result.status}.`);
    const rows = (result.rows ?? []).slice(0, i.max_rows);
    const columns = (result.columns ?? []).map((c) => c.name);
    const text = [`${count(rows.length, 'row')}${result.truncated ? ` (cut at ${i.max_rows}; raise max_rows or narrow the query)` : ''}.`, columns.join(' | '), ...rows.slice(0, 50).map((r) => columns.map((c) => JSON.stringify(r[c] ?? null)).join(' | '))].join('\n');
    return { text: rows.length > 50 ? `${text}\n…${rows.length - 50} more rows in the structured result.` : text, data: { columns, rows, truncated: result.truncated ?? false } };
  },
});
