/**
 * `agent-workbench try --policy <file> --test-set <file>`: a trial of a policy file on a test set, for CI
 * (`--agent <id> --draft <file>`: of a draft of an agent's next version, the core's `tryAgentDraft`).
 * The trial itself is the core's `tryPolicyEdit` (the same function as the `try_policy_edit` tool): the
 * comparison and its Markdown summary are written next to the test set (or in `--out`), the trial is
 * always cleaned up, and the exit code is 1 when a case with an expected outcome now disagrees.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { ServiceClient } from '../core/client';
import { estimateText, type CostEstimate } from '../core/comparison/costEstimate';
import { ruleCoverageLine } from '../core/coverage/coverageText';
import { ConfinedWriteRefused } from '../core/confinedWrite';
import { AgentVersionDraftSchema, type AgentVersionDraft } from '../core/documents/agentVersionDraft';
import { checkJson } from '../core/documents/jsonProblems';
import { parsePolicyFile } from '../core/trial/policyFile';
import type { RemovalOutcome } from '../core/trial/trialEnd';
import { testSetBase, trialFileNames } from '../core/trial/trialFiles';
import { describeLeftAlone } from '../core/trial/trialRemoval';
import { planDraftTrial, planPolicyTrial, tryAgentDraft, tryPolicyEdit, type TryPolicyEditOptions, type TryPolicyEditResult } from '../core/trial/tryPolicyEdit';
import { TRIAL_TARGET_ID } from '../core/trial/trialComparison';
import { gateExitCode, judgeTrial, parseThreshold, type GateThresholds, type GateVerdict } from '../core/trial/trialGate';
import { confirmedGrounds, type Grounds } from '../core/writeGate/grounds';
import { CONNECTION_ENV, clientFromEnv, type Env } from './environment';
import { STOP_EXIT_CODES, watchStops, type CliProcess, type StopSignal } from './stopSignals';
import { parseCommandArgs, readUserFile, UsageError } from './usageError';

export const TRY_USAGE = `Usage: agent-workbench try --policy <file.policy.json> --test-set <file.testset.jsonl|csv> [--out <folder>]
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
  --min-accuracy P  gate: the trial's accuracy on the labelled cases must reach P percent
  --max-newly-wrong N  gate: at most N labelled cases right before may turn wrong
  --min-rule-coverage P  gate (with --policy): the trial's outputs must reach P percent of the edited policy's rules
  --help            show this text

${CONNECTION_ENV}
Before anything is made or run: a policy file whose version is no longer the policy's current one is refused
(agent-workbench export-policy refreshes it), so is a draft that runs like the agent's current version, and
the cases the agent's version does not take (an input it does not know, lacks or finds blank) are left out,
each named on stdout with its line; when no case is left, nothing runs (exit 2).
Exit code without thresholds: 0 when every case with an expected outcome agrees on the trial, 1 when one disagrees, 2 when the trial could not run.
With --min-accuracy, --max-newly-wrong and/or --min-rule-coverage the thresholds decide: 0 when met, 3 when the accuracy is below the percent (or unknown), 4 when more labelled cases became wrong than allowed, 5 when both,
6 when only the rule coverage is below its percent (or unknown: the outputs say nothing about rules; 3–5 win when an accuracy threshold fails too), 2 when the trial could not run.
Each agent's line says the rule coverage of a policy edit ("Rule coverage: 17 of 23 rules reached by loop.testset.jsonl"), and so does the Markdown summary.
Ctrl+C (SIGINT) or SIGTERM stops the trial: its jobs are cancelled and its copies removed, then it exits 130 (SIGINT) or 143 (SIGTERM).
A second one exits at once with the same code, leaving what was not removed yet: agent-workbench clean-up removes it.
A run does not replace a trial file whose copies are still on the service (exit 2): agent-workbench clean-up --yes first.`;

/** Where the command writes (a test passes its own). */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** The current folder: relative paths start there, and files are written only inside it (or inside `--out`); default the process's. */
  cwd?: string;
}

/** Runs `try` with its arguments (after the command name); answers the exit code. `host`: its stop signals (none: not watched). */
export async function runTry(args: readonly string[], env: Env, io: CliIo, host?: CliProcess): Promise<number> {
  const { values } = parseCommandArgs({ args: [...args], strict: true, options: { policy: { type: 'string' }, agent: { type: 'string' }, draft: { type: 'string' }, 'test-set': { type: 'string' }, out: { type: 'string' }, 'min-accuracy': { type: 'string' }, 'max-newly-wrong': { type: 'string' }, 'min-rule-coverage': { type: 'string' }, help: { type: 'boolean' } } });
  if (values.help) {
    io.out(TRY_USAGE);
    return 0;
  }
  const policyPath = values.policy;
  const testSetPath = values['test-set'];
  const draftOf = values.agent !== undefined || values.draft !== undefined ? { agentId: values.agent, path: values.draft } : undefined;
  if (!testSetPath || (policyPath ? draftOf : !draftOf?.agentId || !draftOf.path)) throw new UsageError('--test-set is needed, with either --policy or both --agent and --draft.');
  const gate = thresholdsOf(values['min-accuracy'], values['max-newly-wrong'], values['min-rule-coverage']);
  if (typeof gate === 'string') throw new UsageError(`${gate}.`);
  if (gate && gate.minRuleCoverage !== undefined && !policyPath) throw new UsageError("--min-rule-coverage needs --policy: a draft's trial tries no policy whose rules it could cover.");
  const client = clientFromEnv(env, 'agent-workbench-cli');
  const cwd = io.cwd ?? process.cwd();
  const at = (file: string): string => path.resolve(cwd, file);
  const outDir = at(values.out ?? path.dirname(testSetPath));
  // The files go only where the user said: inside --out, else inside the current folder (a link in the repository cannot send them elsewhere).
  const root = values.out ? outDir : cwd;
  const run: RunState = { trialFile: path.join(outDir, trialFileNames(testSetBase(path.basename(testSetPath))).trial), onService: false, started: 0, final: 0 };
  const stop = watchStops(host, { first: (signal) => io.err(stoppingText(run, signal)), second: () => io.err(`Stopped at once, before the clean-up finished. ${leftBehindText(run.trialFile)}`) });
  try {
    const testSet = { name: path.basename(testSetPath), text: await readUserFile(at(testSetPath), testSetPath), label: path.relative(outDir, at(testSetPath)) || path.basename(testSetPath) };
    const common = {
      testSet,
      outDir,
      root,
      signal: stop.signal,
      onEstimate: (agent: string, estimate: CostEstimate) => io.out(`${agent}: ${estimateText(estimate)}`),
      onJobsStarted: (_agentId: string, ids: string[]) => void (run.started += ids.length),
      onProgress: (done: number) => void (run.final = done),
      onRemoved: (outcome: RemovalOutcome) => void (run.removed = outcome),
      gate,
    };
    const result = await runTrial(client, { policyPath, draftOf, at }, common, run, io);
    const stoppedBy = stop.stoppedBy();
    // The copies are gone: from here a signal does what it always does.
    stop.dispose();
    if (stoppedBy) return await reportStop(stoppedBy, run, io);
    return await report(result, gate, io, cwd);
  } catch (error) {
    const stoppedBy = stop.stoppedBy();
    if (stoppedBy) return await reportStop(stoppedBy, run, io, error);
    const hint = error instanceof ConfinedWriteRefused && error.reason === 'outside' && !values.out ? ' Run it from a folder that holds the test set, or give --out.' : '';
    io.err(`agent-workbench try: ${error instanceof Error ? error.message : String(error)}${hint}`);
    return 2;
  } finally {
    stop.dispose();
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

/** Plans the trial the arguments name (a policy edit, or a draft of an agent's next version), then runs it on copies. `at`: a path as given, made absolute. */
async function runTrial(client: ServiceClient, what: { policyPath?: string; draftOf?: { agentId?: string; path?: string }; at: (file: string) => string }, common: Omit<TryPolicyEditOptions, 'policy'>, run: RunState, io: CliIo): Promise<TryPolicyEditResult> {
  const { draftOf, at } = what;
  if (draftOf?.agentId && draftOf.path) {
    const draft = readDraft(draftOf.path, await readUserFile(at(draftOf.path), draftOf.path));
    const planned = await planDraftTrial(client, draftOf.agentId, draft, common.testSet, common.signal);
    for (const problem of planned.problems) io.out(problem);
    run.onService = true;
    return tryAgentDraft(client, { ...common, agentId: draftOf.agentId, draft, grounds: commandLineGrounds(client, planned) }, planned);
  }
  const policy = parsePolicyFile(await readUserFile(at(what.policyPath!), what.policyPath!));
  const planned = await planPolicyTrial(client, policy, common.testSet, common.signal);
  for (const problem of planned.problems) io.out(problem);
  run.onService = true;
  return tryPolicyEdit(client, { ...common, policy, grounds: commandLineGrounds(client, planned) }, planned);
}

/** What a run has done so far, for what a stop says. */
interface RunState {
  trialFile: string;
  /** True once the trial itself began (before: only reads). */
  onService: boolean;
  /** Jobs started, and jobs final, over all agents. */
  started: number;
  final: number;
  /** What the clean-up removed, once it is done. */
  removed?: RemovalOutcome;
}

/** Said on the first signal: what the clean-up is about to do. */
function stoppingText(run: RunState, signal: StopSignal): string {
  if (!run.onService) return 'Stopping: nothing was made on the service yet.';
  const jobs = Math.max(0, run.started - run.final);
  const again = signal === 'SIGINT' ? 'Ctrl+C' : 'SIGTERM';
  return `Stopping: cancelling ${jobs} job${jobs === 1 ? '' : 's'} and removing the trial copies… (${again} again stops at once and leaves them)`;
}

/** Where what is left is named, and the command that removes it. */
function leftBehindText(trialFile: string): string {
  return `What the trial made may still be on the service: ${trialFile} names it. Run agent-workbench clean-up to list the trial copies left, and agent-workbench clean-up --yes to remove them.`;
}

/** After a stop: what the clean-up removed and left alone (or that it did not finish); answers the signal's exit code. */
async function reportStop(signal: StopSignal, run: RunState, io: CliIo, error?: unknown): Promise<number> {
  const outcome = run.removed;
  if (outcome) {
    const n = outcome.removed;
    io.err(`Stopped: removed ${n} trial cop${n === 1 ? 'y' : 'ies'}${outcome.leftAlone.length ? '' : '; nothing of the trial is left'}.`);
    for (const item of outcome.leftAlone) io.err(`Left alone: ${describeLeftAlone(item)}`);
    // The record's copies are gone: like a finished run, it leaves no trial file behind.
    await fs.rm(run.trialFile, { force: true });
  } else if (!run.onService) {
    io.err('Stopped before anything was made on the service.');
  } else {
    io.err(`Stopped, but the clean-up did not finish${error instanceof Error ? ` (${error.message})` : ''}. ${leftBehindText(run.trialFile)}`);
  }
  return STOP_EXIT_CODES[signal];
}

/** A finished trial's lines (each agent, the gate) and its exit code; the trial file goes (its copies are gone). */
async function report(result: TryPolicyEditResult, gate: GateThresholds | undefined, io: CliIo, cwd: string): Promise<number> {
  for (const item of result.leftAlone) io.err(`Left alone: ${describeLeftAlone(item)}`);
  for (const a of result.agents) {
    const n = a.disagreeing.length;
    io.out(`${a.agentName}: ${n === 0 ? 'every case with an expected outcome agrees' : `${n} case${n === 1 ? '' : 's'} with an expected outcome now disagree${n === 1 ? 's' : ''}`} (${shownPath(cwd, a.file)}).`);
  }
  for (const a of result.agents) if (a.coverage) io.out(`${a.agentName}: ${ruleCoverageLine(a.coverage, a.record.testSet)}`);
  const verdicts: GateVerdict[] = result.agents.map((a) => judgeTrial(a.record, TRIAL_TARGET_ID, gate ?? {}, a.coverage));
  result.agents.forEach((a, i) => reportGate(a.agentName, verdicts[i]!, io));
  if (result.trialFile) await fs.rm(result.trialFile, { force: true });
  if (gate) return gateExitCode(verdicts);
  return result.failing > 0 ? 1 : 0;
}

/** A draft file checked with the draft schema; throws naming the file and the first problem's field. */
function readDraft(file: string, text: string): AgentVersionDraft {
  const check = checkJson(text, AgentVersionDraftSchema);
  if (check.ok) return check.value;
  const problem = check.problems[0];
  throw new Error(`${file}: ${problem?.path.length ? `${problem.path.join('.')}: ` : ''}${problem?.message ?? 'not a version draft'}`);
}

// The gate's options: undefined when none is given (the exit code then keeps its first meaning).
function thresholdsOf(minText: string | undefined, maxText: string | undefined, coverageText: string | undefined): GateThresholds | undefined | string {
  const minAccuracy = parseThreshold('min-accuracy', minText);
  const maxNewlyWrong = parseThreshold('max-newly-wrong', maxText);
  const minRuleCoverage = parseThreshold('min-rule-coverage', coverageText);
  if (typeof minAccuracy === 'string') return minAccuracy;
  if (typeof maxNewlyWrong === 'string') return maxNewlyWrong;
  if (typeof minRuleCoverage === 'string') return minRuleCoverage;
  const none = minAccuracy === undefined && maxNewlyWrong === undefined && minRuleCoverage === undefined;
  return none ? undefined : { minAccuracy, maxNewlyWrong, minRuleCoverage };
}

/** Prints a gate's verdict for one agent: the accuracy line, then each threshold not met. */
function reportGate(agentName: string, verdict: GateVerdict, io: CliIo): void {
  io.out(`${agentName}: ${verdict.line}.`);
  for (const f of verdict.failed) io.out(`${agentName}: FAILED ${f.message}.`);
}
