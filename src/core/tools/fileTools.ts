/** Reads of the workspace's result files: a comparison's or a trial's summary. */
import * as path from 'node:path';
import * as z from 'zod';
import { parseComparison } from '../comparison/comparisonRecord';
import { isDraftTrial, parseTrial } from '../trial/trialRecord';
import { comparisonAnswer } from './comparisonAnswer';
import { readConfined } from './confinement';
import { defineTool, ToolRefusal } from './toolTypes';

export const readResultFile = defineTool({
  name: 'read_result_file',
  title: 'Read a comparison or trial file',
  kind: 'read',
  description:
    'Summarizes a result file of the workspace: a comparison (*.comparison.json: accuracy, changed cases, failures, cost per target) or a trial (*.trial.json: the policy edit or agent version draft tried, its state, what it created and whether that was removed). The path is relative to the workspace folder. Reads a local file only; costs nothing.',
  input: z.strictObject({ path: z.string().min(1).max(1000).describe('The file, relative to the workspace folder.') }),
  reads: (i) => `the file ${i.path}`,
  async run(i, ctx) {
    const { text } = await readConfined(ctx.root, i.path, 'path');
    const name = path.basename(i.path);
    if (/\.trial\.json$/i.test(name)) {
      const trial = parseTrial(text);
      const made = trial.entities.map((e) => `${e.kind} ${e.name}${e.id ? ` (${e.id})` : ''}: ${e.removed ? 'removed' : 'still on the service'}`);
      const ended = `by ${trial.user}, ${trial.state}${trial.publishedVersionId ? ` as version ${trial.publishedVersionId}` : ''}.`;
      const common = { state: trial.state, published_version_id: trial.publishedVersionId ?? null, entities: trial.entities };
      if (isDraftTrial(trial)) return { text: [`Trial of a draft version of the agent ${trial.agentName} (${trial.agentId}) ${ended}`, ...made].join('\n'), data: { subject: 'agent_version_draft', agent_id: trial.agentId, agent_name: trial.agentName, ...common } };
      return { text: [`Trial of ${trial.policyName} (${trial.policyId}) ${ended}`, ...made].join('\n'), data: { subject: 'policy_edit', policy_id: trial.policyId, policy_name: trial.policyName, ...common } };
    }
    if (!/\.comparison\.json$/i.test(name)) throw new ToolRefusal('`path`: only *.comparison.json and *.trial.json files are read.');
    return comparisonAnswer(parseComparison(text));
  },
});
