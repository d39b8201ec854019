/** Reads of the workspace's result files: a comparison's or a trial's summary. */
import * as path from 'node:path';
import * as z from 'zod';
import { parseComparison } from '../comparison/comparisonRecord';
import { isDraftTrial, parseTrial, trialSubjectName, type TrialRecord } from '../trial/trialRecord';
import { ComparisonAnswerSchema } from './answerSchemas';
import { comparisonAnswer } from './comparisonAnswer';
import { readConfined } from './confinement';
import { defineTool, ToolRefusal } from './toolTypes';

/**
 * What a trial file's state means to whoever reads it. A try tool ends its trial "discarded" (its copies
 * removed) with nothing published, and the trial can still be published: that is no discard to a reader.
 */
export function trialStateText(trial: TrialRecord): string {
  const publish = isDraftTrial(trial) ? 'publish_agent_draft' : 'publish_policy_edit';
  switch (trial.state) {
    case 'published':
      return `published as version ${trial.publishedVersionId ?? '?'}`;
    case 'discarded':
      return `tried; its trial copies were removed and nothing was published (${publish} publishes what it tried, from the server that ran the trial, while ${trialSubjectName(trial)} has no newer version)`;
    case 'ready':
      return 'its trial copies are made and still on the service, and nothing was published: its comparison is running, or was interrupted';
    default:
      return 'started and not finished: still running, or interrupted while its copies were made (some may still be on the service)';
  }
}

const TrialEntitySchema = z.object({
  kind: z.enum(['policy', 'agent']),
  name: z.string(),
  id: z.string().optional(),
  sourceAgentId: z.string().optional(),
  sourceVersionId: z.string().optional(),
  trialVersionId: z.string().optional(),
  removed: z.boolean().optional(),
});
const TRIAL_FIELDS = { state: z.enum(['started', 'ready', 'published', 'discarded']), published_version_id: z.string().nullable(), entities: z.array(TrialEntitySchema) };

/** A trial of a draft, a trial of a policy edit, or a comparison. */
const ResultFileSummary = z.union([
  z.object({ subject: z.literal('agent_version_draft'), agent_id: z.string(), agent_name: z.string(), ...TRIAL_FIELDS }),
  z.object({ subject: z.literal('policy_edit'), policy_id: z.string(), policy_name: z.string(), ...TRIAL_FIELDS }),
  ComparisonAnswerSchema,
]);

export const readResultFile = defineTool({
  name: 'read_result_file',
  title: 'Read a comparison or trial file',
  kind: 'read',
  description:
    'Summarizes a result file of the workspace: a comparison (*.comparison.json: accuracy, changed cases, failures, cost per target) or a trial (*.trial.json: the policy edit or agent version draft tried, its state, what it created and whether that was removed). The path is relative to the workspace folder. Reads a local file only; costs nothing.',
  input: z.strictObject({ path: z.string().min(1).max(1000).describe('The file, relative to the workspace folder.') }),
  output: ResultFileSummary,
  reads: (i) => `the file ${i.path}`,
  async run(i, ctx) {
    const { text } = await readConfined(ctx.root, i.path, 'path');
    const name = path.basename(i.path);
    if (/\.trial\.json$/i.test(name)) {
      const trial = parseTrial(text);
      const made = trial.entities.map((e) => `${e.kind} ${e.name}${e.id ? ` (${e.id})` : ''}: ${e.removed ? 'removed' : 'still on the service'}`);
      const ended = `by ${trial.user}: ${trialStateText(trial)}.`;
      const common = { state: trial.state, published_version_id: trial.publishedVersionId ?? null, entities: trial.entities };
      if (isDraftTrial(trial)) return { text: [`Trial of a draft version of the agent ${trial.agentName} (${trial.agentId}) ${ended}`, ...made].join('\n'), data: { subject: 'agent_version_draft' as const, agent_id: trial.agentId, agent_name: trial.agentName, ...common } };
      return { text: [`Trial of ${trial.policyName} (${trial.policyId}) ${ended}`, ...made].join('\n'), data: { subject: 'policy_edit' as const, policy_id: trial.policyId, policy_name: trial.policyName, ...common } };
    }
    if (!/\.comparison\.json$/i.test(name)) throw new ToolRefusal('`path`: only *.comparison.json and *.trial.json files are read.');
    return comparisonAnswer(parseComparison(text));
  },
});
