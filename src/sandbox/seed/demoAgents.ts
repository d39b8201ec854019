import type { InputDefinition } from '../agents/definitions';
import { DEMO_LOOP_TRANSCRIPT } from './demoLoop';

/** One version of a demo agent; `{policy}` in a config value is replaced by the id of the policy named by `policyKey`. */
export interface DemoVersion {
  versionName?: string;
  description?: string;
  daysAgo: number;
  inputs: InputDefinition[];
  config: Record<string, string>;
}

/** One demo agent and how many jobs it gets. */
export interface DemoAgent {
  name: string;
  description: string;
  engine: string;
  tags: string[];
  creator: number;
  policyKey?: string;
  disableCache?: boolean;
  cacheFailedJobs?: boolean;
  jobs: number;
  kind: 'transcript' | 'document' | 'ticket';
  versions: DemoVersion[];
}

const transcript: InputDefinition = {
  key: 'transcript', data_type: 'text/plain', description: 'The call or chat transcript, one line per turn.',
  example: 'Agent: Thanks for calling Acme Support, this is Sam.\nCustomer: Hi, I was charged twice this month.', accepts_multiple_files: false,
};
/** Support Call QA's transcript: its example is the demo loop's call, so Run Agent… opens on the call the README's loop is about. */
const loopTranscript: InputDefinition = { ...transcript, example: DEMO_LOOP_TRANSCRIPT };
const language: InputDefinition = {
  key: 'language', data_type: 'text/plain', description: 'ISO 639-1 code of the conversation language.', example: 'en', accepts_multiple_files: false,
};
const pdf = (multiple: boolean): InputDefinition => ({
  key: 'document', data_type: 'application/pdf', description: multiple ? 'All pages or documents of one customer submission.' : 'The scanned document.',
  example: 'INV-10234.pdf', accepts_multiple_files: multiple,
});
const ticket: InputDefinition = {
  key: 'ticket_text', data_type: 'text/plain', description: 'Body of the support ticket.', example: 'Order #4821 arrived damaged, box crushed.', accepts_multiple_files: false,
};
const schema: InputDefinition = {
  key: 'schema', data_type: 'application/json', description: 'JSON Schema of the fields to extract.', example: '{"type":"object","properties":{"order_id":{"type":"string"}}}', accepts_multiple_files: false,
};

const reviewerPrompt = (focus: string) =>
  `You are a quality reviewer for Acme Support. Read the transcript and judge it against the policy. Focus on ${focus}. Quote evidence for every finding and answer with one disposition.`;

/** The demo organization's agents. */
export const DEMO_AGENTS: DemoAgent[] = [
  {
    name: 'Support Call QA', description: 'Scores every recorded support call against the call quality standard.', engine: 'llm_conversation_reviewer',
    tags: ['production', 'compliance'], creator: 2, policyKey: 'call-quality', jobs: 190, kind: 'transcript',
    versions: [
      { daysAgo: 75, inputs: [loopTranscript], config: { model: 'gpt-4o-mini', temperature: '0.2', system_prompt: reviewerPrompt('identity verification'), policy_id: '{policy}' } },
      { versionName: 'add language input', daysAgo: 52, inputs: [loopTranscript, language], config: { model: 'gpt-4o-mini', temperature: '0.2', system_prompt: reviewerPrompt('identity verification and resolution'), policy_id: '{policy}' } },
      { versionName: 'v3 – stricter evidence', description: 'Requires a quote for every flag.', daysAgo: 24, inputs: [loopTranscript, language], config: { model: 'gpt-4o', temperature: '0.1', system_prompt: reviewerPrompt('verification, resolution and tone'), policy_id: '{policy}', max_output_tokens: '1200' } },
      { versionName: 'v4 – recording disclosure', description: 'Follows the Q2 policy update.', daysAgo: 6, inputs: [loopTranscript, language], config: { model: 'gpt-4o', temperature: '0.1', system_prompt: reviewerPrompt('verification, resolution, tone and disclosures'), policy_id: '{policy}', max_output_tokens: '1200' } },
    ],
  },
  {
    name: 'Refund Request Reviewer', description: 'Checks refund conversations against the refund limits.', engine: 'llm_conversation_reviewer',
    tags: ['production', 'billing'], creator: 3, policyKey: 'refunds', cacheFailedJobs: true, jobs: 120, kind: 'transcript',
    versions: [
      { daysAgo: 64, inputs: [transcript], config: { model: 'gpt-4o-mini', temperature: '0', system_prompt: reviewerPrompt('refund eligibility and limits'), policy_id: '{policy}' } },
      { versionName: 'limit $150', daysAgo: 33, inputs: [transcript, language], config: { model: 'gpt-4o-mini', temperature: '0', system_prompt: reviewerPrompt('refund eligibility and the $150 limit'), policy_id: '{policy}' } },
      { versionName: 'supervisor approvals', daysAgo: 9, inputs: [transcript, language], config: { model: 'gpt-4o', temperature: '0', system_prompt: reviewerPrompt('refund limits and supervisor approvals'), policy_id: '{policy}' } },
    ],
  },
  {
    name: 'Chat Escalation Detector', description: 'Flags chats that should have been escalated to a supervisor.', engine: 'llm_conversation_reviewer',
    tags: ['pilot'], creator: 1, disableCache: true, jobs: 70, kind: 'transcript',
    versions: [
      { daysAgo: 40, inputs: [transcript], config: { model: 'gpt-4o-mini', temperature: '0.4', system_prompt: 'Decide whether the customer asked for, or needed, a supervisor.' } },
      { versionName: 'fewer false positives', daysAgo: 12, inputs: [transcript, language], config: { model: 'gpt-4o-mini', temperature: '0.2', system_prompt: 'Decide whether the customer asked for, or clearly needed, a supervisor. Ignore polite closing phrases.' } },
    ],
  },
  {
    name: 'Invoice Classifier', description: 'Sorts the accounts payable inbox into invoices, receipts and orders.', engine: 'document_classifier',
    tags: ['production', 'billing'], creator: 4, policyKey: 'documents', jobs: 110, kind: 'document',
    versions: [
      { daysAgo: 80, inputs: [pdf(false)], config: { model: 'layout-classifier-2', confidence_threshold: '0.80', policy_id: '{policy}' } },
      { versionName: 'multi-page', daysAgo: 45, inputs: [pdf(false), language], config: { model: 'layout-classifier-2', confidence_threshold: '0.80', pages: 'all', policy_id: '{policy}' } },
      { versionName: 'threshold 0.85', daysAgo: 15, inputs: [pdf(false), language], config: { model: 'layout-classifier-3', confidence_threshold: '0.85', pages: 'all', policy_id: '{policy}' } },
    ],
  },
  {
    name: 'KYC Document Sorter', description: 'Recognises identity documents in customer submissions.', engine: 'document_classifier',
    tags: ['compliance', 'pilot'], creator: 4, policyKey: 'documents', jobs: 60, kind: 'document',
    versions: [
      { daysAgo: 30, inputs: [pdf(true)], config: { model: 'layout-classifier-3', confidence_threshold: '0.90', redact: 'document_number', policy_id: '{policy}' } },
      { versionName: 'language hint', daysAgo: 4, inputs: [pdf(true), language], config: { model: 'layout-classifier-3', confidence_threshold: '0.90', redact: 'document_number', policy_id: '{policy}' } },
    ],
  },
  {
    name: 'Contract Type Classifier', description: 'Old contract sorter, replaced by the legal team’s own tool.', engine: 'document_classifier',
    tags: ['deprecated'], creator: 3, jobs: 25, kind: 'document',
    versions: [{ daysAgo: 120, inputs: [pdf(false)], config: { model: 'layout-classifier-1', confidence_threshold: '0.75' } }],
  },
  {
    name: 'Ticket Field Extractor', description: 'Pulls order ids, products and damage descriptions out of tickets.', engine: 'structured_extractor',
    tags: ['pilot'], creator: 2, jobs: 60, kind: 'ticket',
    versions: [
      { daysAgo: 35, inputs: [ticket], config: { model: 'gpt-4o-mini', temperature: '0', output_format: 'json' } },
      { versionName: 'custom schema', daysAgo: 11, inputs: [ticket, schema], config: { model: 'gpt-4o-mini', temperature: '0', output_format: 'json', strict: 'true' } },
    ],
  },
];

/** The second organization's one agent. */
export const OTHER_AGENT: DemoAgent = {
  name: 'Dispatch Call Reviewer', description: 'Reviews driver dispatch calls.', engine: 'llm_conversation_reviewer', tags: ['production'],
  creator: 5, policyKey: 'dispatch', jobs: 12, kind: 'transcript',
  versions: [{ daysAgo: 20, inputs: [transcript], config: { model: 'gpt-4o-mini', temperature: '0.2', system_prompt: 'Review the dispatch call for safety.', policy_id: '{policy}' } }],
};

/** Tags of the demo organization with their colours (names of the live service's ColorEnum, not hex). */
export const DEMO_TAGS: readonly (readonly [string, string])[] = [
  ['production', 'green'],
  ['pilot', 'yellow'],
  ['billing', 'blue'],
  ['compliance', 'purple'],
  ['deprecated', 'gray'],
];
