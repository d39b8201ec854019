// Conversations and the agent runs (jobs) behind them. A conversation's tokens and cost are the
// sums of its runs, so joins between the two tables add up the way a real warehouse would.

import { JobStatus } from '../../core/jobStatus';
import type { SeededRandom } from '../seed/random';
import { DEMO_AGENTS, type DemoAgent } from './demoCustomers';
import { DEMO_SPAN_MS, DEMO_START_MS, formatDateTime, round, type DemoRow } from './demoSchema';

export const CONVERSATION_COUNT = 6000;
const BATCH_RUN_COUNT = 800;

/** Conversation ids whose summaries test escaping in the grid and in CSV export. */
export const TRICKY_SUMMARIES: Readonly<Record<number, string>> = {
  42: 'Customer pasted <img src=x onerror=alert(1)> into the chat; agent replied "we can\'t open attachments".',
  43: 'Refund of €12,50, customer wrote:\n"thanks, it\'s fine" — 谢谢 🙂\t(tab)',
};

const CHANNELS: readonly (readonly [string, number])[] = [['chat', 45], ['voice', 25], ['email', 20], ['sms', 10]];
const DISPOSITIONS: readonly (readonly [string, number])[] = [
  ['resolved', 62], ['escalated', 14], ['abandoned', 10], ['transferred', 8], ['follow_up', 6],
];
const OUTCOMES: Readonly<Record<string, string>> = {
  resolved: 'resolved by the agent',
  escalated: 'escalated to a human agent',
  abandoned: 'the customer left before an answer',
  transferred: 'transferred to the billing team',
  follow_up: 'a follow-up is scheduled',
};
const TOPICS = [
  'a refund for order #', 'a failed card payment', 'changing the delivery address', 'resetting a password',
  'an invoice discrepancy', 'upgrading to the enterprise plan', 'a damaged item in order #', 'API rate limits',
  'cancelling a subscription', 'a missing parcel, order #',
];
const RUN_STATUSES: readonly (readonly [keyof typeof JobStatus, number])[] = [
  ['SUCCESS', 88], ['FAILURE', 5], ['CACHED', 5], ['CANCELLED', 2],
];
const RUN_ERRORS = [
  'Rate limit exceeded (429), retries exhausted',
  'Tool call "lookup_order" timed out after 30 s',
  'Context length exceeded: 131072 tokens',
  'Upstream model returned an empty response',
];
const RUNS_PER_CONVERSATION: readonly (readonly [number, number])[] = [[1, 35], [2, 35], [3, 20], [4, 10]];
const CUSTOMER_ACTIVITY: Readonly<Record<string, number>> = { free: 1, pro: 3, enterprise: 8 };

/** Builds `conversations` and `agent_runs` together (runs first decide a conversation's tokens and cost). */
export function generateActivity(random: SeededRandom, customers: readonly DemoRow[], agents: readonly DemoRow[]) {
  const pickCustomer = weightedPicker(random, customers.map((c) => CUSTOMER_ACTIVITY[String(c.tier)] ?? 1));
  const versions = new Map(agents.map((a) => [String(a.name), Number(String(a.current_version).slice(1))]));
  const runs = new RunFactory(random, versions);
  const conversations: DemoRow[] = [];
  for (let id = 1; id <= CONVERSATION_COUNT; id++) {
    const customer = customers[pickCustomer()] ?? {};
    const startMs = DEMO_START_MS + Math.floor(((id - 1 + random.next()) / CONVERSATION_COUNT) * DEMO_SPAN_MS);
    const conversation = newConversation(random, id, customer, startMs);
    const agent = agentByName(String(conversation.agent_name));
    const totals = runs.forConversation(id, agent, startMs);
    conversation.tokens_in = totals.tokensIn;
    conversation.tokens_out = totals.tokensOut;
    conversation.cost_usd = round(totals.cost, 6);
    conversations.push(conversation);
  }
  const summarizer = agentByName('survey-summarizer');
  for (let i = 0; i < BATCH_RUN_COUNT; i++) runs.add(summarizer, null, DEMO_START_MS + random.int(0, DEMO_SPAN_MS - 1));
  return { conversations, agentRuns: runs.rows };
}

function newConversation(random: SeededRandom, id: number, customer: DemoRow, startMs: number): DemoRow {
  const channel = random.weighted(CHANNELS);
  const disposition = random.weighted(DISPOSITIONS);
  const agent = random.pick(DEMO_AGENTS.filter((a) => a.channels.includes(channel)));
  const medianSeconds = channel === 'voice' ? 240 : channel === 'email' ? 45 : channel === 'sms' ? 90 : 180;
  const topic = random.pick(TOPICS);
  const summary = `Customer asked about ${topic}${topic.endsWith('#') ? random.int(100000, 999999) : ''}; ${OUTCOMES[disposition]}.`;
  return {
    id,
    started_at: formatDateTime(startMs),
    customer_id: customer.id ?? null,
    channel,
    region: customer.region ?? null,
    customer_tier: customer.tier ?? null,
    agent_name: agent.name,
    disposition,
    csat: satisfaction(random, disposition),
    duration_s: Math.max(5, Math.round(random.skewed(medianSeconds, 0.9))),
    tokens_in: 0,
    tokens_out: 0,
    cost_usd: 0,
    summary: TRICKY_SUMMARIES[id] ?? (random.chance(0.75) ? summary : null),
  };
}

/** CSAT 1..5, or NULL when the customer skipped the survey (nearly always after abandoning). */
function satisfaction(random: SeededRandom, disposition: string): number | null {
  if (random.chance(disposition === 'abandoned' ? 0.9 : 0.45)) return null;
  const base = disposition === 'resolved' ? 4.3 : disposition === 'abandoned' ? 1.8 : 3;
  return Math.min(5, Math.max(1, Math.round(base + (random.next() - 0.5) * 2.5)));
}

class RunFactory {
  readonly rows: DemoRow[] = [];

  constructor(
    private readonly random: SeededRandom,
    private readonly versions: ReadonlyMap<string, number>,
  ) {}

  /** The runs of one conversation: the conversation's agent first, then follow-ups and checks. */
  forConversation(conversationId: number, agent: DemoAgent, startMs: number) {
    const totals = { tokensIn: 0, tokensOut: 0, cost: 0 };
    const count = this.random.weighted(RUNS_PER_CONVERSATION);
    let atMs = startMs;
    for (let k = 0; k < count; k++) {
      const runAgent = k === 0 || this.random.chance(0.5) ? agent : agentByName(this.random.pick(['fraud-screener', 'kb-answerer']));
      const run = this.add(runAgent, conversationId, atMs);
      totals.tokensIn += Number(run.tokens_in);
      totals.tokensOut += Number(run.tokens_out);
      totals.cost += Number(run.cost_usd);
      atMs += Math.round(this.random.skewed(20_000, 0.8));
    }
    return totals;
  }

  /** Adds one run and returns it. */
  add(agent: DemoAgent, conversationId: number | null, startMs: number): DemoRow {
    const random = this.random;
    const status = random.weighted(RUN_STATUSES);
    const latencyMs = status === 'CANCELLED' ? null : status === 'CACHED' ? random.int(20, 120) : Math.round(random.skewed(1800, 0.7));
    const tokensIn = Math.round(random.skewed(1500, 0.9));
    const tokensOut = status === 'FAILURE' || status === 'CANCELLED' ? 0 : Math.round(random.skewed(300, 0.8));
    const billed = status !== 'CACHED';
    const current = this.versions.get(agent.name) ?? 1;
    const run: DemoRow = {
      id: this.rows.length + 1,
      job_id: random.uuid(),
      conversation_id: conversationId,
      agent_name: agent.name,
      agent_version: `v${Math.max(1, current - random.int(0, 2))}`,
      model: agent.model,
      status,
      status_code: JobStatus[status],
      started_at: formatDateTime(startMs),
      finished_at: latencyMs === null ? null : formatDateTime(startMs + latencyMs),
      latency_ms: latencyMs,
      tokens_in: tokensIn,
      tokens_out: tokensOut,
      cost_usd: billed ? round((tokensIn * agent.price[0] + tokensOut * agent.price[1]) / 1000, 6) : 0,
      cache_hit: status === 'CACHED' ? 1 : 0,
      grader_score: status === 'SUCCESS' && random.chance(0.4) ? round(0.55 + random.next() * 0.45, 2) : null,
      error_message: status === 'FAILURE' ? random.pick(RUN_ERRORS) : null,
    };
    this.rows.push(run);
    return run;
  }
}

function agentByName(name: string): DemoAgent {
  const agent = DEMO_AGENTS.find((a) => a.name === name);
  if (!agent) throw new Error(`unknown demo agent ${name}`);
  return agent;
}

/** Picks indexes in proportion to their weights (binary search over running totals). */
function weightedPicker(random: SeededRandom, weights: readonly number[]): () => number {
  const cumulative: number[] = [];
  let total = 0;
  for (const w of weights) cumulative.push((total += w));
  return () => {
    const roll = random.next() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] ?? 0) > roll) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}
