// A long session in the extension host: documents, job views and result panels opened and closed,
// thousands of jobs paged through in the Agents view, jobs watched through hundreds of polls; the
// host's retained heap and its handles before and after, each after a forced collection.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { AgentNode } from '../../../src/extension/agents/agentNodes';
import type { TreeNode } from '../../../src/extension/tree/treeNode';
import type { SoakArgs, SoakPhase, SoakSample, SoakSnapshot } from '../protocol';
import { closeAllEditors, waitFor, workbenchApi } from '../workbench';
import { retainedHeap } from './upload';

/** Heap after a full collection, and the handles the host holds open (by kind). */
async function snapshot(): Promise<SoakSnapshot> {
  const api = await workbenchApi();
  const heapBytes = retainedHeap();
  const resources: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) resources[kind] = (resources[kind] ?? 0) + 1;
  return { heapBytes, handles: Object.values(resources).reduce((a, b) => a + b, 0), resources, documents: api.editable.size };
}

async function closeEditors(): Promise<void> {
  await closeAllEditors();
}

/** A tree node's kind (agent, agentJobs, job, loadMore…). */
export const kindOf = (node: TreeNode | undefined): string | undefined => (node as { kind?: string } | undefined)?.kind;

/** Opens and closes `count` policy version documents (cycling through the versions there are). */
async function documents(count: number): Promise<number> {
  const api = await workbenchApi();
  const client = api.connection.requireClient();
  const policies = (await client.policies.list({ page_size: 50 })).results;
  const targets: Array<{ policy: (typeof policies)[number]; versionId: string }> = [];
  for (const policy of policies) {
    for (const version of (await client.policies.listVersions(policy.id, { page_size: 20 })).results) targets.push({ policy, versionId: version.id });
    if (targets.length >= count) break;
  }
  if (targets.length === 0) throw new Error('The sandbox has no policy versions to open.');
  for (let i = 0; i < count; i++) {
    const target = targets[i % targets.length]!;
    await api.policyDocuments.open(target.policy, await client.policies.getVersion(target.policy.id, target.versionId));
    if (i % 10 === 9) await closeEditors();
  }
  await closeEditors();
  return count;
}

/** The Agents view's node of the agent named `name` (searched for, as a user would). */
export async function agentNode(name: string): Promise<AgentNode> {
  const api = await workbenchApi();
  await vscode.commands.executeCommand('agentWorkbench.agents.search', name);
  const roots = (await api.agents.provider.getChildren(undefined)) ?? [];
  const node = roots.find((n) => kindOf(n) === 'agent' && (n as AgentNode).agent.name === name);
  if (!node) throw new Error(`No agent named ${name} in the Agents view.`);
  return node as AgentNode;
}

/** Pages through the agent's jobs in the Agents view with "Load more" until `count` are listed; returns some of their IDs. */
async function pageJobs(agentName: string, count: number): Promise<{ agentId: string; jobIds: string[]; pages: number }> {
  const api = await workbenchApi();
  const agent = await agentNode(agentName);
  const jobsNode = ((await api.agents.provider.getChildren(agent)) ?? []).find((n) => kindOf(n) === 'agentJobs');
  if (!jobsNode) throw new Error('The agent has no Jobs node.');
  let pages = 1;
  let children = (await api.agents.provider.getChildren(jobsNode)) ?? [];
  const jobs = (): TreeNode[] => children.filter((n) => kindOf(n) === 'job');
  while (jobs().length < count) {
    const more = children.find((n) => kindOf(n) === 'loadMore');
    if (!more) break;
    const before = jobs().length;
    await vscode.commands.executeCommand('agentWorkbench.tree.loadMore', more);
    children = await waitFor(async () => {
      const now = (await api.agents.provider.getChildren(jobsNode)) ?? [];
      return now.filter((n) => kindOf(n) === 'job').length > before ? now : undefined;
    }, 'the next page of jobs', 60_000);
    pages++;
  }
  const jobIds = jobs().slice(0, 50).map((n) => (n as unknown as { job: { id: string } }).job.id);
  const listed = jobs().length;
  await vscode.commands.executeCommand('agentWorkbench.agents.clearFilter');
  api.agents.reload();
  if (listed < count) throw new Error(`Only ${listed} jobs could be listed (wanted ${count}).`);
  return { agentId: agent.agent.id, jobIds, pages };
}

/** Opens and closes a job view for each job, through the command the tree and the status bar use. */
async function jobViews(agentId: string, jobIds: string[]): Promise<number> {
  for (const jobId of jobIds) {
    await vscode.commands.executeCommand('agentWorkbench.jobs.open', { agentId, jobId });
    await closeEditors();
  }
  return jobIds.length;
}

/** Runs `count` small queries through Run Query, each showing its panel, and closes them. */
async function resultPanels(count: number): Promise<number> {
  for (let i = 0; i < count; i++) {
    const set = await vscode.commands.executeCommand<{ status: string } | undefined>('agentWorkbench.queries.run', `SELECT ${i} AS n, 'soak ${randomUUID()}' AS label`);
    if (set?.status !== 'SUCCESS') throw new Error(`Query ${i} of the soak gave ${set?.status ?? 'nothing'}.`);
    await closeEditors();
  }
  return count;
}

/** Watches `jobIds` (running or not) and polls them `polls` times, `spacingMs` apart, as the watcher's timer would. */
async function watchPolls(jobIds: string[], polls: number, spacingMs: number): Promise<number> {
  const watcher = (await workbenchApi()).stores.require().watcher;
  watcher.unwatchAll();
  for (const id of jobIds) watcher.watch({ id, status: 0, label: `soak ${id.slice(0, 8)}` });
  for (let i = 0; i < polls; i++) {
    await watcher.refreshNow();
    await new Promise((resolve) => setTimeout(resolve, spacingMs));
  }
  watcher.unwatchAll();
  return polls;
}

/** Each phase's own limit: a phase that hangs (a dialog, a view that never answers) is named, not waited for. */
const PHASE_LIMIT_MS = 4 * 60_000;

/** Runs one phase of a host task within {@link PHASE_LIMIT_MS}, naming it when it does not finish. */
export async function phase<T>(name: string, run: () => Promise<T>, limitMs = PHASE_LIMIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`The phase "${name}" did not finish within ${limitMs / 1000} s.`)), limitMs);
  });
  try {
    return await Promise.race([run(), limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** One soak: a warm-up round, the snapshot before, every phase, everything closed, the snapshot after. */
export async function soak(args: SoakArgs): Promise<SoakSample> {
  const phases: SoakPhase[] = [];
  const timed = async (name: string, run: () => Promise<number>): Promise<void> => {
    const started = performance.now();
    const count = await phase(name, run);
    phases.push({ name, count, ms: Math.round(performance.now() - started) });
  };
  // Warm-up: every lazily loaded part and first-use cache is in place before the first snapshot.
  const warm = await phase('warm-up: jobs paged', () => pageJobs(args.agentName, 100));
  await phase('warm-up: documents', () => documents(5));
  await phase('warm-up: job views', () => jobViews(warm.agentId, warm.jobIds.slice(0, 2)));
  await phase('warm-up: result panels', () => resultPanels(2));
  await phase('warm-up: polls', () => watchPolls(warm.jobIds.slice(0, 5), 5, 0));
  await closeEditors();
  const before = await snapshot();
  await timed('service documents opened and closed', () => documents(args.documents));
  const paged = await phase('jobs paged through', () => pageJobs(args.agentName, args.jobs));
  phases.push({ name: `jobs paged through (${paged.pages} pages)`, count: args.jobs, ms: 0 });
  await timed('job views opened and closed', () => jobViews(paged.agentId, paged.jobIds.slice(0, args.jobViews)));
  await timed('result panels opened and closed', () => resultPanels(args.resultPanels));
  await timed(`polls of ${args.watched} watched jobs`, () => watchPolls(paged.jobIds.slice(0, args.watched), args.polls, args.pollSpacingMs));
  await closeEditors();
  // Closed editors' documents reach the extension host a moment after the tabs go.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const after = await snapshot();
  return { before, after, phases };
}
