// `npm run typecheck` (and the first gate of `npm test`): every TypeScript project of the repository
// — each tsconfig.json outside node_modules — checked with `tsc --noEmit`, one after the other. A new
// page or test folder with its own tsconfig is checked without anyone editing a list.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './paths.mjs';

const SKIP = new Set(['node_modules', 'dist', 'out', '.git', '.vscode-test', '.sandbox-data', 'test-results', 'tmp']);

/** Folders holding a tsconfig.json, repository-relative, sorted. */
export function typeScriptProjects(root = repoRoot) {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && !SKIP.has(entry.name) && !entry.name.startsWith('.')) walk(path.join(dir, entry.name));
      else if (entry.isFile() && entry.name === 'tsconfig.json') found.push(path.relative(root, dir) || '.');
    }
  };
  walk(root);
  return found.sort();
}

const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
let failed = 0;
const projects = typeScriptProjects();
for (const project of projects) {
  const started = Date.now();
  const result = spawnSync(process.execPath, [tsc, '-p', project, '--noEmit'], { cwd: repoRoot, stdio: 'inherit' });
  const ok = result.status === 0;
  if (!ok) failed++;
  console.log(`  tsc -p ${project}: ${ok ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
// runAll.mjs counts projects in its summary table.
const summaryFile = process.env.AGENT_WORKBENCH_TEST_SUMMARY;
if (summaryFile) fs.writeFileSync(summaryFile, JSON.stringify({ passed: projects.length - failed, failed, pending: 0 }));
process.exit(failed > 0 ? 1 : 0);
