// A 100 MB CSV uploaded as a table: through the extension's client (dist/core.js, tables.upload: the
// streamed multipart body) and with `curl -F`, to the same sandbox, in alternating pairs, with this
// process's memory sampled during the client's uploads. Plain Node, not the extension host.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { curlForm } from '../lib/curl';
import { type Figure, size, throughput } from '../lib/figures';
import { type CoreBundle, RawHttp, type Sandbox } from '../lib/services';
import { median, round } from '../lib/stats';

const TARGET_BYTES = 100 * 1024 * 1024;
const PAIRS = 2;
const TABLE = 'bench_upload';
const BUDGET_RATIO = 0.8;
const BUDGET_GROWTH = 50 * 1024 * 1024;

/** Writes a CSV of about 100 MB: an id, a text, an amount, a date and an optional flag per row. */
function writeCsv(file: string): number {
  const out = fs.openSync(file, 'w');
  let written = 0;
  let id = 0;
  try {
    fs.writeSync(out, 'id,customer,amount,day,flag\n');
    while (written < TARGET_BYTES) {
      let chunk = '';
      for (let i = 0; i < 10_000; i++, id++) chunk += `${id},"customer ${id % 9973}, ltd",${(id % 1000) / 7},2025-0${1 + (id % 9)}-1${id % 10},${id % 5 === 0 ? '' : 'true'}\n`;
      written += fs.writeSync(out, chunk);
    }
  } finally {
    fs.closeSync(out);
  }
  return fs.statSync(file).size;
}

function curlUpload(sandbox: Sandbox, file: string): Promise<number> {
  const url = `${sandbox.baseUrl}/v1/tables/upload/?organization_id=${sandbox.organizationId}`;
  return curlForm(url, sandbox.token, [['table_name', TABLE], ['with_headers', 'true'], ['organization_id', sandbox.organizationId]], file);
}

/** Measures the client's upload throughput against curl, and the memory it grows by. */
export async function tableUpload(sandbox: Sandbox, core: CoreBundle, tmpDir: string): Promise<Figure[]> {
  const file = path.join(tmpDir, 'bench-table-100MB.csv');
  const bytes = writeCsv(file);
  const client = new core.ServiceClient({ baseUrl: sandbox.baseUrl, token: sandbox.token, organizationId: sandbox.organizationId, timeoutMs: 600_000 });
  const raw = new RawHttp(sandbox);
  const drop = async (): Promise<void> => void (await raw.send('DELETE', `/v1/tables/${TABLE}/`));
  const ours: number[] = [];
  const curls: number[] = [];
  const growth: number[] = [];
  const viaClient = async (): Promise<number> => {
    const before = process.memoryUsage().rss;
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const started = performance.now();
    try {
      await client.tables.upload({ filePath: file, tableName: TABLE });
    } finally {
      clearInterval(timer);
    }
    const took = performance.now() - started;
    growth.push(Math.max(peak, process.memoryUsage().rss) - before);
    await drop();
    return took;
  };
  const viaCurl = async (): Promise<number> => {
    const took = await curlUpload(sandbox, file);
    await drop();
    return took;
  };
  try {
    for (let pair = 0; pair <= PAIRS; pair++) {
      const clientFirst = pair % 2 === 0;
      const a = clientFirst ? await viaClient() : await viaCurl();
      const b = clientFirst ? await viaCurl() : await viaClient();
      if (pair === 0) {
        growth.length = 0;
        continue;
      }
      ours.push(clientFirst ? a : b);
      curls.push(clientFirst ? b : a);
    }
  } finally {
    await client.close();
    await raw.close();
    fs.rmSync(file, { force: true });
  }
  const ratios = ours.map((o, i) => (curls[i] as number) / o);
  const ratio = median(ratios);
  const rate = (times: number[]): number => bytes / (median(times) / 1000);
  const worst = Math.max(...growth);
  const method =
    `A ${size(bytes)} CSV (5 columns, quoted text, empty cells) uploaded as a table to the benchmarks' sandbox, ${PAIRS} pairs after a warm-up pair, the ` +
    'order alternating: through the bundled client (tables.upload, plain Node, not the extension host) and with curl -F (same fields). Both times ' +
    "include the sandbox reading the whole file once to type its columns before it answers 201. Each table is dropped afterwards.";
  return [
    {
      key: 'tables.upload.throughput',
      title: 'CSV table upload 100 MB: throughput',
      ours: throughput(rate(ours)),
      reference: `curl -F: ${throughput(rate(curls))}`,
      ratio: round(ratio, 2),
      budget: `≥ ${BUDGET_RATIO}× curl's throughput`,
      within: ratio >= BUDGET_RATIO,
      method,
      values: { bytes, oursMs: ours.map((o) => round(o)), curlMs: curls.map((c) => round(c)), ratios: ratios.map((r) => round(r, 3)) },
    },
    {
      key: 'tables.upload.memory',
      title: 'CSV table upload 100 MB: client memory growth',
      ours: size(worst),
      reference: '—',
      ratio: null,
      budget: '≤ 50 MB',
      within: worst <= BUDGET_GROWTH,
      method: `${method} Resident set of the client's process sampled every 50 ms during each upload; growth = peak − the value just before; the largest run.`,
      values: { growthBytes: growth },
    },
  ];
}
