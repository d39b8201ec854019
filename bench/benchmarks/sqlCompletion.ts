// SQL completion latency with a large catalog (200 tables × 50 columns), measured in plain Node on the
// bundled SQL logic (dist/sql.js, the code the extension loads for .sql files). The editor layer on top
// only maps items, so this is most of the time a completion takes in the extension host.
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { repoRoot } from '../../test/harness/index.mjs';
import { type Figure, ms } from '../lib/figures';
import type { HostSession } from '../lib/hostSession';
import type { Sandbox } from '../lib/services';
import { percentile, round } from '../lib/stats';

type SqlBundle = typeof import('../../src/core/sql/index');

const TABLES = 200;
const COLUMNS = 50;
const RUNS = 400;
const WARM_UP = 50;
const BUDGET_MS = 50;

/** A query of some size, with the cursor in each kind of place the completion handles. */
function cases(): Array<{ name: string; text: string; offset: number }> {
  const cte = 'WITH recent AS (\n  SELECT t_007.c_01, t_007.c_02 AS amount FROM t_007 WHERE t_007.c_03 > 10\n)\n';
  const body = 'SELECT r.c_01, x.c_10, y.c_20\nFROM recent r\nJOIN t_042 x ON x.c_01 = r.c_01\nJOIN (SELECT c_01, c_20 FROM t_150) y ON y.c_01 = x.c_01\nWHERE x.c_05 IN (SELECT c_05 FROM t_199)\n';
  const text = `-- a report\n${cte}${body}`.repeat(5);
  const at = (marker: string, extra = 0): number => text.lastIndexOf(marker) + marker.length + extra;
  return [
    { name: 'after FROM', text: `${text}SELECT * FROM `, offset: text.length + 'SELECT * FROM '.length },
    { name: 'after alias.', text, offset: at('SELECT r.c_01, x.', 0) },
    { name: 'in a CTE', text, offset: at('SELECT t_007.c_01, ', 0) },
    { name: 'in a subquery', text, offset: at('(SELECT c_01, ', 0) },
  ];
}

const tableName = (t: number): string => `t_${String(t).padStart(3, '0')}`;
const columnName = (c: number): string => `c_${String(c).padStart(2, '0')}`;

/** Measures p95 completion time per kind of position and over all of them. */
export function sqlCompletion(): Figure[] {
  const sql = createRequire(path.join(repoRoot, 'package.json'))(path.join(repoRoot, 'dist', 'sql.js')) as SqlBundle;
  const tables = Array.from({ length: TABLES }, (_, t) => ({
    name: tableName(t),
    columns: Array.from({ length: COLUMNS }, (_, c) => ({ name: columnName(c), type: c % 3 === 0 ? 'Int64' : c % 3 === 1 ? 'Nullable(String)' : 'DateTime' })),
  }));
  const catalog = new sql.SqlCatalog(tables);
  const all: number[] = [];
  const perCase: Record<string, { p50: number; p95: number; items: number }> = {};
  for (const c of cases()) {
    const samples: number[] = [];
    let items = 0;
    for (let i = 0; i < WARM_UP + RUNS; i++) {
      const started = performance.now();
      const answer = sql.sqlCompletions(c.text, c.offset, catalog);
      const took = performance.now() - started;
      items = answer.items.length;
      if (i >= WARM_UP) samples.push(took);
    }
    if (items === 0) throw new Error(`No completion items ${c.name}: the benchmark's text is wrong.`);
    perCase[c.name] = { p50: round(percentile(samples, 50), 3), p95: round(percentile(samples, 95), 3), items };
    all.push(...samples);
  }
  const p95 = percentile(all, 95);
  return [
    {
      key: 'sql.completion',
      title: `SQL completion, ${TABLES} tables × ${COLUMNS} columns (p95)`,
      ours: ms(p95),
      reference: '—',
      ratio: null,
      budget: `p95 ≤ ${BUDGET_MS} ms`,
      within: p95 <= BUDGET_MS,
      method:
        `${RUNS} completions after ${WARM_UP} warm-ups at each of four positions (after FROM: ${TABLES} tables; after alias.; inside a CTE; inside a subquery) of a ` +
        `${cases()[0]!.text.length}-character document with five CTE queries, through dist/sql.js in plain Node (tokenize, scope analysis, items). ` +
        'Not in the extension host: the bench harness has no completion task yet; the editor layer adds only the mapping to CompletionItems. ' +
        `Per position: ${Object.entries(perCase).map(([k, v]) => `${k} p95 ${v.p95} ms (${v.items} items)`).join('; ')}.`,
      values: { perCase, p50: round(percentile(all, 50), 3), p95: round(p95, 3) },
    },
  ];
}

const HOST_RUNS = 100;
const HOST_WARM_UP = 10;

/** Uploads the 200 tables of 50 columns (a header and one row each) to the sandbox, a few at a time. */
async function makeTables(sandbox: Sandbox): Promise<void> {
  const header = Array.from({ length: COLUMNS }, (_, c) => columnName(c)).join(',');
  const row = Array.from({ length: COLUMNS }, (_, c) => (c % 3 === 0 ? String(c) : c % 3 === 1 ? '' : '2025-01-01 00:00:00')).join(',');
  const upload = async (t: number): Promise<void> => {
    const form = new FormData();
    form.append('table_name', tableName(t));
    form.append('file', new Blob([`${header}\n${row}\n`], { type: 'text/csv' }), `${tableName(t)}.csv`);
    const response = await fetch(`${sandbox.baseUrl}/v1/tables/upload/?organization_id=${sandbox.organizationId}`, { method: 'POST', headers: { authorization: `Bearer ${sandbox.token}` }, body: form });
    // 400 "already exists" from an earlier run of the same sandbox is fine.
    if (response.status !== 201 && response.status !== 400) throw new Error(`upload of ${tableName(t)}: HTTP ${response.status} ${await response.text()}`);
  };
  for (let t = 0; t < TABLES; t += 8) await Promise.all(Array.from({ length: Math.min(8, TABLES - t) }, (_, i) => upload(t + i)));
}

/** The same positions, through VS Code's completion request in the extension host, the catalog read from the sandbox. */
export async function sqlCompletionInHost(session: HostSession, sandbox: Sandbox): Promise<Figure[]> {
  await makeTables(sandbox);
  await session.host.call('connect', { baseUrl: sandbox.baseUrl, organizationId: sandbox.organizationId, token: sandbox.token });
  const all: number[] = [];
  const reference: number[] = [];
  const perCase: Record<string, { p50: number; p95: number; items: number }> = {};
  let tables = 0;
  for (const c of cases()) {
    const answer = await session.host.call('sqlCompletion', { text: c.text, offsets: [c.offset], warmUp: HOST_WARM_UP, runs: HOST_RUNS }, 10 * 60_000);
    const samples = answer.samples[0] ?? [];
    reference.push(...(answer.referenceSamples[0] ?? []));
    tables = answer.tables;
    perCase[c.name] = { p50: round(percentile(samples, 50), 2), p95: round(percentile(samples, 95), 2), items: answer.items[0] ?? 0 };
    all.push(...samples);
  }
  if (tables < TABLES) throw new Error(`The extension's catalog has ${tables} tables, fewer than the ${TABLES} made.`);
  const p95 = percentile(all, 95);
  const referenceP95 = percentile(reference, 95);
  return [
    {
      key: 'sql.completion.host',
      title: `SQL completion in the extension host, ${TABLES} tables × ${COLUMNS} columns (p95)`,
      ours: ms(p95),
      reference: `same request on a plaintext document: p95 ${ms(referenceP95)}`,
      ratio: round(p95 / referenceP95, 2),
      budget: `p95 ≤ ${BUDGET_MS} ms`,
      within: p95 <= BUDGET_MS,
      method:
        `${TABLES} tables of ${COLUMNS} columns uploaded to the sandbox (${tables} in the extension's catalog with the demo tables), then ` +
        `vscode.executeCompletionItemProvider on an untitled .sql document in code-server's extension host, ${HOST_RUNS} times after ${HOST_WARM_UP} ` +
        'warm-ups at each of four positions (after FROM, after alias., inside a CTE, inside a subquery); every completion provider of the editor ' +
        'answers, ours among them. Reference: the same request, alternating with ours, on the same text opened as plain text, where only VS Code\'s ' +
        `own providers answer (the round trip's cost on this machine). Per position: ${Object.entries(perCase).map(([k, v]) => `${k} p95 ${v.p95} ms (${v.items} items)`).join('; ')}.`,
      values: { perCase, p50: round(percentile(all, 50), 2), p95: round(p95, 2), referenceP50: round(percentile(reference, 50), 2), referenceP95: round(referenceP95, 2), tables },
    },
  ];
}
