/** Trying a policy edit or an agent version draft on copies (paid; nothing published), and publishing what was tried (a change). */
import * as path from 'node:path';
import * as z from 'zod';
import { estimateText } from '../comparison/costEstimate';
import { ruleCoverageLine } from '../coverage/coverageText';
import { confinedWriteTarget, writeConfined } from '../confinedWrite';
import { parsePolicyFile, type PolicyFile } from '../trial/policyFile';
import { publishable, publishTarget, publishTrial, TrialConflict } from '../trial/trialEnd';
import { NotTried, NotYourTrial } from '../trial/trialOwnership';
import { isDraftTrial, parseTrial, serializeTrial, type PolicyTrialRecord, type TrialRecord } from '../trial/trialRecord';
import { describeLeftAlone } from '../trial/trialRemoval';
import { planDraftTrial, planPolicyTrial, tryAgentDraft, tryPolicyEdit, type TrialTestSet, type TryAgentDraftOptions, type TryPolicyEditResult } from '../trial/tryPolicyEdit';
import { AgentVersionDraftSchema, type AgentVersionDraft } from '../documents/agentVersionDraft';
import { checkJson, formatPath, type JsonProblem } from '../documents/jsonProblems';
import { policyVersionNameProblem } from '../limits';
import type { DraftTrialRecord } from '../trial/trialRecord';
import { ComparisonAnswerSchema } from './answerSchemas';
import { comparisonAnswer } from './comparisonAnswer';
import { readConfined } from './confinement';
import { defineTool, ToolRefusal, type ToolContext } from './toolTypes';

const TryInput = z.strictObject({
  test_set: z.string().min(1).max(1000).describe('The test set (*.testset.jsonl or *.csv), relative to the workspace folder.'),
  policy_file: z.string().min(1).max(1000).optional().describe('The edited policy as a *.policy.json file of the workspace.'),
  policy_id: z.string().min(1).max(200).optional().describe('Instead of policy_file: the policy to edit…'),
  content: z.record(z.string(), z.unknown()).optional().describe('…and its whole edited content (read_policy gives the current one).'),
});
type TryInput = z.infer<typeof TryInput>;

async function editOf(i: TryInput, ctx: ToolContext): Promise<{ policy: PolicyFile; testSet: TrialTestSet; outDir: string }> {
  let policy: PolicyFile;
  if (i.policy_file) {
    policy = parsePolicyFile((await readConfined(ctx.root, i.policy_file, 'policy_file')).text);
  } else if (i.policy_id && i.content) {
    const real = await ctx.client.policies.get(i.policy_id, { signal: ctx.signal });
    policy = { kind: 'agent-workbench.policy', policyId: real.id, name: real.name, baseVersionId: real.current_version_id, content: i.content };
  } else {
    throw new ToolRefusal('`policy_file`: give the edited policy as policy_file, or policy_id with content.');
  }
  const set = await readConfined(ctx.root, i.test_set, 'test_set');
  const outDir = path.dirname(set.path);
  return { policy, testSet: { name: path.basename(set.path), text: set.text, label: path.basename(set.path) }, outDir };
}

/** What a try tool answers: the trial file, the cases that now disagree, and per agent copied its comparison. */
const TrialAnswerSchema = z.object({
  trial_file: z.string().nullable(),
  failing: z.number().int(),
  agents: z.array(
    ComparisonAnswerSchema.extend({
      agent_id: z.string(),
      file: z.string().nullable(),
      disagreeing: z.number().int(),
      /** Which rules of the tried policy its cases reached (a policy edit's trial only). */
      rule_coverage: z.union([z.object({ reached: z.number().int(), total: z.number().int() }), z.object({ known: z.literal(false), sentence: z.string() })]).optional(),
    }),
  ),
});

export const tryPolicyEditTool = defineTool({
  name: 'try_policy_edit',
  title: 'Try a policy edit',
  kind: 'paid',
  description:
    'Tries an edited policy before it is live: makes trial copies of the policy and of each agent that applies it, runs the test set on them (and on the current version, unless the cases carry results before), compares, then removes the copies. Nothing is published. Paid: nothing starts until the user agreed to the estimate (jobs, tokens, cost). Progress is reported; cancelling stops the jobs and removes the copies. Returns the cases whose outcome changed, agreement with expected outcomes, failures and cost, and the trial file that publish_policy_edit takes.',
  input: TryInput,
  output: TrialAnswerSchema,
  needsTrust: true,
  async plan(i, ctx) {
    const { policy, testSet } = await editOf(i, ctx);
    const planned = await planPolicyTrial(ctx.client, policy, testSet, ctx.signal);
    const agents = planned.agents.map((a) => a.agent.name).join(', ');
    return { text: `Try the edit of ${policy.name} on ${testSet.name} with trial copies of ${agents} (removed afterwards; production untouched): ${estimateText(planned.estimate)}.${leftOutText(planned.problems)}`, jobs: planned.jobs, data: { policy_id: policy.policyId, agents: planned.agents.map((a) => a.agent.id), estimate: planned.estimate }, targets: planned.agents.map((a) => ({ kind: 'agent' as const, id: a.agent.id })) };
  },
  async run(i, ctx) {
    const { policy, testSet, outDir } = await editOf(i, ctx);
    const result = await tryPolicyEdit(ctx.client, {
      policy,
      testSet,
      outDir,
      root: ctx.root,
      ...runHooks(ctx, `trial of ${policy.name}`),
    });
    return trialAnswer(result, ctx, 'this edit: publish_policy_edit');
  },
});

/** What a trial run takes from the tool's context: its signal and poll interval, and the host told of progress and of the jobs started (labelled `label`). */
function runHooks(ctx: ToolContext, label: string): Pick<TryAgentDraftOptions, 'signal' | 'pollMs' | 'onProgress' | 'onJobsStarted' | 'grounds'> {
  return {
    grounds: ctx.grounds,
    signal: ctx.signal,
    pollMs: ctx.pollMs,
    onProgress: (done, total, message) => ctx.progress?.(done, total, message),
    onJobsStarted: (agentId, ids) => ctx.jobsStarted?.(agentId, ids, label),
  };
}

/** What a finished trial answers: per agent its comparison and the cases that now disagree, what was left alone, and how to publish. */
function trialAnswer(result: TryPolicyEditResult, ctx: ToolContext, publish: string): { text: string; data: z.infer<typeof TrialAnswerSchema> } {
  const rel = (f: string | undefined): string | null => (f && ctx.root ? path.relative(ctx.root, f) : (f ?? null));
  const parts = result.agents.map((a) => {
    const answer = comparisonAnswer(a.record);
    const agreement = a.disagreeing.length ? `${a.disagreeing.length} case(s) with an expected outcome now disagree.` : 'Every case with an expected outcome agrees.';
    // Which rules of the edit the cases reach: a change to a rule no case reaches is not checked by this trial.
    const coverage = a.coverage ? `\n${ruleCoverageLine(a.coverage, a.record.testSet)}${a.coverage.known && a.coverage.unreached.length ? ' rule_coverage lists the rules not reached.' : ''}` : '';
    const ruleCoverage = a.coverage && (a.coverage.known ? { reached: a.coverage.reached, total: a.coverage.total } : { known: false as const, sentence: a.coverage.sentence });
    return { text: `${answer.text}\n${agreement}${coverage}`, data: { ...answer.data, agent_id: a.agentId, file: rel(a.file), disagreeing: a.disagreeing.length, ...(ruleCoverage ? { rule_coverage: ruleCoverage } : {}) } };
  });
  const leftOut = result.leftOut.length ? `${leftOutText(result.leftOut).trim()}\n` : '';
  const left = result.leftAlone.map((item) => `Left alone (not marked as this trial's copy): ${describeLeftAlone(item)}`);
  const tail = `${leftOut}${left.length ? `${left.join('\n')}\n` : ''}Nothing was published; the trial copies were removed. To publish ${publish} with trial_file "${rel(result.trialFile)}".`;
  return { text: [...parts.map((p) => p.text), tail].join('\n\n'), data: { trial_file: rel(result.trialFile), failing: result.failing, agents: parts.map((p) => p.data) } };
}

/** The cases of the test set left out before anything runs (lines that could not be read, inputs the version does not take), a line each. */
function leftOutText(problems: readonly string[]): string {
  return problems.length ? `\nCases left out of the trial:\n${problems.join('\n')}` : '';
}

const DraftInput = z.strictObject({
  agent_id: z.string().min(1).max(200).describe('The agent whose next version the draft is (find_agents gives ids).'),
  draft: z.record(z.string(), z.unknown()).describe('The whole draft of the next version: input_definitions and engine_config (text values), optionally version_name and description. describe_agent answers the current one as next_version_draft, to change.'),
  test_set: z.string().min(1).max(1000).describe('The test set (*.testset.jsonl or *.csv) of the agent, relative to the workspace folder.'),
});
type DraftInput = z.infer<typeof DraftInput>;

/** A draft's first problem as an input error: "`draft.engine_config.model`: must be a string, not a number." (its path said once). */
function draftProblemText(problem: JsonProblem | undefined): string {
  if (!problem) return '`draft`: not a version draft.';
  const where = problem.path.length ? formatPath(problem.path) : '';
  // The checker's message starts with the path already when it has one: it is said here once, as the field.
  const message = where && problem.message.startsWith(`${where}: `) ? problem.message.slice(where.length + 2) : problem.message;
  return `\`draft${where ? `${where.startsWith('[') ? '' : '.'}${where}` : ''}\`: ${message.replace(/\.$/, '')}.`;
}

/** The draft checked with the draft schema, and the test set (a draft that runs like the current version is refused by planDraftTrial). */
async function draftOf(i: DraftInput, ctx: ToolContext): Promise<{ draft: AgentVersionDraft; testSet: TrialTestSet; outDir: string }> {
  const check = checkJson(JSON.stringify(i.draft), AgentVersionDraftSchema);
  if (!check.ok) {
    throw new ToolRefusal(`${draftProblemText(check.problems[0])} Nothing was started.`);
  }
  const set = await readConfined(ctx.root, i.test_set, 'test_set');
  return { draft: check.value, testSet: { name: path.basename(set.path), text: set.text, label: path.basename(set.path) }, outDir: path.dirname(set.path) };
}

export const tryAgentDraftTool = defineTool({
  name: 'try_agent_draft',
  title: 'Try an agent version draft',
  kind: 'paid',
  description:
    'Tries a draft of an agent’s next version (engine_config, input_definitions) before it is live: makes a trial copy of the agent whose version is the draft, runs the test set on it (and on the current version, unless the cases carry results before), compares, then removes the copy. Nothing is published and the agent keeps its version. Paid: nothing starts until the user agreed to the estimate (jobs, tokens, cost). Returns the cases whose outcome changed, agreement with expected outcomes, failures and cost, and the trial file that publish_agent_draft takes.',
  input: DraftInput,
  output: TrialAnswerSchema,
  needsTrust: true,
  async plan(i, ctx) {
    const { draft, testSet } = await draftOf(i, ctx);
    const planned = await planDraftTrial(ctx.client, i.agent_id, draft, testSet, ctx.signal);
    return { text: `Try the draft of ${planned.agent.name}'s next version on ${testSet.name} with a trial copy of the agent (removed afterwards; the agent keeps its version): ${estimateText(planned.estimate)}.${leftOutText(planned.problems)}`, jobs: planned.jobs, data: { agent_id: planned.agent.id, estimate: planned.estimate }, targets: [{ kind: 'agent', id: planned.agent.id }] };
  },
  async run(i, ctx) {
    const { draft, testSet, outDir } = await draftOf(i, ctx);
    const result = await tryAgentDraft(ctx.client, {
      agentId: i.agent_id,
      draft,
      testSet,
      outDir,
      root: ctx.root,
      ...runHooks(ctx, 'trial of a draft version'),
    });
    return trialAnswer(result, ctx, 'this draft as the agent’s new version: publish_agent_draft');
  },
});

export const publishAgentDraft = defineTool({
  name: 'publish_agent_draft',
  title: 'Publish a tried agent version draft',
  kind: 'change',
  description:
    'Publishes the draft a try_agent_draft call tried as the new current version of the real agent, which every new job then runs; refused when the agent got a newer version since the trial began; then removes whatever of the trial is still on the service (only what the trial itself marked). Changes the organization: nothing changes until the user agreed to what would change. Returns the new version id.',
  input: publishInput('try_agent_draft'),
  output: z.object({ agent_id: z.string(), version_id: z.string() }),
  needsTrust: true,
  async plan(i, ctx) {
    const trial = draftTrial(await trialFile(ctx, i.trial_file));
    if (trial.state === 'published') return { text: `The draft of ${trial.agentName} was published already as version ${trial.publishedVersionId}; nothing more changes.`, jobs: 0, data: {} };
    await refusePublish(ctx, trial);
    return { text: `Publish the tried draft as a new version of ${trial.agentName} (${trial.agentId}): it becomes the current version, and every new job runs it.`, jobs: 0, data: { agent_id: trial.agentId }, targets: [publishTarget(trial)] };
  },
  async run(i, ctx) {
    const trial = draftTrial(await trialFile(ctx, i.trial_file));
    const versionId = await publishFile(ctx, i.trial_file, trial);
    return { text: `Published the draft as version ${versionId} of ${trial.agentName} (${trial.agentId}); it is the current version.`, data: { agent_id: trial.agentId, version_id: versionId } };
  },
});

export const publishPolicyEdit = defineTool({
  name: 'publish_policy_edit',
  title: 'Publish a tried policy edit',
  kind: 'change',
  description:
    'Publishes the edit a try_policy_edit call tried as a new version of the real policy (the change production sees; named version_name when given), refused when the policy got a newer version since the trial began; then removes whatever of the trial is still on the service (only what the trial itself marked). Changes the organization: nothing changes until the user agreed to what would change. Returns the new version id.',
  input: publishInput('try_policy_edit').extend({
    version_name: z
      .string()
      .max(255)
      .optional()
      .superRefine((name, issues) => {
        const problem = name === undefined ? undefined : policyVersionNameProblem(name);
        if (problem) issues.addIssue({ code: 'custom', message: problem });
      })
      .describe('The name of the new version (1–255 characters, as the policy editor takes); the service names it when left out.'),
  }),
  output: z.object({ policy_id: z.string(), version_id: z.string(), version_name: z.string().nullable() }),
  needsTrust: true,
  async plan(i, ctx) {
    const trial = policyTrial(await trialFile(ctx, i.trial_file));
    if (trial.state === 'published') return { text: `${trial.policyName} was published already as version ${trial.publishedVersionId}; nothing more changes.`, jobs: 0, data: {} };
    await refusePublish(ctx, trial);
    const name = i.version_name?.trim();
    return { text: `Publish the tried edit as a new version${name ? ` “${name}”` : ''} of ${trial.policyName} (${trial.policyId}): every agent applying it uses the new content from its next job.`, jobs: 0, data: { policy_id: trial.policyId, version_name: name ?? null }, targets: [publishTarget(trial)] };
  },
  async run(i, ctx) {
    const trial = policyTrial(await trialFile(ctx, i.trial_file));
    const name = i.version_name?.trim();
    const versionId = await publishFile(ctx, i.trial_file, trial, name);
    return { text: `Published ${trial.policyName} (${trial.policyId}) as version ${name ? `“${name}” (${versionId})` : versionId}.`, data: { policy_id: trial.policyId, version_id: versionId, version_name: name ?? null } };
  },
});

/** The input of a publish tool: the trial file the try tool answered. */
function publishInput(tryTool: string) {
  return z.strictObject({
    trial_file: z.string().min(1).max(1000).regex(/\.trial\.json$/i, 'must be a *.trial.json file').describe(`The trial file ${tryTool} answered, relative to the workspace folder.`),
  });
}

/** A trial file of the workspace, checked whole. */
async function trialFile(ctx: ToolContext, file: string): Promise<TrialRecord> {
  return parseTrial((await readConfined(ctx.root, file, 'trial_file')).text);
}

/** Refuses, in the core's sentence, a publish of another user's trial, over a version made since the trial began, or of what was never tried. */
async function refusePublish(ctx: ToolContext, trial: TrialRecord): Promise<void> {
  try {
    await publishable(ctx.client, trial, ctx.signal);
  } catch (error) {
    if (error instanceof TrialConflict || error instanceof NotYourTrial || error instanceof NotTried) throw new ToolRefusal(`${error.message} Nothing was changed.`);
    throw error;
  }
}

/** Publishes what a trial file tried, writing the file as the core goes (checked first: a file that cannot be written is refused before anything is published). */
async function publishFile(ctx: ToolContext, file: string, trial: TrialRecord, versionName?: string): Promise<string> {
  const root = ctx.root!;
  await confinedWriteTarget(root, file);
  const target = publishTarget(trial);
  const ground = target.kind === 'policy' ? ctx.grounds?.policy?.(target.id) : ctx.grounds?.agent?.(target.id);
  try {
    return await publishTrial(ctx.client, trial, async () => void (await writeConfined(root, file, serializeTrial(trial))), { ground, signal: ctx.signal, versionName });
  } catch (error) {
    if (error instanceof TrialConflict || error instanceof NotYourTrial || error instanceof NotTried) throw new ToolRefusal(`${error.message} Nothing was changed.`);
    throw error;
  }
}

/** The trial of a policy edit a file holds. */
function policyTrial(trial: TrialRecord): PolicyTrialRecord {
  if (isDraftTrial(trial)) throw new ToolRefusal(`This file is a trial of a draft version of the agent ${trial.agentName}, not of a policy edit: publish it with publish_agent_draft. Nothing was changed.`);
  return trial;
}

/** The trial of an agent version draft a file holds. */
function draftTrial(trial: TrialRecord): DraftTrialRecord {
  if (!isDraftTrial(trial)) throw new ToolRefusal(`This file is a trial of an edit of the policy ${trial.policyName}, not of an agent version draft: publish it with publish_policy_edit. Nothing was changed.`);
  return trial;
}
