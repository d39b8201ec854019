/**
 * `agent-workbench try --policy <file> --test-set <file>`: a trial of a policy file on a test set, for CI.
 * Built on the core only: the connection comes from the environment, the comparison and its Markdown
 * summary are written next to the test set (or in `--out`), the trial is always cleaned up, and the
 * exit code is 1 when a case with an expected outcome now disagrees.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ServiceClient } from '../core/client';
import { comparisonMarkdown } from '../core/comparison/comparisonExport';
import { serializeComparison } from '../core/comparison/comparisonRecord';
import { parseTestSet } from '../core/comparison/testSet';
import { testSetAgentId } from '../core/comparison/testSetCheck';
import { parsePolicyFile } from '../core/trial/policyFile';
import { estimateText, readCostEstimate } from '../core/comparison/costEstimate';
import { disagreements, runToEnd, trialComparison } from '../core/trial/trialComparison';
import { discardTrial } from '../core/trial/trialEnd';
import { describeLeftAlone } from '../core/trial/trialRemoval';
import { newTrial, serializeTrial } from '../core/trial/trialRecord';
import { agentsApplying, setUpTrial } from '../core/trial/trialSetup';

export const TRY_USAGE = `Usage: agent-workbench try --policy <file.policy.json> --test-set <file.testset.jsonl|csv> [--out <folder>] [--user <name>]
Environment: AGENT_WORKBENCH_BASE_URL, AGENT_WORKBENCH_ORGANIZATION_ID, AGENT_WORKBENCH_TOKEN.
Exit code: 0 when every case with an expected outcome agrees on the trial, 1 when one disagrees, 2 when the trial could not run.`;

/** Where the command writes (a test passes its own). */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

function option(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

/** Runs the command; answers the exit code. */
export async function runCli(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, io: CliIo): Promise<number> {
  if (argv[0] !== 'try' || argv.includes('--help')) {
    io[argv.includes('--help') ? 'out' : 'err'](TRY_USAGE);
    return argv.includes('--help') ? 0 : 2;
  }
  const policyPath = option(argv, '--policy');
  const testSetPath = option(argv, '--test-set');
  const baseUrl = env.AGENT_WORKBENCH_BASE_URL;
  const token = env.AGENT_WORKBENCH_TOKEN;
  if (!policyPath || !testSetPath || !baseUrl || !token) {
    io.err(`agent-workbench: ${!policyPath || !testSetPath ? 'both --policy and --test-set are needed' : 'AGENT_WORKBENCH_BASE_URL and AGENT_WORKBENCH_TOKEN must be set'}.\n${TRY_USAGE}`);
    return 2;
  }
  const client = new ServiceClient({ baseUrl, token, organizationId: env.AGENT_WORKBENCH_ORGANIZATION_ID || undefined, userAgent: 'agent-workbench-cli' });
  try {
    return await tryPolicy(client, { policyPath, testSetPath, outDir: option(argv, '--out'), user: option(argv, '--user') ?? env.AGENT_WORKBENCH_USER ?? 'ci' }, io);
  } catch (error) {
    io.err(`agent-workbench: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  } finally {
    await client.close();
  }
}

async function tryPolicy(client: ServiceClient, o: { policyPath: string; testSetPath: string; outDir?: string; user: string }, io: CliIo): Promise<number> {
  const policyFile = parsePolicyFile(await fs.readFile(o.policyPath, 'utf8'));
  const testSetText = await fs.readFile(o.testSetPath, 'utf8');
  const testSetName = path.basename(o.testSetPath);
  const { cases, problems } = parseTestSet(testSetName, testSetText);
  for (const p of problems) io.err(`${testSetName}:${p.line}: ${p.message} (left out)`);
  if (cases.length === 0) throw new Error(`${testSetName} has no case to run.`);
  const onlyAgent = testSetAgentId(testSetText);
  const agents = (await agentsApplying(client, policyFile.policyId)).filter((a) => !onlyAgent || a.agent.id === onlyAgent);
  if (agents.length === 0) throw new Error(`No agent${onlyAgent ? ` named by ${testSetName}` : ''} applies ${policyFile.name} (engine_config.policy_id of its current version).`);
  const outDir = o.outDir ?? path.dirname(o.testSetPath);
  await fs.mkdir(outDir, { recursive: true });
  const base = path.join(outDir, testSetName.replace(/\.(testset\.)?(jsonl|csv)$/i, ''));
  const trial = newTrial({ trialId: randomUUID(), user: o.user, policyId: policyFile.policyId, policyName: policyFile.name, baseVersionId: policyFile.baseVersionId, content: policyFile.content });
  const trialFile = `${base}.trial.json`;
  const saveTrial = (): Promise<void> => fs.writeFile(trialFile, serializeTrial(trial));
  let failing = 0;
  // What this run made itself: the only unmarked copies its clean-up may remove (trialRemoval.ts).
  const madeHere = new Set<string>();
  try {
    await setUpTrial(client, trial, agents, saveTrial, madeHere);
    for (const entity of trial.entities.filter((e) => e.kind === 'agent')) {
      const record = trialComparison(trial, entity, cases, path.relative(outDir, o.testSetPath) || testSetName);
      io.out(`${record.agentName}: ${estimateText(await readCostEstimate(client, record))}`);
      const file = `${base}${agents.length > 1 ? `.${entity.sourceAgentId}` : ''}.trial.comparison.json`;
      await runToEnd(record, client, () => fs.writeFile(file, serializeComparison(record)), { pollMs: 250 });
      const markdown = comparisonMarkdown(record);
      await fs.writeFile(file.replace(/\.json$/, '.md'), markdown);
      const wrong = disagreements(record);
      failing += wrong.length;
      io.out(`${record.agentName}: ${wrong.length === 0 ? 'every case with an expected outcome agrees' : `${wrong.length} case${wrong.length === 1 ? '' : 's'} with an expected outcome now disagree${wrong.length === 1 ? 's' : ''}`} (${file}).`);
    }
  } finally {
    const { leftAlone } = await discardTrial(client, trial, saveTrial, madeHere);
    for (const item of leftAlone) io.err(`Left alone: ${describeLeftAlone(item)}`);
  }
  await fs.rm(trialFile, { force: true });
  return failing > 0 ? 1 : 0;
}
