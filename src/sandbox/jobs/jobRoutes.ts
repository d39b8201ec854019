import { found, requireOrganization } from '../access';
import { findAgent } from '../agents/agentStore';
import { type Handler, noContent, ok } from '../context';
import { readJsonObject } from '../http/body';
import { HttpError, Msg } from '../http/errors';
import { BodyFields, isUuid } from '../http/fields';
import type { Router } from '../http/router';
import { parseJson, placeholders } from '../util';
import { listJobs } from './jobList';
import { type StoredEvent, currentErrorMessage, findJob } from './jobStore';

/** Most job ids one statuses request may name. */
export const MAX_STATUS_IDS = 1000;

const list: Handler = (ctx) => {
  const orgId = requireOrganization(ctx);
  const agent = found(findAgent(ctx.app.db, orgId, ctx.params.agent_id!));
  return ok(listJobs(ctx, agent));
};

/** The job status record: status code, fractional Unix seconds, and the error only for RETRY/FAILURE. */
function statusRecord(statusCode: number, lastUpdatedMs: number, eventsJson: string): Record<string, unknown> {
  const record: Record<string, unknown> = { status: statusCode, timestamp: lastUpdatedMs / 1000 };
  const error = currentErrorMessage(statusCode, parseJson<StoredEvent[]>(eventsJson) ?? []);
  if (error !== undefined) record.error_message = error;
  return record;
}

const status: Handler = (ctx) => {
  const orgId = requireOrganization(ctx);
  const job = found(findJob(ctx.app.db, orgId, ctx.params.job_id!));
  return ok(statusRecord(job.status_code, job.last_updated_ms, job.events));
};

interface StatusRow {
  id: string;
  status_code: number;
  created_ms: number;
  last_updated_ms: number;
  events: string;
}

/** `job_ids`: 1 to {@link MAX_STATUS_IDS} UUIDs (bad ones named by position); answers them lower-cased, without repeats. */
export function readJobIds(f: BodyFields): string[] {
  const ids = f.array('job_ids', true);
  if (ids && ids.length === 0) f.fail('job_ids', Msg.emptyList);
  else if (ids && ids.length > MAX_STATUS_IDS) f.fail('job_ids', Msg.maxItems(MAX_STATUS_IDS));
  else if (ids) {
    const bad = Object.fromEntries(ids.flatMap((id, i) => (isUuid(id) ? [] : [[String(i), [Msg.uuid]]])));
    if (Object.keys(bad).length > 0) f.fail('job_ids', bad);
  }
  f.finish();
  return [...new Set((ids as string[]).map((id) => id.toLowerCase()))];
}

/**
 * POST /v1/agents/jobs/statuses/ `{"job_ids": [...]}`: the status of many jobs in one request, in
 * the order asked; ids unknown or of another organization are left out.
 */
const statuses: Handler = async (ctx) => {
  const body = await readJsonObject(ctx.req, ctx.app.limits.jsonBytes);
  const orgId = requireOrganization(ctx, body.organization_id);
  const wanted = readJobIds(new BodyFields(body));
  const rows = ctx.app.db.all<StatusRow>(
    `SELECT id, status_code, created_ms, last_updated_ms, events FROM jobs WHERE org_id = ? AND id IN (${placeholders(wanted.length)})`,
    [orgId, ...wanted],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ok(
    wanted.flatMap((id) => {
      const row = byId.get(id);
      if (!row) return [];
      const record = statusRecord(row.status_code, row.last_updated_ms, row.events);
      return [{ id, status: row.status_code, created_at: new Date(row.created_ms).toISOString(),
        last_updated_at: new Date(row.last_updated_ms).toISOString(), timestamp: record.timestamp, error_message: record.error_message ?? null }];
    }),
  );
};

/** POST /v1/agents/jobs/{job_id}/cancel/: 204; a job already final cannot be cancelled (409). */
const cancel: Handler = async (ctx) => {
  const body = await readJsonObject(ctx.req, ctx.app.limits.jsonBytes);
  const orgId = requireOrganization(ctx, body.organization_id);
  const job = found(findJob(ctx.app.db, orgId, ctx.params.job_id!));
  if (!ctx.app.lifecycle.cancel(job.pk)) {
    throw new HttpError(409, { error: 'This job has already finished; only a job that is still running can be cancelled.' });
  }
  return noContent();
};

/** POST /v1/agents/{agent_id}/jobs/cancel-all/: cancels every job of the agent that is not final; says how many. */
const cancelAll: Handler = async (ctx) => {
  const body = await readJsonObject(ctx.req, ctx.app.limits.jsonBytes);
  const orgId = requireOrganization(ctx, body.organization_id);
  const agent = found(findAgent(ctx.app.db, orgId, ctx.params.agent_id!));
  const targeted = ctx.app.lifecycle.cancelAll(agent.pk);
  return ok({ task_id: null, targeted_count: targeted, note: `Cancelled ${targeted} job${targeted === 1 ? '' : 's'} that had not finished.` });
};

/** Registers the job routes. */
export function registerJobRoutes(router: Router<Handler>): void {
  router
    .add('GET', '/v1/agents/{agent_id}/jobs/', list)
    .add('GET', '/v1/agents/jobs/{job_id}/status/', status)
    .add('POST', '/v1/agents/jobs/statuses/', statuses)
    .add('POST', '/v1/agents/jobs/{job_id}/cancel/', cancel)
    .add('POST', '/v1/agents/{agent_id}/jobs/cancel-all/', cancelAll);
}
