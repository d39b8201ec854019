// Customers and agents of the demo warehouse. A few names carry markup, quotes, commas, a newline
// and non-Latin text on purpose: the results grid and its CSV export must show them intact.

import type { SeededRandom } from '../seed/random';
import { formatDate, formatDateTime, round, type DemoRow } from './demoSchema';

export const CUSTOMER_COUNT = 400;

/** Customer ids whose names test escaping; the conversations of these customers are the same as any other. */
export const TRICKY_CUSTOMER_NAMES: Readonly<Record<number, string>> = {
  7: '<img src=x onerror=alert(1)> Labs',
  13: 'O\'Hara, "Quotes" & Commas; Ltd.\nSecond line: Zürich 東京 🚀',
};

export interface DemoAgent {
  name: string;
  engine: string;
  model: string;
  /** Dollars per 1,000 input and output tokens. */
  price: readonly [number, number];
  channels: readonly string[];
}

export const DEMO_AGENTS: readonly DemoAgent[] = [
  { name: 'support-triage', engine: 'Chat Agent', model: 'gpt-4o-mini', price: [0.00015, 0.0006], channels: ['chat', 'sms'] },
  { name: 'billing-assistant', engine: 'Chat Agent', model: 'gpt-4o', price: [0.0025, 0.01], channels: ['chat', 'email'] },
  { name: 'returns-bot', engine: 'Chat Agent', model: 'claude-3-5-haiku', price: [0.0008, 0.004], channels: ['chat', 'email', 'sms'] },
  { name: 'voice-concierge', engine: 'Voice Agent', model: 'gpt-4o-realtime', price: [0.005, 0.02], channels: ['voice'] },
  { name: 'kb-answerer', engine: 'RAG Agent', model: 'claude-3-5-sonnet', price: [0.003, 0.015], channels: ['chat', 'email'] },
  { name: 'sales-qualifier', engine: 'Chat Agent', model: 'llama-3.1-70b', price: [0.00088, 0.00088], channels: ['chat'] },
  { name: 'fraud-screener', engine: 'Classifier', model: 'gpt-4o-mini', price: [0.00015, 0.0006], channels: [] },
  { name: 'survey-summarizer', engine: 'Batch Summarizer', model: 'claude-3-5-haiku', price: [0.0008, 0.004], channels: [] },
];

const REGIONS: readonly (readonly [string, readonly string[]])[] = [
  ['us-east', ['US', 'CA']],
  ['us-west', ['US', 'MX']],
  ['eu-west', ['GB', 'IE', 'FR', 'NL', 'ES']],
  ['eu-central', ['DE', 'AT', 'CH', 'PL']],
  ['ap-southeast', ['SG', 'AU', 'JP', 'IN']],
  ['sa-east', ['BR', 'AR', 'CL']],
];
const NAME_PARTS = {
  first: ['Blue', 'Northwind', 'Silver', 'Granite', 'Bright', 'Harbor', 'Summit', 'Cedar', 'Nimbus', 'Atlas', 'Copper', 'Evergreen', 'Lumen', 'Orbit', 'Pioneer', 'Quartz', 'Redwood', 'Sable', 'Tidal', 'Vertex'],
  trade: ['Logistics', 'Health', 'Retail', 'Bank', 'Telecom', 'Insurance', 'Energy', 'Travel', 'Foods', 'Software', 'Media', 'Motors', 'Pharma', 'Realty', 'Airlines'],
  form: ['Inc.', 'Ltd', 'GmbH', 'LLC', 'S.A.', 'Group', 'Co.', 'AB', 'K.K.', 'Pty'],
};
const ACCOUNT_MANAGERS = ['Ana Souza', 'Ben Okafor', 'Chloé Martin', 'Dev Patel', 'Emma Larsson', 'Kenji Sato'];
const TIERS: readonly (readonly [string, number])[] = [['free', 50], ['pro', 35], ['enterprise', 15]];
const DAY_MS = 86_400_000;
const SIGNUP_START_MS = Date.UTC(2022, 0, 1);
const SIGNUP_DAYS = 1095;

/** The `customers` rows, ids 1..CUSTOMER_COUNT. */
export function generateCustomers(random: SeededRandom): DemoRow[] {
  const rows: DemoRow[] = [];
  for (let id = 1; id <= CUSTOMER_COUNT; id++) {
    const tier = random.weighted(TIERS);
    const [region, countries] = random.pick(REGIONS);
    const seats = tier === 'free' ? random.int(1, 5) : tier === 'pro' ? random.int(5, 80) : random.int(100, 5000);
    const perSeat = tier === 'free' ? 0 : tier === 'pro' ? 29 : 45 * (0.7 + random.next() * 0.3);
    const name = `${random.pick(NAME_PARTS.first)} ${random.pick(NAME_PARTS.trade)} ${random.pick(NAME_PARTS.form)}`;
    rows.push({
      id,
      name: TRICKY_CUSTOMER_NAMES[id] ?? name,
      tier,
      region,
      country: random.pick(countries),
      signed_up_on: formatDate(SIGNUP_START_MS + random.int(0, SIGNUP_DAYS) * DAY_MS),
      seats,
      mrr_usd: round(seats * perSeat, 2),
      account_manager: tier === 'free' ? null : random.pick(ACCOUNT_MANAGERS),
      churned_at: random.chance(0.06) ? formatDateTime(Date.UTC(2025, 0, 1) + random.int(0, 180 * 86_400) * 1000) : null,
    });
  }
  return rows;
}

/** The `agents` rows, one per entry of DEMO_AGENTS. */
export function generateAgents(random: SeededRandom): DemoRow[] {
  return DEMO_AGENTS.map((agent, index) => ({
    id: random.uuid(),
    name: agent.name,
    engine: agent.engine,
    model: agent.model,
    current_version: `v${random.int(2, 14)}`,
    owner_email: `${agent.name.split('-')[0]}-team@example.com`,
    created_at: formatDateTime(Date.UTC(2024, index, 1) + random.int(0, 27 * 86_400) * 1000),
    is_active: agent.name === 'sales-qualifier' ? 0 : 1,
  }));
}
