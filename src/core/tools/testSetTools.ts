/** Work that makes a test set and runs it: a test set from past jobs; a comparison of two versions (or the results before) on a test set. */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod';
import { newComparison, serializeComparison, type ComparisonRecord, type ComparisonTarget } from '../comparison/comparisonRecord';
import { readCostEstimate, estimateText } from '../comparison/costEstimate';
import { parseTestSet } from '../comparison/testSet';
import { testSetAgentId } from '../comparison/testSetCheck';
import { testSetFromJobs, testSetLeftOutNote } from '../comparison/testSetFromJobs';
import { cancelUnfinished } from '../comparison/comparisonRunner';
import { confinedWriteTarget, writeConfined } from '../confinedWrite';
import { clientComparisonService, runToEnd } from '../trial/trialComparison';
import { ComparisonAnswerSchema } from './answerSchemas';
import { comparisonAnswer } from './comparisonAnswer';
import { confinedPath, readConfined } from './confinement';
import { defineTool, ToolRefusal, type ToolContext } from './toolTypes';

export const createTestSet = defineTool({
  name: 'create_test_set',
  title: 'Create a test set from jobs',
  kind: 'paid',
  description:
    "Writes a test set file (*.testset.jsonl) from finished jobs of an agent: their inputs as cases, the reviewers' corrections as expected outcomes, each job as the case's result before. Costs nothing: starts no job (reads the jobs' results); writes one file in the workspace, so nothing is written until the user agreed to it. Returns the file's path and the number of cases.",
  input: z.strictObject({
    agent_id: z.string().min(1).max(200).describe('The agent the jobs belong to.'),
    job_ids: z.array(z.string().min(1).max(200)).min(1).max(1000).describe('Finished jobs (from list_jobs).'),
    path: z.string().min(1).max(1000).regex(/\.testset\.jsonl$/i, 'must end in .testset.jsonl').describe('The file to write, relative to the workspace folder; an existing file is not overwritten.'),
  }),
  output: z.object({ path: z.string(), cases: z.number().int(), left_out: z.number().int(), skipped_files: z.array(z.string()) }),
  needsTrust: true,
  async plan(i, ctx) {
    const file = await confinedPath(ctx.root, i.path, 'path');
    if (await exists(file)) throw new ToolRefusal(`\`path\`: ${i.path} exists already; name a new file.`);
    return { text: `Write ${i.path} with up to ${i.job_ids.length} cases from jobs of agent ${i.agent_id} (no job is started).`, jobs: 0, data: { path: i.path } };
  },
  async run(i, ctx) {
    const file = await confinedPath(ctx.root, i.path, 'path');
    const agent = await ctx.client.agents.get(i.agent_id, { signal: ctx.signal });
    const wanted = new Set(i.job_ids);
    const jobs = [];
    for await (const job of ctx.client.jobs.items(i.agent_id, { page_size: 100, ordering: '-created_at' }, { signal: ctx.signal })) {
      if (wanted.delete(job.id)) jobs.push(job);
      if (wanted.size === 0) break;
    }
    if (wanted.size) throw new ToolRefusal(`No such job of ${agent.name}: ${[...wanted].slice(0, 5).join(', ')}. Nothing was written.`);
    const made = await testSetFromJobs(ctx.client, agent, jobs, undefined, ctx.signal);
    await writeConfined(ctx.root!, file, made.text, { exclusive: true });
    return { text: `Wrote ${i.path}: ${made.cases} case${made.cases === 1 ? '' : 's'} from jobs of ${agent.name}.${testSetLeftOutNote(made)} run_comparison or try_policy_edit take it.`, data: { path: i.path, cases: made.cases, left_out: made.leftOut, skipped_files: made.skippedFiles } };
  },
});

const ComparisonInput = z.strictObject({
  test_set: z.string().min(1).max(1000).describe('The test set (*.testset.jsonl or *.csv), relative to the workspace folder.'),
  agent_id: z.string().min(1).max(200).optional().describe('The agent; default the one the test set names in its header.'),
  versions: z.array(z.string().min(1).max(200)).min(1).max(4).describe('Version ids to run the cases on; with one, it is compared with the results before (cases made from jobs).'),
});
type ComparisonInput = z.infer<typeof ComparisonInput>;

async function comparisonOf(i: ComparisonInput, ctx: ToolContext): Promise<{ record: ComparisonRecord; file: string }> {
  const { path: file, text } = await readConfined(ctx.root, i.test_set, 'test_set');
  const name = path.basename(file);
  const { cases } = parseTestSet(name, text);
  if (!cases.length) throw new ToolRefusal(`\`test_set\`: ${i.test_set} has no case to run.`);
  const agentId = i.agent_id ?? testSetAgentId(text);
  if (!agentId) throw new ToolRefusal('`agent_id`: the test set names no agent; give agent_id.');
  const agent = await ctx.client.agents.get(agentId, { signal: ctx.signal });
  const all = await ctx.client.agents.listVersions(agentId, { signal: ctx.signal });
  const targets: ComparisonTarget[] = i.versions.map((id) => {
    const v = all.find((x) => x.id === id);
    if (!v) throw new ToolRefusal(`\`versions\`: ${agent.name} has no version ${id}.`);
    return { id: `v-${v.id}`, label: v.version_name, kind: 'version', agentVersionId: v.id };
  });
  if (targets.length === 1) {
    if (!cases.every((c) => c.sourceJobId)) throw new ToolRefusal('`versions`: with one version the cases must come from jobs (results before); give two versions.');
    targets.unshift({ id: 'before', label: 'Results before', kind: 'baseline' });
  }
  const record = newComparison({ title: `${name}: ${targets.map((t) => t.label).join(' vs ')}`, agentId, agentName: agent.name, testSet: name, cases, targets });
  const out = path.join(path.dirname(file), `${name.replace(/\.(testset\.)?(jsonl|csv)$/i, '')}.comparison.json`);
  // Checked before the estimate is even answered: a comparison that could not be saved must not start.
  await confinedWriteTarget(ctx.root!, out);
  return { record, file: out };
}

export const runComparison = defineTool({
  name: 'run_comparison',
  title: 'Run a comparison',
  kind: 'paid',
  description:
    "Runs a test set's cases on one or more versions of an agent and compares the outcomes (with one version: against the results before). Paid: one job per case and version; nothing starts until the user agreed to the estimate. Waits for the jobs (progress is reported) and returns accuracy against expected outcomes, changed cases, failures and cost; writes <test set>.comparison.json beside the test set.",
  input: ComparisonInput,
  output: ComparisonAnswerSchema.extend({ file: z.string() }),
  needsTrust: true,
  async plan(i, ctx) {
    const { record } = await comparisonOf(i, ctx);
    const estimate = await readCostEstimate(ctx.client, record, ctx.signal);
    return { text: `${record.title}: ${estimateText(estimate)}.`, jobs: estimate.jobs, data: { estimate }, targets: [{ kind: 'agent', id: record.agentId }] };
  },
  async run(i, ctx) {
    const { record, file } = await comparisonOf(i, ctx);
    // The jobs this comparison runs: the results before are read from past jobs, not run, and count for nothing.
    const ran = new Set(record.targets.filter((t) => t.kind !== 'baseline').map((t) => t.id));
    const total = record.cases.length * ran.size;
    const save = async (): Promise<void> => {
      const final = record.cases.reduce((n, c) => n + Object.entries(c.runs).filter(([id, r]) => ran.has(id) && r.outputs !== undefined).length, 0);
      ctx.progress?.(final, total, `${record.title}: ${final} of ${total} jobs final`);
      await writeConfined(ctx.root!, file, serializeComparison(record));
    };
    try {
      await runToEnd(record, ctx.client, save, { signal: ctx.signal, pollMs: ctx.pollMs, grounds: ctx.grounds, events: { onStarted: (_n, ids, agentId) => ctx.jobsStarted?.(agentId, ids, record.title) } });
    } catch (error) {
      // A cancelled call stops the jobs it started (with a fresh signal: the call's is spent).
      if (ctx.signal.aborted) await cancelUnfinished(record, clientComparisonService(ctx.client), new AbortController().signal).catch(() => undefined);
      throw error;
    }
    const answer = comparisonAnswer(record);
    return { text: `${answer.text}\nWritten to ${path.relative(ctx.root ?? '', file)}.`, data: { ...answer.data, file: path.relative(ctx.root ?? '', file) } };
  },
});

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}
