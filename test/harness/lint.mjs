// `npm run lint` (and the second gate of `npm test`): ESLint with eslint.config.mjs over the
// TypeScript of src, test and bench. Prints ESLint's usual report; with AGENT_WORKBENCH_TEST_SUMMARY
// set (by runAll.mjs) it also writes how many files passed and failed, for the summary table.
import * as fs from 'node:fs';
import { ESLint } from 'eslint';
import { repoRoot } from './paths.mjs';

const eslint = new ESLint({ cwd: repoRoot });
const results = await eslint.lintFiles(['src', 'test', 'bench']);
const formatter = await eslint.loadFormatter('stylish');
const report = await formatter.format(results);
if (report) console.log(report);
const failed = results.filter((r) => r.errorCount > 0 || r.warningCount > 0).length;
console.log(`  eslint: ${results.length} files, ${failed} with problems`);
const summaryFile = process.env.AGENT_WORKBENCH_TEST_SUMMARY;
if (summaryFile) fs.writeFileSync(summaryFile, JSON.stringify({ passed: results.length - failed, failed, pending: 0 }));
process.exit(failed > 0 ? 1 : 0);
