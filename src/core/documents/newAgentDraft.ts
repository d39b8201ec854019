import * as z from 'zod/mini';
import type { CreateAgentBody, EngineType } from '../client';
import { MAX_AGENT_NAME_LENGTH } from '../limits';
import { VERSION_DRAFT_FIELDS } from './agentVersionDraft';

/**
 * The document *New Agent…* opens: the agent's name and engine, and its first version (input
 * definitions and engine config), with the same version fields and JSON schema as *Create Version…*.
 */
export const NewAgentDraftSchema = z
  .strictObject({
    name: z.string().check(z.minLength(1), z.maxLength(MAX_AGENT_NAME_LENGTH), z.describe('Name of the agent (1–200 characters).')),
    engine_class_id: z.string().check(z.minLength(1), z.maxLength(200), z.describe('The engine that runs the agent (from the service’s engine list).')),
    ...VERSION_DRAFT_FIELDS,
  })
  .check(z.describe('A new agent with its first version. Saving this document creates the agent.'));

export type NewAgentDraft = z.infer<typeof NewAgentDraftSchema>;

type InputDefinition = NewAgentDraft['input_definitions'][number];

/** Used when an engine says nothing about its inputs: one text input to start from. */
const STARTER_INPUT: InputDefinition = { key: 'text', data_type: 'text/plain', description: 'The text the agent works on.' };

/** A draft for an agent of this engine and model: the engine's default config and its inputs, when it names them. */
export function newAgentDraft(name: string, engine: EngineType & { engine_class_id: string }, model?: string): NewAgentDraft {
  const defaults = isRecord(engine.default_engine_config) ? engine.default_engine_config : {};
  const config: Record<string, string> = Object.fromEntries(Object.entries(defaults).flatMap(([k, v]) => (v === null || v === undefined ? [] : [[k, configText(v)]])));
  if (model) config.model = model;
  const listed = inputDefinitionsOf((engine as { input_definitions?: unknown }).input_definitions);
  const inputs = listed.length ? listed : inputDefinitionsOf(engine.input_schema);
  return { name, engine_class_id: engine.engine_class_id, version_name: 'version 1', description: '', input_definitions: inputs.length ? inputs : [STARTER_INPUT], engine_config: config };
}

/** The create request of a checked draft. */
export function createAgentBody(draft: NewAgentDraft): CreateAgentBody {
  const { name, engine_class_id, version_name, description, input_definitions, engine_config } = draft;
  const body: CreateAgentBody = { name: name.trim(), engine_class_id, input_definitions, engine_config };
  // The live service takes no empty strings here (minLength 1): a blank field is left out, not sent empty.
  if (version_name?.trim()) body.version_name = version_name;
  if (description?.trim()) body.description = description;
  return body;
}

/** An engine's inputs as input definitions: from a list of definitions, or a JSON schema's properties. */
export function inputDefinitionsOf(schema: unknown): InputDefinition[] {
  if (Array.isArray(schema)) return schema.flatMap((item) => (isRecord(item) && typeof item.key === 'string' && item.key ? [definition(item.key, item)] : []));
  if (isRecord(schema) && isRecord(schema.properties)) {
    return Object.entries(schema.properties).map(([key, prop]) => definition(key, isRecord(prop) ? prop : {}));
  }
  return [];
}

function definition(key: string, source: Record<string, unknown>): InputDefinition {
  const declared = [source.data_type, source['x-data-type']].find((t): t is string => typeof t === 'string' && t !== '');
  const type = declared ?? (source.format === 'binary' ? 'application/octet-stream' : 'text/plain');
  const def: InputDefinition = { key, data_type: type };
  if (typeof source.description === 'string' && source.description) def.description = source.description;
  if (typeof source.example === 'string' && source.example) def.example = source.example;
  return def;
}

/**
 * A default as the engine config takes it (text values only): a number or a switch as its text, a list
 * or an object as its JSON text (the only form a text value can hold it in). A default of null has no
 * value: its key is left out rather than written as the text "null".
 */
function configText(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
