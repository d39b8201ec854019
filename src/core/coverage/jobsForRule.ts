/**
 * Past jobs that reach a rule no case of a test set reaches: the finished jobs of the agents applying the
 * policy whose outputs say the rule matched (recent pages of each agent, read in bulk, bounded). Where the
 * outputs of an agent's jobs say nothing about rules, the jobs most like the rule's words instead (the
 * jobs list's "similar to" search), said as such: those are guesses to read, not jobs that matched.
 * The cases Find Cases for This Rule offers to add to the test set.
 */
import type { AgentJob, ServiceClient } from '../client';
import type { JobResultRecord } from '../client/schemas/results';
import { JobStatus } from '../jobStatus';
import { matchedRuleList, type MatchedRule } from '../comparison/ruleChanges';

/** The rule looked for: as outputs name it (title, category), and the words a text search looks for. */
export interface RuleSought {
  title: string;
  category: string;
  text: string;
}

/** A job that may become a case. */
export interface JobForRule {
  agent: { id: string; name: string };
  job: AgentJob;
  result: JobResultRecord | undefined;
  /** Its outcome (the `disposition` output), when it has one. */
  outcome: string | null;
  /** Its outputs say the rule matched, or it is only like the rule's words. */
  how: 'matched' | 'similar';
}

/** What the search found and what it read. */
export interface JobsForRule {
  jobs: JobForRule[];
  /** Finished jobs read, over all agents. */
  read: number;
  /** Agents whose jobs' outputs say nothing about rules (searched by the rule's words instead). */
  searchedByText: string[];
}

export interface JobsForRuleOptions {
  agents: readonly { id: string; name: string }[];
  rule: RuleSought;
  /** Recent finished jobs read per agent (default 200). */
  limit?: number;
  /** Jobs already cases of the test set: left out. */
  exclude?: ReadonlySet<string>;
  /** Jobs offered by text search per agent (default 20). */
  similarLimit?: number;
  /** Only by text: a rule new in an edit, which no output can name yet. */
  byTextOnly?: boolean;
  signal?: AbortSignal;
}

const FINISHED = `${JobStatus.SUCCESS},${JobStatus.CACHED}`;
const PAGE_SIZE = 100;
const OUTCOME_KEY = 'disposition';

/** The jobs of the agents that reach the rule, matched first in each agent's order (newest first), then the similar ones. */
export async function jobsForRule(client: Pick<ServiceClient, 'jobs'>, o: JobsForRuleOptions): Promise<JobsForRule> {
  const found: JobsForRule = { jobs: [], read: 0, searchedByText: [] };
  for (const agent of o.agents) {
    if (o.byTextOnly) {
      found.searchedByText.push(agent.name);
      found.jobs.push(...(await similarJobs(client, agent, o)));
      continue;
    }
    const recent = await recentFinished(client, agent.id, o.limit ?? 200, o.signal);
    found.read += recent.length;
    const results = await client.jobs.results(recent.map((j) => j.id), { signal: o.signal });
    const byId = new Map(results.map((r) => [r.id, r]));
    let saysRules = false;
    for (const job of recent) {
      const result = byId.get(job.id);
      const matched = matchedRuleList(result?.result ?? undefined);
      if (matched) saysRules = true;
      if (!matched?.some((m) => names(m, o.rule)) || o.exclude?.has(job.id)) continue;
      found.jobs.push({ agent, job, result, outcome: outcomeOf(result), how: 'matched' });
    }
    if (!saysRules && recent.length) {
      found.searchedByText.push(agent.name);
      found.jobs.push(...(await similarJobs(client, agent, o)));
    }
  }
  return found;
}

/** Whether a rule name from the outputs is the rule sought: its title, and its category when the output gives one. */
function names(m: MatchedRule, rule: RuleSought): boolean {
  return m.name === rule.title && (m.category === undefined || m.category === rule.category);
}

async function recentFinished(client: Pick<ServiceClient, 'jobs'>, agentId: string, limit: number, signal?: AbortSignal): Promise<AgentJob[]> {
  const jobs: AgentJob[] = [];
  for await (const page of client.jobs.pages(agentId, { status_code: FINISHED, ordering: '-created_at', page_size: Math.min(PAGE_SIZE, limit) }, { signal })) {
    jobs.push(...page.results.slice(0, limit - jobs.length));
    if (jobs.length >= limit) break;
  }
  return jobs;
}

async function similarJobs(client: Pick<ServiceClient, 'jobs'>, agent: { id: string; name: string }, o: JobsForRuleOptions): Promise<JobForRule[]> {
  const page = await client.jobs.list(agent.id, { semantic_string: o.rule.text, status_code: FINISHED, page_size: o.similarLimit ?? 20 }, { signal: o.signal });
  const jobs = page.results.filter((j) => !o.exclude?.has(j.id));
  const results = new Map((await client.jobs.results(jobs.map((j) => j.id), { signal: o.signal })).map((r) => [r.id, r]));
  return jobs.map((job) => ({ agent, job, result: results.get(job.id), outcome: outcomeOf(results.get(job.id)), how: 'similar' as const }));
}

function outcomeOf(result: JobResultRecord | undefined): string | null {
  return result?.result?.find((o) => o.key === OUTCOME_KEY)?.value ?? null;
}
