/**
 * A test set from past jobs: the finished ones become cases (their inputs, the reviewers' corrections as
 * expected, the job itself as the "before"). The one function behind Create Test Set from Jobs… and the
 * `create_test_set` tool.
 */
import type { AgentJob, ServiceClient } from '../client';
import { isFinalStatus, JobStatus } from '../jobStatus';
import { caseFromJob, caseNamesFromJobs } from './casesFromJobs';
import { testCaseLine } from './testSet';
import { checkTestSet, testSetHeader } from './testSetCheck';
import { versionDispositions } from './agentDispositions';

/** What a test set made from jobs holds, and what was left out. */
export interface TestSetFromJobs {
  /** The file text (a header naming the agent, a case a line). */
  text: string;
  cases: number;
  /** Jobs not finished, or cancelled: a case keeps a job's result as its "before". */
  leftOut: number;
  /** File inputs that could not be carried over (only their name is known). */
  skippedFiles: string[];
}

/** The test set of these jobs of an agent (one bulk results request); throws when none of them finished. */
export async function testSetFromJobs(client: ServiceClient, agent: { id: string; name: string }, jobs: readonly AgentJob[], labelField?: string, signal?: AbortSignal): Promise<TestSetFromJobs> {
  const finished = jobs.filter((j) => isFinalStatus(j.status_code) && j.status_code !== JobStatus.CANCELLED);
  if (!finished.length) throw new Error('Choose finished jobs: a case keeps a job\'s result as its "before".');
  const results = new Map((await client.jobs.results(finished.map((j) => j.id), { signal })).map((r) => [r.id, r]));
  const skippedFiles: string[] = [];
  const names = caseNamesFromJobs(finished, labelField);
  const lines = finished.map((job, i) => {
    const made = caseFromJob(job, results.get(job.id) ?? undefined, 'disposition', names[i]);
    skippedFiles.push(...made.skippedFiles);
    return testCaseLine(made.testCase);
  });
  const header = testSetHeader(agent.id, agent.name);
  const notes = await caseNotes(client, agent.id, [header, ...lines], signal);
  return { text: `${[header, ...notes, ...lines].join('\n')}\n`, cases: finished.length, leftOut: jobs.length - finished.length, skippedFiles };
}

/**
 * What the file's own check would warn of, said once in its header: cases made from jobs of an older
 * version may miss an input the current version takes, and a reviewer's correction may name an outcome
 * the current policy does not. They are left as the jobs had them (changing them would make the case
 * another one), so the header says why, per kind, with the lines. The version and policy are read
 * once; when they cannot be read nothing is said.
 */
async function caseNotes(client: ServiceClient, agentId: string, lines: readonly string[], signal?: AbortSignal): Promise<string[]> {
  const version = await client.agents.currentVersion(agentId, { signal }).catch(() => undefined);
  if (!version) return [];
  const dispositions = await versionDispositions(client, version, signal);
  const notesOffset = 1;
  const problems = checkTestSet('made.testset.jsonl', lines.join('\n'), version.input_definitions.map((d) => d.key), dispositions);
  const byKind = new Map<string, number[]>();
  for (const p of problems) {
    const kind = p.message.replace(/"[^"]*"/g, '"…"');
    const at = byKind.get(kind) ?? [];
    at.push(p.line - notesOffset);
    byKind.set(kind, at);
  }
  return [...byKind.entries()].map(([kind, at]) => `// note: case${at.length === 1 ? '' : 's'} ${at.slice(0, 8).join(', ')}${at.length > 8 ? ` and ${at.length - 8} more` : ''} kept as the job${at.length === 1 ? '' : 's'} had ${at.length === 1 ? 'it' : 'them'}: ${exampleOf(problems, kind)}`);
}

function exampleOf(problems: readonly { message: string }[], kind: string): string {
  return problems.find((p) => p.message.replace(/"[^"]*"/g, '"…"') === kind)?.message ?? kind;
}

/** "2 jobs not finished (or cancelled) were left out. 1 file input was left out …" — empty when nothing was. */
export function testSetLeftOutNote(made: Pick<TestSetFromJobs, 'leftOut' | 'skippedFiles'>): string {
  const { leftOut: left, skippedFiles: skipped } = made;
  const running = left ? ` ${left} job${left === 1 ? '' : 's'} not finished (or cancelled) ${left === 1 ? 'was' : 'were'} left out.` : '';
  return running + (skipped.length ? ` ${skipped.length} file input${skipped.length === 1 ? ' was' : 's were'} left out (only the file name is known): ${skipped.slice(0, 3).join(', ')}.` : '');
}

/** One way to choose the jobs a test set is made of, from an agent's jobs. */
export interface JobChoice {
  label: string;
  /** What the test set holds, and what comparing it against the current version would start. */
  detail: string;
  jobs: AgentJob[];
}

/** Sizes offered of the newest finished jobs. */
const NEWEST = [10, 25, 50];

/**
 * How many of an agent's jobs a test set takes, asked rather than all of them: the newest 10, 25 or 50
 * finished, those a reviewer corrected, the failed ones, or every finished job — each saying the cases
 * it makes and the jobs a comparison of them against the current version starts (one per case; the jobs
 * themselves are the results before, read at no cost).
 */
export function jobChoices(jobs: readonly AgentJob[]): JobChoice[] {
  const finished = [...jobs].filter((j) => isFinalStatus(j.status_code) && j.status_code !== JobStatus.CANCELLED).sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
  const cases = (n: number): string => `${n} case${n === 1 ? '' : 's'}; a comparison against the current version starts ${n} job${n === 1 ? '' : 's'}`;
  const choices: JobChoice[] = NEWEST.filter((n) => n < finished.length).map((n) => ({ label: `The newest ${n} finished jobs`, detail: cases(n), jobs: finished.slice(0, n) }));
  const corrected = finished.filter((j) => j.feedback_review?.corrected_verdict);
  if (corrected.length) choices.push({ label: 'The jobs a reviewer corrected', detail: `${cases(corrected.length)} (each expects the reviewer's outcome)`, jobs: corrected });
  const failed = finished.filter((j) => j.status_code === JobStatus.FAILURE);
  if (failed.length && failed.length < finished.length) choices.push({ label: 'The failed jobs', detail: cases(failed.length), jobs: failed });
  if (finished.length) choices.push({ label: `All ${finished.length} finished jobs`, detail: cases(finished.length), jobs: finished });
  return choices;
}
