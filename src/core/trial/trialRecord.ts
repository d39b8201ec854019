/**
 * The trial file (`*.trial.json`): what a trial of a policy edit made on the service. Every entity is
 * written here before the request that creates it goes out, so a trial interrupted at any point can
 * be cleaned up: an entity with no id yet is found again by its exact name and the trial's marker.
 */
import * as z from 'zod/mini';

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

export interface TrialRecord {
  kind: typeof TRIAL_KIND;
  version: typeof TRIAL_FORMAT_VERSION;
  /** Random, unique: the marker names it. */
  trialId: string;
  user: string;
  createdAt: string;
  /** The real policy and the version the trial began from (the conflict check of Publish). */
  policyId: string;
  policyName: string;
  baseVersionId: string | null;
  /** The edited content under trial. */
  content: unknown;
  entities: TrialEntity[];
  /** started → ready (entities made) → published | discarded. */
  state: 'started' | 'ready' | 'published' | 'discarded';
  publishedVersionId?: string;
}

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
/** The trial file's shape: parseTrial checks it, and the editor's JSON schema for `*.trial.json` is generated from it. */
export const TrialSchema = z.object({
  kind: z.literal(TRIAL_KIND),
  version: z.literal(TRIAL_FORMAT_VERSION),
  trialId: z.string().check(z.minLength(8)),
  user: text,
  createdAt: text,
  policyId: z.string().check(z.minLength(1)),
  policyName: text,
  baseVersionId: z.nullable(text),
  content: z.unknown(),
  entities: z.array(EntitySchema),
  state: z.enum(['started', 'ready', 'published', 'discarded']),
  publishedVersionId: z.optional(text),
});

/** Reads a trial file, checked whole; throws with the first problem when it is not one. */
export function parseTrial(textOfFile: string): TrialRecord {
  const parsed = TrialSchema.safeParse(JSON.parse(textOfFile));
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
export function newTrial(options: { trialId: string; user: string; policyId: string; policyName: string; baseVersionId: string | null; content: unknown; now?: Date }): TrialRecord {
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
