// The comparison view with a finished 1,000-case × 3-target comparison: the file is written into the
// workspace and opened in the comparison view the way a user opens it (VS Code's openWith), and its
// page is then watched and scrolled from the browser side.
import * as vscode from 'vscode';
import { newComparison, serializeComparison } from '../../../src/core/comparison/comparisonRecord';
import { JobStatus } from '../../../src/core/jobStatus';
import type { ComparisonFileArgs } from '../protocol';

const OUTCOMES = ['Approve', 'Escalate', 'Refund', 'Reject'];

/** Writes a finished comparison of `cases` cases on three targets, answering its file's path. */
export async function writeComparison(args: ComparisonFileArgs): Promise<string> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('The bench window has no workspace folder.');
  const record = newComparison({
    title: `Bench ${args.cases} cases`,
    agentId: '11111111-2222-4333-8444-555555555555',
    testSet: 'bench.testset.jsonl',
    cases: Array.from({ length: args.cases }, (_, i) => ({ line: i + 1, name: `case ${i}`, tags: i % 7 === 0 ? ['refunds'] : [], inputs: { transcript: `call ${i}` }, sourceJobId: `before-${i}`, expected: { disposition: OUTCOMES[i % 4]! } })),
    targets: [
      { id: 'before', label: 'Results before', kind: 'baseline' },
      { id: 'now', label: 'Current version now', kind: 'current' },
      { id: 'v2', label: 'Version 2', kind: 'version', agentVersionId: '22222222-2222-4333-8444-555555555555' },
    ],
  });
  record.cases.forEach((c, i) => {
    for (const [t, id] of ['before', 'now', 'v2'].entries()) {
      c.runs[id] = {
        jobId: `${id}-${i}`,
        status: JobStatus.SUCCESS,
        outputs: [{ key: 'disposition', value: OUTCOMES[(i + (i % (5 + t) === 0 ? t : 0)) % 4]! }],
        cost: 0.01 + t * 0.005,
        inputTokens: 200 + (i % 50),
        outputTokens: 40 + t,
        durationMs: 900 + ((i * 37) % 800),
      };
    }
  });
  const uri = vscode.Uri.joinPath(folder.uri, `bench-${args.cases}.comparison.json`);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(serializeComparison(record)));
  return uri.toString();
}

/** Opens the file in the comparison view; answers Date.now() just before (the browser reads the same clock). */
export async function openComparison(uri: string): Promise<number> {
  const openedAt = Date.now();
  await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.parse(uri), 'agentWorkbench.comparison', { preview: false });
  return openedAt;
}
