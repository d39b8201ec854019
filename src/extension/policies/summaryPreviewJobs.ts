import * as vscode from 'vscode';
import type { AgentJob, BaseAgent, ServiceClient } from '../../core/client';
import { relativeTime } from '../../core/format';
import { jobStatusName } from '../../core/jobStatus';
import { pickAgent } from '../agents/agentPickers';
import { shortId } from '../../core/jobView/jobText';
import { jobFromRecords } from '../../core/jobView/jobRecords';
import type { AgentsView } from '../agents/agentsView';
import { CancelledError } from '../util/errors';

/** How many recent jobs the picker offers. */
const RECENT_JOBS = 50;

/** A job chosen to fill a sample, with its agent. */
export interface ChosenJob {
  agent: BaseAgent;
  job: AgentJob;
}

/**
 * Asks for an agent, then one of its recent jobs (newest first). With `ids` (scripts and tests) no
 * question is asked: the agent and the job are read by ID.
 */
export async function chooseJob(client: ServiceClient, agents: AgentsView, ids?: { agentId: string; jobId: string }): Promise<ChosenJob> {
  if (ids) {
    // The record the store holds, else read by ID (never through the list's `job_id` filter).
    const known = agents.jobOf(ids.jobId);
    const [agent, job] = await Promise.all([client.agents.get(ids.agentId), known ?? readJob(client, ids.jobId)]);
    return { agent, job };
  }
  const agent = await pickAgent(agents, 'Fill the Sample from a Job: Choose an Agent');
  return { agent, job: await pickRecentJob(client, agent) };
}

async function readJob(client: ServiceClient, jobId: string): Promise<AgentJob> {
  const [status, results] = await Promise.all([client.jobs.status(jobId), client.jobs.results([jobId])]);
  return jobFromRecords(jobId, status, results.find((r) => r.id === jobId) ?? null);
}

async function pickRecentJob(client: ServiceClient, agent: BaseAgent): Promise<AgentJob> {
  const page = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Loading jobs of ${agent.name}…` }, () =>
    client.jobs.list(agent.id, { ordering: '-created_at', page_size: RECENT_JOBS }),
  );
  if (!page.results.length) throw new Error(`${agent.name} has no jobs yet: run it once, then fill the sample from that job.`);
  const items = page.results.map((job) => ({
    label: `Job ${shortId(job.id)}`,
    description: [jobStatusName(job.status_code), relativeTime(job.created_at), job.agent_version_name ?? ''].filter(Boolean).join(' · '),
    detail: firstInput(job),
    job,
  }));
  const pick = await vscode.window.showQuickPick(items, {
    title: `Fill the Sample from a Job of ${agent.name}`,
    placeHolder: page.count > items.length ? `The ${items.length} most recent of ${page.count} jobs` : 'Recent jobs, newest first',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!pick) throw new CancelledError();
  return pick.job;
}

/** The start of the job's first input, on one line, to recognise the job by. */
function firstInput(job: AgentJob): string | undefined {
  const input = job.job_inputs?.[0];
  if (!input) return undefined;
  const text = (input.file_name || input.value || '').replace(/\s+/g, ' ').trim();
  return text ? `${input.key}: ${text.length > 100 ? `${text.slice(0, 100)}…` : text}` : undefined;
}
