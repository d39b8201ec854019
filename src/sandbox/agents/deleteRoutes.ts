// Deleting agents and agent versions (what a trial leaves behind is removed with them): an agent goes
// with its versions, tags and jobs; a version that is not the current one goes with its jobs, and the
// agent's job statistics are counted again.

import { found, requireOrganization } from '../access';
import { type Handler, noContent } from '../context';
import { HttpError } from '../http/errors';
import type { Router } from '../http/router';
import type { SandboxDb } from '../store/database';
import { findAgent, refreshAgentSearch } from './agentStore';
import { findVersion } from './versionStore';

/** Removes jobs (and the rows derived from them) chosen by a condition on `jobs`. */
function deleteJobs(db: SandboxDb, where: string, params: (string | number)[]): void {
  db.run(`DELETE FROM job_metadata WHERE job_pk IN (SELECT pk FROM jobs WHERE ${where})`, params);
  db.run(`DELETE FROM job_text WHERE job_pk IN (SELECT pk FROM jobs WHERE ${where})`, params);
  db.run(`DELETE FROM jobs WHERE ${where}`, params);
}

/** DELETE /v1/agents/{agent_id}/: 204; its versions, tags and jobs go with it. */
const deleteAgent: Handler = (ctx) => {
  const { db } = ctx.app;
  const agent = found(findAgent(db, requireOrganization(ctx), ctx.params.agent_id!));
  db.transaction(() => {
    deleteJobs(db, 'agent_pk = ?', [agent.pk]);
    db.run('DELETE FROM agent_tags WHERE agent_pk = ?', [agent.pk]);
    db.run('DELETE FROM agent_versions WHERE agent_pk = ?', [agent.pk]);
    db.run('DELETE FROM agents WHERE pk = ?', [agent.pk]);
  });
  return noContent();
};

/** DELETE /v1/agents/{agent_id}/versions/{agent_version_id}/: 204; the current version stays (400: make another current first). */
const deleteVersion: Handler = (ctx) => {
  const { db } = ctx.app;
  const agent = found(findAgent(db, requireOrganization(ctx), ctx.params.agent_id!));
  const version = found(findVersion(db, agent.pk, ctx.params.agent_version_id!));
  if (agent.current_version_id === version.id) {
    throw new HttpError(400, ['The current version of an agent cannot be deleted; create or choose another version first.']);
  }
  db.transaction(() => {
    deleteJobs(db, 'version_pk = ?', [version.pk]);
    db.run('DELETE FROM agent_versions WHERE pk = ?', [version.pk]);
    db.run(
      `UPDATE agents SET job_count = (SELECT count(*) FROM jobs WHERE agent_pk = ?), most_recent_ms = (SELECT max(created_ms) FROM jobs WHERE agent_pk = ?)
       WHERE pk = ?`,
      [agent.pk, agent.pk, agent.pk],
    );
    refreshAgentSearch(db, agent.pk);
  });
  return noContent();
};

/** Registers the delete routes of agents and their versions. */
export function registerAgentDeleteRoutes(router: Router<Handler>): void {
  router.add('DELETE', '/v1/agents/{agent_id}/', deleteAgent).add('DELETE', '/v1/agents/{agent_id}/versions/{agent_version_id}/', deleteVersion);
}
