// Run → the job on screen, from the extension host's side: a run file is run with the command its ▶ Run
// CodeLens calls, and the time runs until the Agents view's provider answers the agent's Jobs list with
// the new job in it (the tree item VS Code then draws). Beside it, in turn, one raw POST of the same
// body from the same process: the round trip no Run can beat.
import * as vscode from 'vscode';
import type { TreeNode } from '../../../src/extension/tree/treeNode';
import type { RunToRowArgs, RunToRowSample } from '../protocol';
import { closeAllEditors, waitFor, workbenchApi } from '../workbench';
import { agentNode, kindOf, phase } from './soak';

/** A step that takes longer than this is stuck (a dialog, a list that never answers): it is named. */
const STEP_LIMIT_MS = 60_000;

const jobIdOf = (node: TreeNode): string | undefined => (kindOf(node) === 'job' ? (node as unknown as { job: { id: string } }).job.id : undefined);

/** Times `args.rounds` runs (after a warm-up run) and as many raw requests, alternating. */
export async function runToRow(args: RunToRowArgs): Promise<RunToRowSample> {
  const api = await workbenchApi();
  const { provider } = api.agents;
  const agent = await phase('finding the agent in the Agents view', () => agentNode(args.agentName), STEP_LIMIT_MS);
  const jobsNode = ((await phase('the agent\'s children', async () => provider.getChildren(agent), STEP_LIMIT_MS)) ?? []).find((n) => kindOf(n) === 'agentJobs');
  if (!jobsNode) throw new Error('The agent has no Jobs node.');
  // The list is loaded, as it is once a user has opened it: a started job goes on top of it.
  await phase('the Jobs list', async () => provider.getChildren(jobsNode), STEP_LIMIT_MS);
  const uri = vscode.Uri.parse(`untitled:/bench/${args.agentName.replace(/\W+/g, '-')}.agentrun.json`);
  const document = await vscode.workspace.openTextDocument(uri);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), JSON.stringify({ agent: agent.agent.id, inputs: args.inputs }, null, 2));
  await vscode.workspace.applyEdit(edit);

  // Every answer of the Jobs list after a change of the tree, with the time it was there.
  const answers: Array<Promise<{ at: number; ids: Set<string> }>> = [];
  const changes = provider.onDidChangeTreeData(() => {
    answers.push(
      Promise.resolve(provider.getChildren(jobsNode)).then((nodes) => {
        const ids = new Set<string>();
        for (const node of nodes ?? []) {
          const id = jobIdOf(node);
          if (id === undefined) continue;
          ids.add(id);
          node.getTreeItem();
        }
        return { at: performance.now(), ids };
      }),
    );
  });
  const runMs: number[] = [];
  const rawMs: number[] = [];
  try {
    for (let round = 0; round <= args.rounds; round++) {
      answers.length = 0;
      const started = performance.now();
      const run = await phase(`run ${round}`, () => Promise.resolve(vscode.commands.executeCommand<{ jobIds: string[] } | undefined>('agentWorkbench.runs.runFile', uri)), STEP_LIMIT_MS);
      const jobId = run?.jobIds[0];
      if (!jobId) throw new Error('The run file started no job.');
      // The tree's change comes a moment after the command (the provider fires its refreshes together).
      const shown = await waitFor(async () => (await Promise.all(answers)).filter((a) => a.ids.has(jobId)).sort((a, b) => a.at - b.at)[0], 'the Agents view to list the started job', 10_000);
      const rawStarted = performance.now();
      const response = await fetch(`${args.baseUrl}/v1/agents/run/${agent.agent.id}/async/?organization_id=${args.organizationId}`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${args.token}` },
        // The run endpoint takes the input set itself as its body (what the client sends for one input set).
        body: JSON.stringify(args.inputs),
      });
      const answer = await response.text();
      if (!response.ok) throw new Error(`The raw request answered ${response.status}: ${answer.slice(0, 300)}`);
      if (round === 0) continue;
      runMs.push(shown.at - started);
      rawMs.push(performance.now() - rawStarted);
    }
  } finally {
    changes.dispose();
    (await workbenchApi()).stores.require().watcher.unwatchAll();
    await closeAllEditors();
    await vscode.commands.executeCommand('agentWorkbench.agents.clearFilter');
  }
  return { runMs, rawMs };
}
