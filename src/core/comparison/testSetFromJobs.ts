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
