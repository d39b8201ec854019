// `npm run bench:report`: writes bench/results.md and the table in docs/benchmarks.md again from
// bench/results.json (the last full `npm run bench`), without measuring anything. `npm run bench`
// does the same at its end; this is for when only the report's layout changed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../test/harness/index.mjs';
import { BENCH_TABLE_PAGE, type RunReport, updateBenchTable, writeResults } from './lib/report';

const benchDir = path.join(repoRoot, 'bench');
const report = JSON.parse(fs.readFileSync(path.join(benchDir, 'results.json'), 'utf8')) as RunReport;
writeResults(benchDir, report);
const table = updateBenchTable(path.join(repoRoot, BENCH_TABLE_PAGE), report, path.join(benchDir, 'results.md'));
console.log(`Wrote bench/results.md${table ? ` and the table in ${BENCH_TABLE_PAGE}` : ''} from the run of ${report.startedAt}.`);
