/**
 * What a job row says, so that fifty runs of the same version can be told apart: a chosen metadata
 * field or a short summary of the inputs as the label, and the verdict once there is one.
 */
import type { AgentJob } from '../client';
import { clip, relativeTime } from '../format';
import { JobStatus } from '../jobStatus';
import { jobDurationText, jobStatusText, shortId } from './jobText';

/** How long a row's label may be: short enough that the verdict beside it stays in sight in a side bar. */
export const ROW_LABEL_CHARS = 40;

export interface JobRowText {
  label: string;
  description: string;
  /** The verdict alone ('' when there is none), for tooltips. */
  verdict: string;
}

/**
 * The label and description of a job row. `labelField` names a metadata key whose value labels the
 * row (a setting); without it, or when a job lacks that key, the first input that has a value does —
 * from its first line that is not `shared` boilerplate (see {@link sharedLineStarts}).
 */
export function jobRowText(job: AgentJob, labelField?: string, now: number = Date.now(), shared: SharedText = NOTHING_SHARED, shownLabel?: string): JobRowText {
  const version = clip(job.agent_version_name);
  const label = shownLabel ?? (tellingLabel(job, labelField, shared) || version || `job ${shortId(job.id)}`);
  const verdict = jobVerdict(job);
  const parts = [verdict && `→ ${verdict}`, jobStatusText(job), label === version ? '' : version, relativeTime(job.created_at, now), jobDurationText(job, now)];
  return { label, description: parts.filter(Boolean).join(' · '), verdict };
}

/**
 * The verdict of a job that finished with a result (SUCCESS or CACHED): a reviewer's corrected verdict
 * wins over the agent's own (`ui_fields.verdict`). A pending, retrying or failed job has none to show,
 * whatever an earlier attempt left in its fields.
 */
export function jobVerdict(job: AgentJob): string {
  if (job.status_code !== JobStatus.SUCCESS && job.status_code !== JobStatus.CACHED) return '';
  const corrected = job.feedback_review?.corrected_verdict;
  if (corrected) return `${clip(corrected, 40)} (corrected)`;
  const ui = (job as { ui_fields?: unknown }).ui_fields;
  const verdict = ui && typeof ui === 'object' ? (ui as Record<string, unknown>).verdict : undefined;
  return typeof verdict === 'string' || typeof verdict === 'number' ? clip(String(verdict), 40) : '';
}

/** The label made from the job's own content (a metadata field, an input); '' when it has none (yet). */
export function tellingLabel(job: AgentJob, labelField: string | undefined, shared: SharedText = NOTHING_SHARED): string {
  return metadataLabel(job, labelField) || inputSummary(job, shared);
}

function metadataLabel(job: AgentJob, field: string | undefined): string {
  const key = field?.trim();
  if (!key || !job.metadata || !Object.hasOwn(job.metadata, key)) return '';
  const value = job.metadata[key];
  if (value === null || value === undefined || value === '') return '';
  return clip(`${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`, ROW_LABEL_CHARS);
}

/** The first input with something in it: a file by its name, text by its first telling line (on one line). */
function inputSummary(job: AgentJob, shared: SharedText): string {
  for (const input of job.job_inputs ?? []) {
    const text = input.file_name || input.value;
    if (!text?.trim()) continue;
    if (input.file_name) return clip(`file: ${text}`, ROW_LABEL_CHARS);
    const lines = leadingLines(text);
    const telling = lines.findIndex((line) => !shared.lines.has(lineStart(line)));
    const from = telling > 0 ? lines.slice(telling).join(' ') : text;
    return `“${clip(withoutLead(from, lines[Math.max(telling, 0)] ?? '', shared.lead), ROW_LABEL_CHARS - 2)}”`;
  }
  return '';
}

/** How many words must be left of the telling line once its shared opening is skipped ("Company 4" never becomes "4"). */
const WORDS_LEFT = 3;

/** `from` without the opening words all cases share, unless too little of its line would be left to tell it apart. */
function withoutLead(from: string, line: string, lead: string): string {
  if (!lead || !from.startsWith(lead)) return from;
  const left = line.startsWith(lead) ? line.slice(lead.length).trim() : '';
  return left.split(/\s+/).filter(Boolean).length >= WORDS_LEFT ? from.slice(lead.length) : from;
}

/** How many leading lines of an input are looked at, and how many words make a line's start. */
const LINES_LOOKED_AT = 6;
const START_WORDS = 5;

/** What most loaded jobs' inputs begin with alike: whole lines (by their start), and the words the first telling line opens with. */
export interface SharedText {
  lines: ReadonlySet<string>;
  lead: string;
}

/** Nothing shared: every label shows its input from the start. */
export const NOTHING_SHARED: SharedText = { lines: new Set(), lead: '' };

/**
 * What most of these jobs' inputs share ("Agent: Thanks for contacting Acme…", then "Customer: Hi."):
 * a greeting every case begins with says nothing about the case, so row labels skip it. Needs a few
 * jobs to tell; with fewer, nothing is skipped.
 */
export function sharedText(jobs: readonly AgentJob[]): SharedText {
  const values = jobs.flatMap((job) => {
    const value = job.job_inputs?.find((i) => i.value?.trim() && !i.file_name)?.value;
    return value ? [leadingLines(value)] : [];
  });
  const needed = Math.max(3, Math.ceil(jobs.length * 0.8));
  if (values.length < needed) return NOTHING_SHARED;
  const counts = new Map<string, number>();
  for (const lines of values) for (const start of new Set(lines.map(lineStart))) counts.set(start, (counts.get(start) ?? 0) + 1);
  const shared = new Set([...counts].filter(([, n]) => n >= needed).map(([start]) => start));
  const firsts = values.map((lines) => lines.find((line) => !shared.has(lineStart(line))) ?? '');
  return { lines: shared, lead: commonLead(firsts) };
}

/**
 * The openings jobs share, by how they begin: jobs whose first lines start alike (a greeting with the
 * agent's name in it) form a group, and the lines every job of a group has at its start, in the same
 * order, are its opening (then the words their next lines all begin with). An agent's jobs may open in
 * several ways (the seeded calls, a test set's calls): each way is learnt on its own, from at least
 * `minJobs` jobs. `leading` holds each job's first lines (see {@link leadingLinesOf}).
 */
export function sharedOpenings(leading: Iterable<readonly string[]>, minJobs = 3): Map<string, SharedText> {
  const groups = new Map<string, (readonly string[])[]>();
  for (const lines of leading) {
    const first = lines[0];
    if (first === undefined) continue;
    const key = lineStart(first);
    const group = groups.get(key);
    if (group) group.push(lines);
    else groups.set(key, [lines]);
  }
  const openings = new Map<string, SharedText>();
  for (const [key, group] of groups) {
    if (group.length < minJobs) continue;
    const starts = group.map((lines) => lines.map(lineStart));
    let depth = 1;
    while (starts.every((s) => depth < s.length && s[depth] === starts[0]![depth])) depth++;
    const lines = new Set(starts[0]!.slice(0, depth));
    openings.set(key, { lines, lead: commonLead(group.map((l) => l[depth] ?? '')) });
  }
  return openings;
}

/** The key of the opening a job's input belongs to (the start of its first line); '' for none. */
export function openingKey(leading: readonly string[]): string {
  return leading[0] === undefined ? '' : lineStart(leading[0]);
}

/** The first lines of a job's first text input, as its label and {@link sharedOpenings} read them; none without one. */
export function leadingLinesOf(job: AgentJob): string[] | undefined {
  const input = (job.job_inputs ?? []).find((i) => (i.file_name || i.value)?.trim());
  if (!input || input.file_name || !input.value) return undefined;
  return leadingLines(input.value);
}

/** The whole words all these texts begin with (with the space after them), up to the last that ends a phrase. */
function commonLead(texts: string[]): string {
  const words = texts.map((t) => t.split(/(?<=\s)/));
  const lead: string[] = [];
  for (let i = 0; ; i++) {
    const word = words[0]?.[i];
    if (!word || !/\s$/.test(word) || !words.every((w) => w[i] === word)) break;
    lead.push(word);
  }
  // Only whole phrases are skipped ("Customer: Hi. "), never the start of the sentence that tells the case ("I ").
  let end = lead.length;
  while (end > 0 && !/[.!?:;,]\s*$/.test(lead[end - 1]!)) end--;
  return lead.slice(0, end).join('');
}

function leadingLines(text: string): string[] {
  return text.slice(0, 4000).split(/\r?\n/).map((l) => l.trim()).filter(Boolean).slice(0, LINES_LOOKED_AT);
}

function lineStart(line: string): string {
  return line.toLowerCase().split(/\s+/).slice(0, START_WORDS).join(' ');
}
