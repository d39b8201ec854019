// `npm run bench:report`: writes bench/results.md and the README's table again from
// bench/results.json (the last full `npm run bench`), without measuring anything. `npm run bench`
// does the same at its end; this is for when only the report's layout changed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../test/harness/index.mjs';
import { type RunReport, updateReadme, writeResults } from './lib/report';

const benchDir = path.join(repoRoot, 'bench');
const report = JSON.parse(fs.readFileSync(path.join(benchDir, 'results.json'), 'utf8')) as RunReport;
writeResults(benchDir, report);
const readme = updateReadme(path.join(repoRoot, 'README.md'), report);
console.log(`Wrote bench/results.md${readme ? ' and the table in README.md' : ''} from the run of ${report.startedAt}.`);
