/** Test cases made from past jobs: their inputs, and what a reviewer said they should have given. */
import type { AgentJob } from '../client';
import { jobRowText, sharedText } from '../jobView/jobRow';
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

/**
 * Names for cases made from these jobs, from what tells them apart: `metadata.case` when a job has it,
 * else the label the Jobs list gives the job (the metadata field chosen for labels, or its first telling
 * input line). A name two jobs would share gets the job's short id after it.
 */
export function caseNamesFromJobs(jobs: readonly AgentJob[], labelField?: string): string[] {
  const shared = sharedText(jobs);
  const names = jobs.map((job) => {
    const own = job.metadata && Object.hasOwn(job.metadata, 'case') ? job.metadata.case : undefined;
    if (typeof own === 'string' && own.trim()) return own.trim();
    return jobRowText(job, labelField, 0, shared).label.replace(/^“(.*)”$/s, '$1');
  });
  const seen = new Map<string, number>();
  for (const name of names) seen.set(name, (seen.get(name) ?? 0) + 1);
  return names.map((name, i) => ((seen.get(name) ?? 0) > 1 ? `${name} (${jobs[i]!.id.slice(0, 8)})` : name));
}
