/**
 * Cases added at the end of a JSONL test set, every byte before them kept: a BOM, CRLF or LF line ends,
 * comments and lines that are not UTF-8 stay as they were; the new lines take the file's line end. Cases
 * are made from past jobs the way Create Test Set from Jobs… makes them (casesFromJobs.ts), so a job
 * already a case of the file is not added twice.
 */
import type { AgentJob } from '../client';
import { caseFromJob, caseNamesFromJobs, type SourceResult } from './casesFromJobs';
import { parseTestSet, testCaseLine, testSetFormat } from './testSet';

/** The lines of new cases made from jobs (their inputs; a reviewer's correction as expected), and the file inputs left out. */
export function caseLinesFromJobs(jobs: readonly AgentJob[], results: ReadonlyMap<string, SourceResult | undefined>, labelField?: string): { lines: string[]; skippedFiles: string[] } {
  const names = caseNamesFromJobs([...jobs], labelField);
  const skippedFiles: string[] = [];
  const lines = jobs.map((job, i) => {
    const made = caseFromJob(job, results.get(job.id), 'disposition', names[i]);
    skippedFiles.push(...made.skippedFiles);
    return testCaseLine(made.testCase);
  });
  return { lines, skippedFiles };
}

/** The jobs a test set's cases were made from (`source_job_id`). */
export function sourceJobIds(fileName: string, text: string): Set<string> {
  return new Set(parseTestSet(fileName, text).cases.flatMap((c) => (c.sourceJobId ? [c.sourceJobId] : [])));
}

/** Why lines cannot be appended to this test set, or undefined when they can (JSONL only: a CSV's columns are the author's). */
export function appendProblem(fileName: string): string | undefined {
  return testSetFormat(fileName) === 'jsonl' ? undefined : `${fileName} is not a JSONL test set: cases are added only to *.testset.jsonl files (a CSV's columns are yours to choose).`;
}

/** The text to insert at the end of a test set's text to append `lines` (a line end first when its last line has none). */
export function appendedText(text: string, lines: readonly string[]): string {
  return linesToAppend(text.includes('\r\n'), text.length > 0 && !text.endsWith('\n'), lines);
}

/** A test set file's bytes with `lines` appended; the bytes before them are the file's own. */
export function appendLinesBytes(bytes: Uint8Array, lines: readonly string[]): Uint8Array {
  // Only the file's line end matters, so only those bytes are read: bytes that are not UTF-8 are never decoded.
  const crlf = bytes.some((b, i) => b === 0x0d && bytes[i + 1] === 0x0a);
  const added = new TextEncoder().encode(linesToAppend(crlf, bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a, lines));
  const out = new Uint8Array(bytes.length + added.length);
  out.set(bytes, 0);
  out.set(added, bytes.length);
  return out;
}

function linesToAppend(crlf: boolean, lastLineOpen: boolean, lines: readonly string[]): string {
  const eol = crlf ? '\r\n' : '\n';
  return `${lastLineOpen ? eol : ''}${lines.map((l) => `${l}${eol}`).join('')}`;
}
