import type { BodyFields } from '../http/fields';
import { Msg, jsonTypeName } from '../http/errors';

/** An input definition as stored and returned. */
export interface InputDefinition {
  key: string;
  data_type: string;
  description: string;
  example: string;
  accepts_multiple_files: boolean;
}

/** Keys a run request uses for itself, so an input cannot be named after them. */
const RESERVED_KEYS = new Set(['metadata', 'organization_id']);
const KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
// "media-type-like": type/subtype, as in text/plain or application/pdf (parameters not allowed).
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9*][a-z0-9!#$&^_.+-]*$/i;
const MAX_DEFINITIONS = 200;
const MAX_KEY_LENGTH = 100;

/** True when inputs of this data type are files rather than text. */
export function isFileDataType(dataType: string): boolean {
  return !dataType.toLowerCase().startsWith('text/') && dataType.toLowerCase() !== 'application/json';
}

/**
 * Reads `input_definitions`: a list of {key, data_type, description?, example?,
 * accepts_multiple_files?}. Errors come per item as DRF's list serializer writes them:
 * `{"input_definitions": [{}, {"key": ["This field is required."]}]}`.
 */
export function readInputDefinitions(fields: BodyFields, required: boolean): InputDefinition[] | undefined {
  const list = fields.array('input_definitions', required);
  if (list === undefined) return undefined;
  if (list.length > MAX_DEFINITIONS) {
    fields.fail('input_definitions', Msg.maxItems(MAX_DEFINITIONS));
    return undefined;
  }
  const seen = new Set<string>();
  const errors: Record<string, string[]>[] = [];
  const result: InputDefinition[] = [];
  for (const item of list) {
    const { definition, error } = readDefinition(item, seen);
    errors.push(error);
    if (definition) result.push(definition);
  }
  if (errors.some((e) => Object.keys(e).length > 0)) {
    fields.fail('input_definitions', errors);
    return undefined;
  }
  return result;
}

function readDefinition(item: unknown, seen: Set<string>): { definition?: InputDefinition; error: Record<string, string[]> } {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    return { error: { non_field_errors: [`Invalid data. Expected a dictionary, but got ${jsonTypeName(item)}.`] } };
  }
  const raw = item as Record<string, unknown>;
  const error: Record<string, string[]> = {};
  const key = text(raw, 'key', true, error, MAX_KEY_LENGTH);
  if (key !== undefined) {
    if (!KEY_PATTERN.test(key)) error.key = ['Use letters, digits, "_", "." or "-", starting with a letter or "_".'];
    else if (RESERVED_KEYS.has(key)) error.key = [`"${key}" is reserved for the run request itself.`];
    else if (seen.has(key)) error.key = [`The key "${key}" is used by another input definition.`];
    seen.add(key);
  }
  const dataType = text(raw, 'data_type', true, error, 255);
  if (dataType !== undefined && !MEDIA_TYPE.test(dataType)) error.data_type = ['Enter a media type such as "text/plain" or "application/pdf".'];
  const description = text(raw, 'description', false, error, 2000) ?? '';
  const example = text(raw, 'example', false, error, 10_000) ?? '';
  const multiple = raw.accepts_multiple_files;
  if (multiple !== undefined && typeof multiple !== 'boolean') error.accepts_multiple_files = [Msg.boolean];
  if (Object.keys(error).length > 0 || key === undefined || dataType === undefined) return { error };
  return { definition: { key, data_type: dataType, description, example, accepts_multiple_files: multiple === true }, error };
}

function text(raw: Record<string, unknown>, name: string, required: boolean, error: Record<string, string[]>, max: number): string | undefined {
  const value = raw[name];
  if (value === undefined || (value === null && !required)) {
    if (required) error[name] = [Msg.required];
    return undefined;
  }
  if (typeof value !== 'string') {
    error[name] = [value === null ? Msg.null : Msg.string];
    return undefined;
  }
  const trimmed = value.trim();
  if (required && trimmed === '') error[name] = [Msg.blank];
  else if (trimmed.length > max) error[name] = [Msg.maxLength(max)];
  else return trimmed;
  return undefined;
}

/**
 * Reads `engine_config`: a dictionary of string keys to string values (on creation). A value of
 * another type is named the way DRF's DictField does: `{"engine_config": {"temperature": ["Not a valid string."]}}`.
 */
export function readEngineConfig(fields: BodyFields, required: boolean): Record<string, string> | undefined {
  const config = fields.object('engine_config', required);
  if (config === undefined) return undefined;
  const errors: Record<string, string[]> = {};
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(config)) {
    if (key.trim() === '') errors[key] = ['Keys may not be blank.'];
    else if (key.length > 200) errors[key] = ['Keys may have no more than 200 characters.'];
    else if (typeof value !== 'string') errors[key] = [value === null ? Msg.null : Msg.string];
    else result[key] = value;
  }
  if (Object.keys(errors).length > 0) {
    fields.fail('engine_config', errors);
    return undefined;
  }
  return result;
}
