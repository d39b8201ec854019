import * as z from 'zod/mini';
import type { AgentVersion } from '../client';
import { sameJson } from './sameJson';

/**
 * The document *Create Version…* opens: the fields of a new agent version (interface 4.3). The JSON
 * schema the editor uses is generated from this definition (see jsonSchemaFiles.ts), so the two agree.
 */
export const InputDefinitionDraftSchema = z.strictObject({
  key: z.string().check(z.minLength(1), z.describe('Name of the input, as the job request sends it.')),
  data_type: z.string().check(z.minLength(1), z.describe('Media-type-like type of the input, e.g. text/plain or application/pdf.')),
  description: z.optional(z.string().check(z.describe('What the input holds, shown to people who start jobs.'))),
  example: z.optional(z.string().check(z.describe('An example value.'))),
  accepts_multiple_files: z.optional(z.boolean().check(z.describe('Whether a file input takes several files.'))),
});

/** The fields of a version, shared by the new-version draft and the new-agent draft (its first version). */
export const VERSION_DRAFT_FIELDS = {
  version_name: z.optional(z.string().check(z.minLength(1), z.describe('Name of the new version; the service names it "unnamed version" when left out.'))),
  description: z.optional(z.nullable(z.string().check(z.describe('What changed in this version.')))),
  input_definitions: z.array(InputDefinitionDraftSchema).check(z.describe('The inputs a job of this version takes.')),
  engine_config: z.record(z.string(), z.string()).check(z.describe('Engine settings: text keys to text values (allowed keys depend on the engine).')),
};

export const AgentVersionDraftSchema = z
  .strictObject(VERSION_DRAFT_FIELDS)
  .check(z.describe('A new version of an agent. Saving this document creates the version; the agent then uses it as its current version.'));

export type AgentVersionDraft = z.infer<typeof AgentVersionDraftSchema>;

/** A draft prefilled from the version it starts from; engine config values become text, as creation requires. */
export function draftFromVersion(version: AgentVersion): AgentVersionDraft {
  const config = version.engine_config && typeof version.engine_config === 'object' && !Array.isArray(version.engine_config) ? (version.engine_config as Record<string, unknown>) : {};
  return {
    version_name: nextVersionName(version.version_name),
    description: version.description ?? '',
    input_definitions: version.input_definitions.map((d) => ({
      key: d.key,
      data_type: d.data_type ?? 'text/plain',
      ...(d.description ? { description: d.description } : {}),
      ...(d.example ? { example: d.example } : {}),
      ...(typeof d.accepts_multiple_files === 'boolean' ? { accepts_multiple_files: d.accepts_multiple_files } : {}),
    })),
    engine_config: Object.fromEntries(Object.entries(config).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])),
  };
}

/** "v3" → "v4", "release 1.9" → "release 1.10", anything else gets " (next)". */
export function nextVersionName(name: string): string {
  const m = /^(.*?)(\d+)(\D*)$/.exec(name);
  if (m) return `${m[1]}${Number(m[2]) + 1}${m[3]}`;
  return `${name} (next)`.slice(0, 255);
}

/** True when two drafts run alike: the same engine settings and inputs (a new name or description alone changes no answer). */
export function sameRun(a: Pick<AgentVersionDraft, 'engine_config' | 'input_definitions'>, b: Pick<AgentVersionDraft, 'engine_config' | 'input_definitions'>): boolean {
  return sameJson({ e: a.engine_config, i: a.input_definitions }, { e: b.engine_config, i: b.input_definitions });
}
