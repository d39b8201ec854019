/**
 * The trial file (`*.trial.json`): what a trial of a policy edit, or of an agent version draft, made on the service. Every entity is
 * written here before the request that creates it goes out, so a trial interrupted at any point can
 * be cleaned up: an entity with no id yet is found again by its exact name and the trial's marker.
 */
import * as z from 'zod/mini';
import { AgentVersionDraftSchema, type AgentVersionDraft } from '../documents/agentVersionDraft';

export const TRIAL_KIND = 'agent-workbench.trial';
export const TRIAL_FORMAT_VERSION = 1;
export { TRIAL_MARKER_PREFIX, trialMarker, readMarker, trialName } from './trialMarker';

/** One entity the trial creates; `id` is missing while its creation is asked for (or was interrupted). */
export interface TrialEntity {
  kind: 'policy' | 'agent';
  name: string;
  id?: string;
  /** For a trial agent: the real agent it copies, and the version it copies. */
  sourceAgentId?: string;
  sourceVersionId?: string;
  /** For a trial agent: the version that applies the trial policy, once made. */
  trialVersionId?: string;
  /** True once the service deleted it (or answered that it was already gone). */
  removed?: boolean;
}

interface TrialBase {
  kind: typeof TRIAL_KIND;
  version: typeof TRIAL_FORMAT_VERSION;
  /** Random, unique: the marker names it. */
  trialId: string;
  user: string;
  createdAt: string;
  /** The version the trial began from (the conflict check of Publish): of the policy, or of the agent for a draft. */
  baseVersionId: string | null;
  /** What is under trial: the edited policy content, or the agent version draft. */
  content: unknown;
  entities: TrialEntity[];
  /** started → ready (entities made) → published | discarded. */
  state: 'started' | 'ready' | 'published' | 'discarded';
  publishedVersionId?: string;
}

/** A trial of a policy edit: a trial policy with the content, and copies of the agents applying the policy that apply it. */
export interface PolicyTrialRecord extends TrialBase {
  subject?: 'policy';
  /** The real policy. */
  policyId: string;
  policyName: string;
}

/** A trial of an agent version draft: a copy of the agent whose version is the draft (`content`). */
export interface DraftTrialRecord extends TrialBase {
  subject: 'agentVersion';
  /** The real agent. */
  agentId: string;
  agentName: string;
}

export type TrialRecord = PolicyTrialRecord | DraftTrialRecord;

const text = z.string();
const EntitySchema = z.object({
  kind: z.enum(['policy', 'agent']),
  name: text,
  id: z.optional(z.string().check(z.minLength(1))),
  sourceAgentId: z.optional(text),
  sourceVersionId: z.optional(text),
  trialVersionId: z.optional(text),
  removed: z.optional(z.boolean()),
});
const BASE_FIELDS = {
  kind: z.literal(TRIAL_KIND),
  version: z.literal(TRIAL_FORMAT_VERSION),
  trialId: z.string().check(z.minLength(8)),
  user: text,
  createdAt: text,
  baseVersionId: z.nullable(text),
  content: z.unknown(),
  entities: z.array(EntitySchema),
  state: z.enum(['started', 'ready', 'published', 'discarded']),
  publishedVersionId: z.optional(text),
};
const PolicyTrialSchema = z.object({ ...BASE_FIELDS, subject: z.optional(z.literal('policy')), policyId: z.string().check(z.minLength(1)), policyName: text });
const DraftTrialSchema = z.object({ ...BASE_FIELDS, subject: z.literal('agentVersion'), agentId: z.string().check(z.minLength(1)), agentName: text, content: AgentVersionDraftSchema });
/** The trial file's shape: parseTrial checks it, and the editor's JSON schema for `*.trial.json` is generated from it. */
export const TrialSchema = z.union([PolicyTrialSchema, DraftTrialSchema]);

/** Reads a trial file, checked whole; throws with the first problem when it is not one. */
export function parseTrial(textOfFile: string): TrialRecord {
  const value: unknown = JSON.parse(textOfFile);
  // The subject says which shape to check, so the first problem named is one of that shape.
  const draft = typeof value === 'object' && value !== null && (value as { subject?: unknown }).subject === 'agentVersion';
  const parsed = (draft ? DraftTrialSchema : PolicyTrialSchema).safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`This is not a trial file: ${issue?.path.join('.') || 'the file'} ${issue?.message ?? ''}`.trim());
  }
  return parsed.data;
}

/** The file text of a trial record. */
export function serializeTrial(record: TrialRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}

/** A new trial of an edited policy; nothing exists on the service yet. */
export function newTrial(options: { trialId: string; user: string; policyId: string; policyName: string; baseVersionId: string | null; content: unknown; now?: Date }): PolicyTrialRecord {
  return {
    kind: TRIAL_KIND,
    version: TRIAL_FORMAT_VERSION,
    trialId: options.trialId,
    user: options.user,
    createdAt: (options.now ?? new Date()).toISOString(),
    policyId: options.policyId,
    policyName: options.policyName,
    baseVersionId: options.baseVersionId,
    content: options.content,
    entities: [],
    state: 'started',
  };
}

/** The trial policy of a record, if its creation was asked for. */
export function trialPolicy(record: TrialRecord): TrialEntity | undefined {
  return record.entities.find((e) => e.kind === 'policy');
}

/** The trial agents of a record. */
export function trialAgents(record: TrialRecord): TrialEntity[] {
  return record.entities.filter((e) => e.kind === 'agent');
}

/** A new trial of an agent version draft; nothing exists on the service yet. */
export function newDraftTrial(options: { trialId: string; user: string; agentId: string; agentName: string; baseVersionId: string | null; draft: AgentVersionDraft; now?: Date }): DraftTrialRecord {
  return {
    kind: TRIAL_KIND,
    version: TRIAL_FORMAT_VERSION,
    subject: 'agentVersion',
    trialId: options.trialId,
    user: options.user,
    createdAt: (options.now ?? new Date()).toISOString(),
    agentId: options.agentId,
    agentName: options.agentName,
    baseVersionId: options.baseVersionId,
    content: options.draft,
    entities: [],
    state: 'started',
  };
}

/** True for a trial of an agent version draft. */
export function isDraftTrial(record: TrialRecord): record is DraftTrialRecord {
  return record.subject === 'agentVersion';
}

/** What the trial tries, by name: the policy, or the agent whose draft it is. */
export function trialSubjectName(record: TrialRecord): string {
  return isDraftTrial(record) ? record.agentName : record.policyName;
}

/** "the edit of “Policy”" or "the draft of “Agent”": what a message says the trial is of. */
export function trialSubjectText(record: TrialRecord): string {
  return isDraftTrial(record) ? `the draft of “${record.agentName}”` : `the edit of “${record.policyName}”`;
}
