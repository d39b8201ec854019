/** What jobs answered: one job's result and many at once (the service's "Results"). */
import { JobStatus } from '../../core/jobStatus';
import { found, requireOrganization } from '../access';
import type { InputDefinition } from '../agents/definitions';
import { type Handler, ok } from '../context';
import { readJsonObject } from '../http/body';
import { HttpError } from '../http/errors';
import { BodyFields } from '../http/fields';
import type { Router } from '../http/router';
import { parseJson, placeholders } from '../util';
import { readJobIds } from './jobRoutes';
import { storedOutcome } from './jobOutcome';
import { JOB_COLUMNS, JOB_FROM, type JobRow, type StoredInput, inputObjects } from './jobStore';

type ResultRow = JobRow & { result: string | null };

interface Output {
  key: string;
  description: string;
  data_type: string;
  value: string;
  cost: number | null;
}

const RESULT_SELECT = `SELECT ${JOB_COLUMNS}, j.result FROM ${JOB_FROM}`;

/** The outputs of a job that succeeded (or was answered from the cache); null for any other job. */
function outputsOf(row: ResultRow): Output[] | null {
  if (row.status_code !== JobStatus.SUCCESS && row.status_code !== JobStatus.CACHED) return null;
  const outcome = storedOutcome(row.result);
  if (outcome) return outcome.outputs;
  // Jobs of the seeded history ran before the engine: their verdict is their one output.
  return [{ key: 'disposition', description: 'The verdict of the engine.', data_type: 'text/plain', value: row.verdict ?? '', cost: row.cost }];
}

/** The outputs as a reviewer corrected them (the corrected verdict in place of the disposition), or null. */
function correctedOutputs(row: ResultRow, outputs: Output[] | null): Output[] | null {
  const corrected = parseJson<{ corrected_verdict?: unknown }>(row.feedback_review)?.corrected_verdict;
  if (!outputs || typeof corrected !== 'string' || corrected.trim() === '') return null;
  return outputs.map((o) => (o.key === 'disposition' ? { ...o, value: corrected } : o));
}

function inputsOf(row: ResultRow): unknown[] {
  return inputObjects(parseJson<StoredInput[]>(row.inputs) ?? [], parseJson<InputDefinition[]>(row.definitions) ?? []);
}

function tokensOf(row: ResultRow): { input_tokens: number | null; output_tokens: number | null } {
  const outcome = storedOutcome(row.result);
  return { input_tokens: outcome?.input_tokens ?? null, output_tokens: outcome?.output_tokens ?? null };
}

/**
 * GET /v1/agents/jobs/{job_id}/result/: agent, version, inputs, tokens and outputs. A job without
 * result data (still running, failed or cancelled) is answered 500 with no body, as the live service does.
 */
const result: Handler = (ctx) => {
  const orgId = requireOrganization(ctx);
  const row = found(ctx.app.db.get<ResultRow>(`${RESULT_SELECT} WHERE j.id = ? AND j.org_id = ?`, [ctx.params.job_id!, orgId]));
  const outputs = outputsOf(row);
  if (!outputs) return { status: 500 };
  return ok({ agent_id: row.agent_id, agent_version_id: row.version_id, inputs: inputsOf(row), ...tokensOf(row), outputs });
};

/**
 * GET /v1/agents/jobs/{agent_job_id}/artifacts/result/?artifact_key=…: only the artifact's `result`.
 * 400 without a key; 404 for another organization's job or a key the job's outputs never named.
 */
const artifact: Handler = (ctx) => {
  const orgId = requireOrganization(ctx);
  const key = ctx.query.string('artifact_key', 1024);
  ctx.query.finish();
  if (!key) throw new HttpError(400, { error: 'Missing artifact_key query parameter.' });
  const row = found(ctx.app.db.get<ResultRow>(`${RESULT_SELECT} WHERE j.id = ? AND j.org_id = ?`, [ctx.params.agent_job_id!, orgId]));
  const artifacts = storedOutcome(row.result)?.artifacts ?? {};
  if (!Object.prototype.hasOwnProperty.call(artifacts, key)) throw new HttpError(404, { detail: 'Artifact not found in storage.' });
  return ok({ result: artifacts[key] ?? null });
};

/** POST /v1/agents/jobs/results/ `{"job_ids": [...]}`: results of many jobs in the order asked; others' jobs are left out. */
const results: Handler = async (ctx) => {
  const body = await readJsonObject(ctx.req, ctx.app.limits.jsonBytes);
  const orgId = requireOrganization(ctx, body.organization_id);
  const wanted = readJobIds(new BodyFields(body));
  const rows = ctx.app.db.all<ResultRow>(`${RESULT_SELECT} WHERE j.org_id = ? AND j.id IN (${placeholders(wanted.length)})`, [orgId, ...wanted]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ok(
    wanted.flatMap((id) => {
      const row = byId.get(id);
      if (!row) return [];
      const outputs = outputsOf(row);
      return [{
        id, status: row.status_code, result: outputs, corrected_outputs: correctedOutputs(row, outputs), agent_id: row.agent_id,
        agent_version_id: row.version_id, cost: row.cost, inputs: inputsOf(row), ...tokensOf(row),
      }];
    }),
  );
};

/** Registers the result routes. */
export function registerResultRoutes(router: Router<Handler>): void {
  router
    .add('GET', '/v1/agents/jobs/{job_id}/result/', result)
    .add('POST', '/v1/agents/jobs/results/', results)
    .add('GET', '/v1/agents/jobs/{agent_job_id}/artifacts/result/', artifact);
}
