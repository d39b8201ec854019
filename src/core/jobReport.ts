import type { AgentJob } from './client';
import { dateTime, duration, elapsedMs } from './format';
import { isFinalStatus, jobStatusName } from './jobStatus';

/**
 * A job as a readable Markdown text (shown in a read-only editor): status, inputs, status events with
 * their times and errors, evaluation, feedback review, metadata, and any other fields the service sent.
 */
export function renderJobReport(job: AgentJob, agentName: string): string {
  const out: string[] = [];
  out.push(`# Job ${job.id}`, '');
  out.push(`- **Agent:** ${inline(agentName)}`);
  out.push(`- **Version:** ${inline(job.agent_version_name ?? 'unnamed version')}`);
  out.push(`- **Status:** ${jobStatusName(job.status_code)}${isFinalStatus(job.status_code) ? '' : ' (running)'}`);
  out.push(`- **Created:** ${dateTime(job.created_at)}`);
  if (job.last_updated_at) out.push(`- **Last update:** ${dateTime(job.last_updated_at)}`);
  const reported = (job as { duration_ms?: unknown }).duration_ms;
  const ms = typeof reported === 'number' ? reported : elapsedMs(job.created_at, isFinalStatus(job.status_code) ? job.last_updated_at : undefined);
  if (ms !== undefined) out.push(`- **Duration:** ${duration(ms)}`);
  out.push('');

  out.push('## Inputs', '');
  if (!job.job_inputs?.length) out.push('_No inputs._', '');
  for (const input of job.job_inputs ?? []) {
    out.push(`### ${inline(input.key)}${input.data_type ? ` (${inline(input.data_type)})` : ''}`);
    if (input.description) out.push('', inline(input.description));
    if (input.file_name) out.push('', `File: ${inline(input.file_name)}`);
    out.push('', block(input.value ?? ''), '');
  }

  out.push('## Status events', '');
  if (!job.status_events?.length) out.push('_No events._', '');
  else {
    out.push('| Time | Status | Count | Error |', '| --- | --- | --- | --- |');
    for (const e of job.status_events) out.push(`| ${dateTime(e.timestamp)} | ${jobStatusName(e.status_code)} | ${e.count ?? ''} | ${cell(e.error_message ?? '')} |`);
    out.push('');
    for (const e of job.status_events.filter((x) => x.error_details && Object.keys(x.error_details).length)) {
      out.push(`Error details at ${dateTime(e.timestamp)}:`, '', block(JSON.stringify(e.error_details, null, 2), 'json'), '');
    }
  }

  out.push('## Evaluation', '');
  if (!job.evaluation) out.push('_Not evaluated._', '');
  else {
    const ev = job.evaluation;
    out.push(`- **Grader score:** ${ev.grader_score ?? '—'}`, `- **Human score:** ${ev.human_score ?? '—'}`);
    if (ev.updated_at || ev.created_at) out.push(`- **Updated:** ${dateTime(ev.updated_at ?? ev.created_at)}`);
    if (ev.feedback) out.push('', '**Feedback:**', '', block(ev.feedback));
    if (ev.reference !== undefined && ev.reference !== null) out.push('', '**Reference:**', '', block(typeof ev.reference === 'string' ? ev.reference : JSON.stringify(ev.reference, null, 2)));
    out.push('');
  }

  out.push('## Feedback review', '');
  if (!job.feedback_review) out.push('_No review._', '');
  else {
    const r = job.feedback_review;
    out.push(`- **Status:** ${inline(r.review_status ?? '—')}`, `- **Reviewed by:** ${inline(r.reviewed_by ?? '—')}`);
    if (r.reviewed_at) out.push(`- **Reviewed:** ${dateTime(r.reviewed_at)}`);
    if (r.corrected_verdict) out.push(`- **Corrected verdict:** ${inline(r.corrected_verdict)}`);
    if (r.review_comment) out.push('', block(r.review_comment));
    out.push('');
  }

  out.push('## Metadata', '');
  out.push(job.metadata && Object.keys(job.metadata).length ? block(JSON.stringify(job.metadata, null, 2), 'json') : '_None._', '');

  const known = new Set(['id', 'agent_version_name', 'status_events', 'status_code', 'created_at', 'last_updated_at', 'evaluation', 'feedback_review', 'job_inputs', 'metadata', 'duration_ms']);
  const extra = Object.fromEntries(Object.entries(job).filter(([k]) => !known.has(k)));
  if (Object.keys(extra).length) out.push('## Other fields', '', block(JSON.stringify(extra, null, 2), 'json'), '');
  return out.join('\n');
}

/** One line of text: newlines folded, so a value cannot break the document's structure. */
function inline(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

function cell(text: string): string {
  return inline(text).replace(/\|/g, '\\|');
}

/** A fenced block long enough that no fence inside the value can close it. */
function block(text: string, lang = ''): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}
