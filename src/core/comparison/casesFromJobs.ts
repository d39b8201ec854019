/** Test cases made from past jobs: their inputs, and what a reviewer said they should have given. */
import type { AgentJob } from '../client';
import { jobRowText } from '../jobView/jobRow';
import type { Expected, TestCase } from './testSet';

/** The parts of a listed job a test case is made from. */
export interface SourceJob {
  id: string;
  job_inputs?: readonly { key: string; value?: string | null; file_name?: string | null; data_type?: string | null }[] | null;
  feedback_review?: { corrected_verdict?: string | null } | null;
  metadata?: Record<string, unknown> | null;
}

/** The parts of a bulk result a test case takes its expectation from. */
export interface SourceResult {
  corrected_outputs?: readonly { key: string; value: string | null }[] | null;
}

export interface CaseFromJob {
  testCase: Omit<TestCase, 'line'>;
  /** File inputs that could not be carried over (only their name is known). */
  skippedFiles: string[];
}

/**
 * A case from a past job. Expected is the reviewer's correction where there is one: the corrected
 * outputs (the outcome key as the disposition, the others as output values), else the feedback's
 * corrected verdict. The job itself is the case's source, so its result is the "before".
 */
export function caseFromJob(job: SourceJob, result: SourceResult | undefined, outcomeKey: string, name?: string): CaseFromJob {
  const inputs: Record<string, unknown> = {};
  const skippedFiles: string[] = [];
  for (const input of job.job_inputs ?? []) {
    if (input.file_name) skippedFiles.push(input.file_name);
    else if (input.value !== undefined && input.value !== null) inputs[input.key] = jsonValue(input.value, input.data_type);
  }
  const expected = expectedFrom(job, result, outcomeKey);
  const testCase: Omit<TestCase, 'line'> = { tags: [], inputs, sourceJobId: job.id };
  if (name !== undefined) testCase.name = name;
  if (expected) testCase.expected = expected;
  return { testCase, skippedFiles };
}

// Inputs are listed as text; a JSON input goes back into the test set as the value it was.
function jsonValue(value: string, dataType: string | null | undefined): unknown {
  if (dataType !== 'application/json') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

function expectedFrom(job: SourceJob, result: SourceResult | undefined, outcomeKey: string): Expected | undefined {
  const corrected = result?.corrected_outputs ?? [];
  if (corrected.length > 0) {
    const expected: Expected = {};
    for (const output of corrected) {
      if (output.value === null) continue;
      if (output.key === outcomeKey) expected.disposition = output.value;
      else (expected.outputs ??= {})[output.key] = output.value;
    }
    if (expected.disposition !== undefined || expected.outputs) return expected;
  }
  const verdict = job.feedback_review?.corrected_verdict;
  return verdict ? { disposition: verdict } : undefined;
}

/** How long a case name made from a line may be (cut at a word). */
const NAME_CHARS = 60;

/**
 * Names for cases made from these jobs, from what tells them apart, fixed once for the test set:
 * `metadata.case` when a job has it, else the metadata field chosen for job labels, else the first line
 * of its first text input that not every job of the set shares (the telling line, as job labels skip a
 * shared opening). A name two jobs would still share gets the job's short id after it.
 */
export function caseNamesFromJobs(jobs: readonly AgentJob[], labelField?: string): string[] {
  const lines = jobs.map(firstTextLines);
  const starts = lines.map((own) => new Set(own.map(lineStart)));
  // A line every job of the set has says nothing about any one case (a greeting, a header).
  const sharedByAll = (line: string): boolean => jobs.length > 1 && starts.every((set) => set.has(lineStart(line)));
  const names = jobs.map((job, i) => {
    const own = job.metadata && Object.hasOwn(job.metadata, 'case') ? job.metadata.case : undefined;
    if (typeof own === 'string' && own.trim()) return own.trim();
    const field = labelField && job.metadata && Object.hasOwn(job.metadata, labelField) ? jobRowText(job, labelField, 0).label : '';
    if (field) return field;
    const telling = lines[i]!.find((line) => !sharedByAll(line));
    return telling ? cutAtWord(telling, NAME_CHARS) : jobRowText(job, labelField, 0).label.replace(/^“(.*)”$/s, '$1');
  });
  const seen = new Map<string, number>();
  for (const name of names) seen.set(name, (seen.get(name) ?? 0) + 1);
  return names.map((name, i) => ((seen.get(name) ?? 0) > 1 ? `${name} (${jobs[i]!.id.slice(0, 8)})` : name));
}

function firstTextLines(job: AgentJob): string[] {
  const value = job.job_inputs?.find((input) => !input.file_name && input.value?.trim())?.value ?? '';
  return value.slice(0, 4000).split(/\r?\n/).map((line) => line.replace(/\s+/g, ' ').trim()).filter(Boolean).slice(0, 12);
}

// Two lines are the same opening when their first words are ("Agent: Thanks for contacting Acme Support, this is Dana").
function lineStart(line: string): string {
  return line.toLowerCase().split(' ').slice(0, 6).join(' ');
}

function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}…`;
}
