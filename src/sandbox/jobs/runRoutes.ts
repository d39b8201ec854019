/** Starting jobs: the current version, a chosen version, many at once, and the synchronous run (the service's "Running"). */
import { found, requireOrganization } from '../access';
import { type AgentRow, findAgent } from '../agents/agentStore';
import { type VersionRow, definitionsOf, findVersion } from '../agents/versionStore';
import { type Handler, type RequestContext, ok } from '../context';
import { readJsonObject } from '../http/body';
import { HttpError, Msg, fieldError, jsonTypeName } from '../http/errors';
import type { Router } from '../http/router';
import { storedOutcome } from './jobOutcome';
import { readRunRequest, runRequestOf, validateRun } from './runInputs';
import { type JobStart, judgeStart, startJob, storeJob } from './startJob';

/** Most input sets one `async/many` request may carry. */
export const MAX_MANY_INPUTS = 1000;

/** The agent and the version a run asks for (the current one unless `version_id` is in the path). */
function runTarget(ctx: RequestContext, orgId: string): { agent: AgentRow; version: VersionRow } {
  const { db } = ctx.app;
  const agent = found(findAgent(db, orgId, ctx.params.agent_id!));
  const versionId = ctx.params.version_id;
  if (versionId !== undefined) return { agent, version: found(findVersion(db, agent.pk, versionId)) };
  const version = agent.current_version_id ? findVersion(db, agent.pk, agent.current_version_id) : undefined;
  if (!version) throw new HttpError(400, ['This agent has no current version to run.']);
  return { agent, version };
}

/** Reads and checks one run (JSON or multipart) against the version it targets. */
async function readOneRun(ctx: RequestContext): Promise<{ agent: AgentRow; version: VersionRow; start: JobStart }> {
  const request = await readRunRequest(ctx.req, ctx.app);
  const orgId = requireOrganization(ctx, request.organizationId);
  const { agent, version } = runTarget(ctx, orgId);
  return { agent, version, start: validateRun(request, definitionsOf(version)) };
}

/** POST /v1/agents/run/{agent_id}/async/ and …/versions/{version_id}/async/: 200 with the new job's id as a bare string. */
const runAsync: Handler = async (ctx) => {
  const { agent, version, start } = await readOneRun(ctx);
  return ok(await startJob(ctx.app, agent, version, start, ctx.user.id));
};

/** POST /v1/agents/run/{agent_id}/: runs at once and answers the outputs (the sandbox's engine needs no waiting). */
const runSync: Handler = async (ctx) => {
  const { agent, version, start } = await readOneRun(ctx);
  const id = await startJob(ctx.app, agent, version, start, ctx.user.id, { finishNow: true });
  const row = ctx.app.db.get<{ result: string | null }>('SELECT result FROM jobs WHERE id = ?', [id]);
  return ok(storedOutcome(row?.result ?? null)?.outputs ?? []);
};

/**
 * POST /v1/agents/run/{agent_id}/async/many/ `{"inputs": [{…}, …]}`: one job per input set, all or
 * none: a bad set is named by its position and no job starts. `metadata` of a set is ignored, as the
 * live service does.
 */
const runMany: Handler = async (ctx) => {
  const object = await readJsonObject(ctx.req, ctx.app.limits.jsonBytes);
  const orgId = requireOrganization(ctx, object.organization_id);
  const sets = object.inputs;
  if (sets === undefined) throw fieldError('inputs', Msg.required);
  if (!Array.isArray(sets)) throw fieldError('inputs', Msg.list(jsonTypeName(sets)));
  if (sets.length === 0) throw fieldError('inputs', Msg.emptyList);
  if (sets.length > MAX_MANY_INPUTS) throw fieldError('inputs', Msg.maxItems(MAX_MANY_INPUTS));
  const { agent, version } = runTarget(ctx, orgId);
  const definitions = definitionsOf(version);
  const starts: JobStart[] = [];
  const errors: string[] = [];
  sets.forEach((set, i) => {
    if (set === null || typeof set !== 'object' || Array.isArray(set)) {
      errors.push(`Input set ${i + 1}: must be a JSON object with one property per input key.`);
      return;
    }
    const inputs = { ...(set as Record<string, unknown>) };
    delete inputs.metadata;
    try {
      starts.push({ ...validateRun(runRequestOf(inputs), definitions), metadata: {} });
    } catch (error) {
      if (!(error instanceof HttpError) || !Array.isArray(error.body)) throw error;
      errors.push(...(error.body as string[]).map((message) => `Input set ${i + 1}: ${message}`));
    }
  });
  if (errors.length > 0) throw new HttpError(400, errors);
  // Judged first (in the engine's threads), then stored all at once: all or none.
  const judged = await Promise.all(starts.map((start) => judgeStart(ctx.app, agent, version, start)));
  return ok(ctx.app.db.transaction(() => judged.map((j) => storeJob(ctx.app, agent, version, j, ctx.user.id))));
};

/** Registers the run routes. */
export function registerRunRoutes(router: Router<Handler>): void {
  router
    .add('POST', '/v1/agents/run/{agent_id}/', runSync)
    .add('POST', '/v1/agents/run/{agent_id}/async/', runAsync)
    .add('POST', '/v1/agents/run/{agent_id}/async/many/', runMany)
    .add('POST', '/v1/agents/run/{agent_id}/versions/{version_id}/async/', runAsync);
}
