/**
 * Builds the job view's model from what the extension holds about a job: the job record the list gave
 * (status events, evaluation, review, metadata), the status record, the changes a watcher saw, and the
 * result record of the bulk results endpoint (outputs, corrected outputs, tokens, cost). Any of them
 * may be missing; the view shows what there is and says what is not there.
 */
import { artifactRefs } from './artifacts';
import type { AgentJob, JobInput, JobResultRecord } from '../client';
import { dateTime } from '../format';
import { isActiveStatus, isFinalStatus, jobStatusFromName, jobStatusName } from '../jobStatus';
import { jobDurationText, jobStatusText, shortId } from './jobText';
import type { Field, InputView, JobViewModel, OutputView, TimelineEntry } from './model';
import { sameValue, shownValue } from './shownValue';
import { statusLook } from './statusLook';

/** A status change a watcher saw (time in ms). */
export interface ObservedStatus {
  status: number;
  at: number;
  error?: string;
}

export type { JobResultRecord };

/** Everything known about one job. */
export interface JobViewSources {
  agentId: string;
  agentName: string;
  jobId: string;
  /** The job as the agent's job list gave it. */
  job?: AgentJob;
  /** The latest status record (`GET …/status/` or the bulk statuses). */
  status?: { status: number; timestamp?: number | null; error_message?: string | null };
  observed?: readonly ObservedStatus[];
  /** The bulk results item: undefined when not read (yet), null when the service has none for this job. */
  result?: JobResultRecord | null;
  resultError?: string;
  /** Why the status could not be read (a job the service does not know, a failed request). */
  statusError?: string;
  versionName?: string;
  /** When these records were read (ms). */
  readAt: number;
  now?: number;
}

/** The view model of one job. */
export function jobViewModel(src: JobViewSources): JobViewModel {
  const code = currentStatus(src);
  const final = isFinalStatus(code);
  const timeline = timelineOf(src);
  const { inputs, inputsNote } = inputsOf(src);
  const outputs = outputsOf(src.result);
  const versionName = src.job?.agent_version_name ?? src.versionName ?? '';
  const problems = [src.statusError && `Could not read the status: ${src.statusError}`, src.resultError && `Could not read the result: ${src.resultError}`].filter((p): p is string => Boolean(p));
  return {
    jobId: src.jobId,
    agentId: src.agentId,
    title: `Job ${shortId(src.jobId)} · ${src.agentName}`,
    agentName: src.agentName,
    versionName,
    status: { code, name: jobStatusName(code), text: statusText(src, code), look: statusLook(code), final },
    header: headerOf(src, code, versionName),
    timeline,
    inputs,
    inputsNote,
    outputs,
    outputsNote: outputs.length ? '' : outputsNote(src, code),
    artifacts: artifactRefs(src.result?.result ?? []),
    usage: usageOf(src),
    evaluation: evaluationOf(src.job),
    review: reviewOf(src.job),
    metadata: src.job?.metadata && Object.keys(src.job.metadata).length ? shownValue(src.job.metadata) : null,
    problems,
    freshness: `Read at ${dateTime(new Date(src.readAt).toISOString()).slice(11)}${final ? '' : ' · refreshing while it runs'}`,
    actions: { cancel: isActiveStatus(code), runAgain: inputs.length > 0, watch: isActiveStatus(code) },
  };
}

/** The newest status known: what a watcher saw last, else the status record, else the result, else the list. */
export function currentStatus(src: Pick<JobViewSources, 'job' | 'status' | 'observed' | 'result'>): number {
  const seen = src.observed?.at(-1)?.status;
  if (seen !== undefined) return seen;
  if (src.status) return src.status.status;
  const fromResult = typeof src.result?.status === 'number' ? src.result.status : typeof src.result?.status === 'string' ? jobStatusFromName(src.result.status) : undefined;
  return fromResult ?? src.job?.status_code ?? -1;
}

function statusText(src: JobViewSources, code: number): string {
  return jobStatusText({ status_code: code, status_events: src.job?.status_events });
}

/**
 * The header has the same rows for every job, whatever was read about it: Created, Last update and
 * Duration (Running for, while it runs) come from the job record when there is one, else from the
 * status record and what the watcher saw, and say "not known yet" for what nothing told.
 */
function headerOf(src: JobViewSources, code: number, versionName: string): Field[] {
  const job = src.job;
  const unknown = 'not known yet';
  const statusAt = typeof src.status?.timestamp === 'number' ? new Date(src.status.timestamp * 1000).toISOString() : undefined;
  const seenAt = src.observed?.length ? new Date(src.observed.at(-1)!.at).toISOString() : undefined;
  const lastUpdate = job?.last_updated_at ?? statusAt ?? seenAt;
  const created = job?.created_at;
  const took = created ? jobDurationText({ ...(job ?? {}), created_at: created, last_updated_at: lastUpdate ?? null, status_code: code }, src.now) : '';
  return [
    { label: 'Agent', value: src.agentName },
    { label: 'Version', value: versionName || src.result?.agent_version_id || 'unknown version' },
    { label: 'Created', value: created ? dateTime(created) : unknown },
    { label: 'Last update', value: lastUpdate ? dateTime(lastUpdate) : unknown },
    { label: isFinalStatus(code) ? 'Duration' : 'Running for', value: took || unknown },
    { label: 'Job ID', value: src.jobId },
  ];
}

function timelineOf(src: JobViewSources): TimelineEntry[] {
  const events: TimelineEntry[] = (src.job?.status_events ?? []).map((e) => ({
    time: dateTime(e.timestamp),
    status: jobStatusName(e.status_code),
    look: statusLook(e.status_code),
    count: typeof e.count === 'number' && e.count > 1 ? `×${e.count}` : '',
    error: e.error_message ?? '',
    details: e.error_details && typeof e.error_details === 'object' && Object.keys(e.error_details).length ? JSON.stringify(e.error_details, null, 2) : '',
    observed: false,
  }));
  const lastKnown = src.job?.status_events?.at(-1);
  const lastKnownAt = lastKnown ? Date.parse(lastKnown.timestamp) : Number.NEGATIVE_INFINITY;
  for (const seen of src.observed ?? []) {
    // What the list already had, and repeats of the status shown last, are not news.
    if (seen.at <= lastKnownAt || events.at(-1)?.status === jobStatusName(seen.status)) continue;
    events.push({ time: dateTime(new Date(seen.at).toISOString()), status: jobStatusName(seen.status), look: statusLook(seen.status), count: '', error: seen.error ?? '', details: '', observed: true });
  }
  if (!events.length && src.status) {
    const at = typeof src.status.timestamp === 'number' ? dateTime(new Date(src.status.timestamp * 1000).toISOString()) : '';
    events.push({ time: at, status: jobStatusName(src.status.status), look: statusLook(src.status.status), count: '', error: src.status.error_message ?? '', details: '', observed: true });
  }
  return events;
}

function inputsOf(src: JobViewSources): { inputs: InputView[]; inputsNote: string } {
  const records = src.job?.job_inputs?.length ? src.job.job_inputs : inputsFromResult(src.result?.inputs);
  const inputs = records.map((input) => ({
    key: input.key,
    description: input.description ?? '',
    dataType: input.data_type ?? '',
    fileName: input.file_name ?? '',
    value: shownValue(input.value, input.data_type),
  }));
  const note = inputs.length ? '' : src.job || src.result !== undefined ? 'No inputs.' : 'The inputs are not known yet.';
  return { inputs, inputsNote: note };
}

/** The inputs of a result record: a list of input objects, or an object of values by key. */
export function inputsFromResult(inputs: unknown): JobInput[] {
  if (Array.isArray(inputs)) {
    return inputs.flatMap((item: unknown) => {
      if (!item || typeof item !== 'object') return [];
      const record = item as Record<string, unknown>;
      if (typeof record.key !== 'string') return [];
      const value = typeof record.value === 'string' ? record.value : record.value === undefined || record.value === null ? '' : JSON.stringify(record.value);
      const str = (k: string): string | undefined => (typeof record[k] === 'string' ? (record[k]) : undefined);
      return [{ key: record.key, value, description: str('description'), data_type: str('data_type'), file_name: str('file_name') }];
    });
  }
  if (inputs && typeof inputs === 'object') {
    return Object.entries(inputs as Record<string, unknown>).map(([key, value]) => ({ key, value: typeof value === 'string' ? value : JSON.stringify(value) }));
  }
  return [];
}

function outputsOf(result: JobResultRecord | null | undefined): OutputView[] {
  const outputs = result?.result ?? [];
  const corrected = new Map((result?.corrected_outputs ?? []).map((o) => [o.key, o]));
  const ownCosts = outputCostsOwn(outputs.map((o) => o.cost), result?.cost);
  const views: OutputView[] = outputs.map((o) => {
    const value = shownValue(o.value, o.data_type);
    const fix = corrected.get(o.key);
    corrected.delete(o.key);
    const fixed = fix ? shownValue(fix.value, fix.data_type ?? o.data_type) : null;
    return { key: o.key, description: o.description ?? '', dataType: o.data_type ?? '', value, cost: ownCosts ? costText(o.cost) : '', corrected: fixed && !sameValue(fixed, value) ? fixed : null };
  });
  // A correction of a key the agent did not answer is still the reviewer's ground truth.
  for (const o of corrected.values()) {
    views.push({ key: o.key, description: o.description ?? '', dataType: o.data_type ?? '', value: shownValue(''), cost: '', corrected: shownValue(o.value, o.data_type) });
  }
  return views;
}

/**
 * Whether the outputs' costs say something of their own. A service that repeats the job's total on
 * every output (or gives one cost for all) says nothing the usage row does not: those are not shown.
 */
export function outputCostsOwn(costs: readonly (number | null | undefined)[], total: number | null | undefined): boolean {
  const known = costs.filter((c): c is number => typeof c === 'number');
  if (!known.length) return false;
  if (known.length > 1 && known.every((c) => c === known[0])) return false;
  return !(typeof total === 'number' && known.every((c) => c === total));
}

function outputsNote(src: JobViewSources, code: number): string {
  if (src.result === undefined) return src.resultError ? 'The outputs could not be read.' : 'Reading the outputs…';
  if (code < 0) return 'The job’s status is not known, so neither are its outputs.';
  if (!isFinalStatus(code)) return 'The job is still running: its outputs appear here when it finishes.';
  if (!src.result?.result) return code === 4 || code === 5 ? `This job ended (${jobStatusName(code)}) without a result.` : 'The service has no result for this job.';
  return 'The job answered with no outputs.';
}

function usageOf(src: JobViewSources): Field[] {
  const r = src.result;
  const fields: Field[] = [];
  if (typeof r?.input_tokens === 'number') fields.push({ label: 'Tokens in', value: r.input_tokens.toLocaleString('en-US') });
  if (typeof r?.output_tokens === 'number') fields.push({ label: 'Tokens out', value: r.output_tokens.toLocaleString('en-US') });
  const listed = (src.job as { cost?: unknown } | undefined)?.cost;
  const cost = typeof r?.cost === 'number' ? r.cost : typeof listed === 'number' ? listed : undefined;
  if (cost !== undefined) fields.push({ label: 'Cost', value: costText(cost) });
  return fields;
}

/** A cost as the service counts it, without inventing a currency. */
export function costText(cost: number | null | undefined): string {
  if (typeof cost !== 'number' || !Number.isFinite(cost)) return '';
  return cost === 0 ? '0' : String(Number(cost.toPrecision(6)));
}

function evaluationOf(job: AgentJob | undefined): JobViewModel['evaluation'] {
  const ev = job?.evaluation;
  if (!ev) return null;
  const fields: Field[] = [
    { label: 'Grader score', value: ev.grader_score === null || ev.grader_score === undefined ? '—' : String(ev.grader_score) },
    { label: 'Human score', value: ev.human_score === null || ev.human_score === undefined ? '—' : String(ev.human_score) },
  ];
  const when = ev.updated_at ?? ev.created_at;
  if (when) fields.push({ label: 'Updated', value: dateTime(when) });
  const reference = ev.reference === undefined || ev.reference === null ? null : shownValue(ev.reference);
  return { fields, feedback: ev.feedback ?? '', reference };
}

function reviewOf(job: AgentJob | undefined): JobViewModel['review'] {
  const r = job?.feedback_review;
  if (!r) return null;
  const fields: Field[] = [
    { label: 'Review', value: r.review_status || '—' },
    { label: 'Reviewed by', value: r.reviewed_by || '—' },
  ];
  if (r.reviewed_at) fields.push({ label: 'Reviewed', value: dateTime(r.reviewed_at) });
  if (r.corrected_verdict) fields.push({ label: 'Corrected verdict', value: r.corrected_verdict });
  return { fields, comment: r.review_comment ?? '' };
}
