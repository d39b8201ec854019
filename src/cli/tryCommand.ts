/**
 * `agent-workbench try --policy <file> --test-set <file>`: a trial of a policy file on a test set, for CI
 * (`--agent <id> --draft <file>`: of a draft of an agent's next version, the core's `tryAgentDraft`).
 * The trial itself is the core's `tryPolicyEdit` (the same function as the `try_policy_edit` tool): the
 * comparison and its Markdown summary are written next to the test set (or in `--out`), the trial is
 * always cleaned up, and the exit code is 1 when a case with an expected outcome now disagrees.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { estimateText, type CostEstimate } from '../core/comparison/costEstimate';
import { ConfinedWriteRefused } from '../core/confinedWrite';
import { AgentVersionDraftSchema, type AgentVersionDraft } from '../core/documents/agentVersionDraft';
import { checkJson } from '../core/documents/jsonProblems';
import { parsePolicyFile } from '../core/trial/policyFile';
import { describeLeftAlone } from '../core/trial/trialRemoval';
import { planDraftTrial, planPolicyTrial, tryAgentDraft, tryPolicyEdit, type TryPolicyEditResult } from '../core/trial/tryPolicyEdit';
import { TRIAL_TARGET_ID } from '../core/trial/trialComparison';
import { gateExitCode, judgeTrial, parseThreshold, type GateThresholds, type GateVerdict } from '../core/trial/trialGate';
import { confirmedGrounds, type Grounds } from '../core/writeGate/grounds';
import type { ServiceClient } from '../core/client';
import { CONNECTION_ENV, clientFromEnv, type Env } from './environment';

export const TRY_USAGE = `Usage: agent-workbench try --policy <file.policy.json> --test-set <file.testset.jsonl|csv> [--out <folder>] [--user <name>]
       agent-workbench try --agent <id> --draft <file.json> --test-set <file.testset.jsonl|csv> [...]

Tries a policy edit on copies of the agents that apply the policy (or a draft of an agent's next version
on a copy of the agent), runs the test set on them, writes the comparison and a Markdown summary, and
removes the copies. Nothing is published.

Options:
  --policy FILE     the edited policy (*.policy.json, as Export Policy to Workspace writes it)
  --agent ID        instead of --policy: the agent whose next version --draft is
  --draft FILE      the draft as JSON: input_definitions and engine_config (text values), as Create Agent Version… shows it
  --test-set FILE   the cases (*.testset.jsonl or *.csv)
  --out FOLDER      where the comparison goes (default: the test set's folder, which must be inside the current folder)
  --user NAME       who the trial copies are named after (default $AGENT_WORKBENCH_USER or "ci")
  --min-accuracy P  gate: the trial's accuracy on the labelled cases must reach P percent
  --max-newly-wrong N  gate: at most N labelled cases right before may turn wrong
  --help            show this text

${CONNECTION_ENV}
Exit code without thresholds: 0 when every case with an expected outcome agrees on the trial, 1 when one disagrees, 2 when the trial could not run.
With --min-accuracy and/or --max-newly-wrong the thresholds decide: 0 when met, 3 when the accuracy is below the percent (or unknown), 4 when more labelled cases became wrong than allowed, 5 when both, 2 when the trial could not run.`;

/** Where the command writes (a test passes its own). */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** The current folder: relative paths start there, and files are written only inside it (or inside `--out`); default the process's. */
  cwd?: string;
}

/** Runs `try` with its arguments (after the command name); answers the exit code. */
export async function runTry(args: readonly string[], env: Env, io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: [...args], strict: true, options: { policy: { type: 'string' }, agent: { type: 'string' }, draft: { type: 'string' }, 'test-set': { type: 'string' }, out: { type: 'string' }, user: { type: 'string' }, 'min-accuracy': { type: 'string' }, 'max-newly-wrong': { type: 'string' }, help: { type: 'boolean' } } });
  if (values.help) {
    io.out(TRY_USAGE);
    return 0;
  }
  const policyPath = values.policy;
  const testSetPath = values['test-set'];
  const draftOf = values.agent !== undefined || values.draft !== undefined ? { agentId: values.agent, path: values.draft } : undefined;
  if (!testSetPath || (policyPath ? draftOf : !draftOf?.agentId || !draftOf.path)) {
    io.err(`agent-workbench: --test-set is needed, with either --policy or both --agent and --draft.\n${TRY_USAGE}`);
    return 2;
  }
  const gate = thresholdsOf(values['min-accuracy'], values['max-newly-wrong']);
  if (typeof gate === 'string') {
    io.err(`agent-workbench: ${gate}.\n${TRY_USAGE}`);
    return 2;
  }
  const client = clientFromEnv(env, 'agent-workbench-cli');
  if (typeof client === 'string') {
    io.err(`agent-workbench: ${client}.\n${TRY_USAGE}`);
    return 2;
  }
  const cwd = io.cwd ?? process.cwd();
  const at = (file: string): string => path.resolve(cwd, file);
  try {
    const outDir = at(values.out ?? path.dirname(testSetPath));
    // The files go only where the user said: inside --out, else inside the current folder (a link in the repository cannot send them elsewhere).
    const root = values.out ? outDir : cwd;
    const testSet = { name: path.basename(testSetPath), text: await fs.readFile(at(testSetPath), 'utf8'), label: path.relative(outDir, at(testSetPath)) || path.basename(testSetPath) };
    const common = { testSet, outDir, root, onEstimate: (agent: string, estimate: CostEstimate) => io.out(`${agent}: ${estimateText(estimate)}`) };
    let result: TryPolicyEditResult;
    if (draftOf?.agentId && draftOf.path) {
      const draft = readDraft(draftOf.path, await fs.readFile(at(draftOf.path), 'utf8'));
      const planned = await planDraftTrial(client, draftOf.agentId, testSet);
      for (const problem of planned.problems) io.err(problem);
      result = await tryAgentDraft(client, { ...common, agentId: draftOf.agentId, draft, grounds: commandLineGrounds(client, planned) }, planned);
    } else {
      const policy = parsePolicyFile(await fs.readFile(at(policyPath!), 'utf8'));
      const planned = await planPolicyTrial(client, policy, testSet);
      for (const problem of planned.problems) io.err(problem);
      result = await tryPolicyEdit(client, { ...common, policy, grounds: commandLineGrounds(client, planned) }, planned);
    }
    for (const item of result.leftAlone) io.err(`Left alone: ${describeLeftAlone(item)}`);
    for (const a of result.agents) {
      const n = a.disagreeing.length;
      io.out(`${a.agentName}: ${n === 0 ? 'every case with an expected outcome agrees' : `${n} case${n === 1 ? '' : 's'} with an expected outcome now disagree${n === 1 ? 's' : ''}`} (${shownPath(cwd, a.file)}).`);
    }
    const verdicts: GateVerdict[] = result.agents.map((a) => judgeTrial(a.record, TRIAL_TARGET_ID, gate ?? {}));
    result.agents.forEach((a, i) => reportGate(a.agentName, verdicts[i]!, io));
    if (result.trialFile) await fs.rm(result.trialFile, { force: true });
    if (gate) return gateExitCode(verdicts);
    return result.failing > 0 ? 1 : 0;
  } catch (error) {
    const hint = error instanceof ConfinedWriteRefused && error.reason === 'outside' && !values.out ? ' Run it from a folder that holds the test set, or give --out.' : '';
    io.err(`agent-workbench: ${error instanceof Error ? error.message : String(error)}${hint}`);
    return 2;
  } finally {
    await client.close();
  }
}

/**
 * The ground of running the real agents a trial's plan found (their current version is the baseline):
 * whoever started this command asked for exactly this trial, so the plan's agents count as picked by
 * the command line — and nothing else does.
 */
function commandLineGrounds(client: ServiceClient, planned: { agents: readonly { agent: { id: string } }[] }): Grounds {
  return confirmedGrounds(client.gate, planned.agents.map((a) => ({ kind: 'agent' as const, id: a.agent.id })), 'the command line');
}

// A written file as the user would name it: relative to the current folder when inside it.
function shownPath(cwd: string, file: string | undefined): string {
  const relative = file ? path.relative(cwd, file) : '';
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : (file ?? '');
}

/** A draft file checked with the draft schema; throws naming the file and the first problem's field. */
function readDraft(file: string, text: string): AgentVersionDraft {
  const check = checkJson(text, AgentVersionDraftSchema);
  if (check.ok) return check.value;
  const problem = check.problems[0];
  throw new Error(`${file}: ${problem?.path.length ? `${problem.path.join('.')}: ` : ''}${problem?.message ?? 'not a version draft'}`);
}

// The gate's options: undefined when neither is given (the exit code then keeps its first meaning).
function thresholdsOf(minText: string | undefined, maxText: string | undefined): GateThresholds | undefined | string {
  const minAccuracy = parseThreshold('min-accuracy', minText);
  const maxNewlyWrong = parseThreshold('max-newly-wrong', maxText);
  if (typeof minAccuracy === 'string') return minAccuracy;
  if (typeof maxNewlyWrong === 'string') return maxNewlyWrong;
  return minAccuracy === undefined && maxNewlyWrong === undefined ? undefined : { minAccuracy, maxNewlyWrong };
}

/** Prints a gate's verdict for one agent: the accuracy line, then each threshold not met. */
function reportGate(agentName: string, verdict: GateVerdict, io: CliIo): void {
  io.out(`${agentName}: ${verdict.line}.`);
  for (const f of verdict.failed) io.out(`${agentName}: FAILED ${f.message}.`);
}
