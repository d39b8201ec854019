/**
 * The JSON schema of run files: the structure from `RunFileSchema`, and for every agent version a run
 * file names, what its inputs must be (keys, required, descriptions, examples, types). The editor
 * gets completion, hover and squiggles from it; what a schema cannot say (a missing file, an unknown
 * agent) is checked by runCheck.ts.
 */
import * as z from 'zod/mini';
import type { InputDefinition } from '../client';
import { RunFileSchema } from './runFile';

/** How an input travels: text as is, JSON as JSON text, anything else is a file. */
export type InputKind = 'text' | 'json' | 'file';

/** The kind of an input by its data type (`text/*` is text, `application/json` is JSON, other types are files). */
export function inputKind(definition: Pick<InputDefinition, 'data_type'>): InputKind {
  const type = (definition.data_type ?? 'text/plain').toLowerCase();
  if (type.startsWith('text/')) return 'text';
  return type === 'application/json' ? 'json' : 'file';
}

/** What the schema knows about one agent version that run files name. */
export interface RunTarget {
  agentId: string;
  agentName: string;
  /** Undefined: the agent's current version (run files without `version`). */
  versionId?: string;
  versionName: string;
  definitions: readonly InputDefinition[];
}

type JsonSchema = Record<string, unknown>;

/** The schema of one input value. */
export function inputValueSchema(definition: InputDefinition): JsonSchema {
  const kind = inputKind(definition);
  const type = definition.data_type ?? 'text/plain';
  const about = definition.description?.trim() ? `${definition.description.trim()}\n\n` : '';
  const example = definition.example ?? undefined;
  if (kind === 'text') {
    return { type: 'string', minLength: 1, markdownDescription: `${about}Text (\`${type}\`).`, ...(example ? { examples: [example], defaultSnippets: [{ body: example }] } : {}) };
  }
  if (kind === 'json') {
    const parsed = parseExample(example);
    return { markdownDescription: `${about}JSON (\`${type}\`): an object or array here, or JSON text.`, ...(parsed !== undefined ? { examples: [parsed] } : {}) };
  }
  return {
    type: 'string',
    minLength: 1,
    markdownDescription: `${about}A file (\`${type}\`): its path relative to the workspace folder. Sent as a file upload.`,
    ...(example ? { examples: [example] } : {}),
  };
}

/** The schema of one input set: every defined key required, no other key. */
export function inputSetSchema(definitions: readonly InputDefinition[]): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(definitions.map((d) => [d.key, inputValueSchema(d)])),
    required: definitions.map((d) => d.key),
    additionalProperties: false,
    defaultSnippets: [{ label: 'All inputs', body: exampleInputs(definitions) }],
  };
}

/** An input set filled from the definitions' examples (files as the example path, JSON parsed). */
export function exampleInputs(definitions: readonly InputDefinition[]): Record<string, unknown> {
  return Object.fromEntries(
    definitions.map((d) => {
      const kind = inputKind(d);
      if (kind === 'json') return [d.key, parseExample(d.example ?? undefined) ?? {}];
      return [d.key, d.example ?? ''];
    }),
  );
}

/** The whole run-file schema: the structure, and one `if agent (and version) … then inputs …` per known target. */
export function runFileJsonSchema(targets: readonly RunTarget[]): JsonSchema {
  const base = z.toJSONSchema(RunFileSchema, { target: 'draft-7', io: 'input' }) as JsonSchema;
  const conditions = targets.map((t) => {
    const set = inputSetSchema(t.definitions);
    const matches: JsonSchema = t.versionId
      ? { properties: { agent: { const: t.agentId }, version: { const: t.versionId } }, required: ['agent', 'version'] }
      : { properties: { agent: { const: t.agentId } }, required: ['agent'], not: { required: ['version'] } };
    const label = `${t.agentName} · ${t.versionName}${t.versionId ? '' : ' (current version)'}`;
    return {
      if: matches,
      then: {
        properties: {
          agent: { markdownDescription: `Runs **${escapeMarkdown(t.agentName)}**.` },
          ...(t.versionId ? { version: { markdownDescription: `Version **${escapeMarkdown(t.versionName)}**.` } } : {}),
          inputs: { description: `Inputs of ${label}.`, anyOf: [set, { type: 'array', minItems: 1, items: set }] },
        },
      },
    };
  });
  return conditions.length ? { ...base, allOf: conditions } : base;
}

function parseExample(example: string | undefined): unknown {
  if (!example) return undefined;
  try {
    return JSON.parse(example) as unknown;
  } catch {
    return undefined;
  }
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!<>|]/g, '\\$&');
}
