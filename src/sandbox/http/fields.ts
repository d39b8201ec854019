import type { JsonObject } from './body';
import { type FieldErrorMap, Msg, jsonTypeName, validationError } from './errors';

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID in its usual 8-4-4-4-12 hexadecimal form. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}

interface StringRules {
  required?: boolean;
  nullable?: boolean;
  allowBlank?: boolean;
  min?: number;
  max?: number;
}

/**
 * Reads the fields of a JSON body, collecting every problem (as DRF does) instead of stopping at
 * the first; `finish()` then answers 400 with all of them.
 */
export class BodyFields {
  readonly errors: FieldErrorMap = {};

  constructor(readonly body: JsonObject) {}

  /** True when the body carries the key (even with null). */
  has(key: string): boolean {
    return Object.hasOwn(this.body, key);
  }

  /** Records a problem with a field (a message, or nested errors for lists and objects). */
  fail(key: string, error: string | unknown[] | Record<string, unknown>): void {
    this.errors[key] = typeof error === 'string' ? [error] : error;
  }

  /** A text field; trimmed like DRF's CharField; undefined when absent, null only when allowed. */
  string(key: string, rules: StringRules = {}): string | null | undefined {
    if (!this.has(key)) {
      if (rules.required) this.fail(key, Msg.required);
      return undefined;
    }
    const value = this.body[key];
    if (value === null) {
      if (!rules.nullable) this.fail(key, Msg.null);
      return null;
    }
    if (typeof value !== 'string') {
      this.fail(key, Msg.string);
      return undefined;
    }
    const text = value.trim();
    // DRF's CharField refuses NUL (Postgres text cannot store it).
    if (text.includes('\0')) this.fail(key, Msg.nullCharacters);
    else if (text === '' && !rules.allowBlank) this.fail(key, Msg.blank);
    else if (rules.max !== undefined && text.length > rules.max) this.fail(key, Msg.maxLength(rules.max));
    else if (rules.min !== undefined && text.length < rules.min && text !== '') this.fail(key, Msg.minLength(rules.min));
    else return text;
    return undefined;
  }

  /** A boolean field (JSON true/false only). */
  boolean(key: string, required = false): boolean | undefined {
    if (!this.has(key)) {
      if (required) this.fail(key, Msg.required);
      return undefined;
    }
    const value = this.body[key];
    if (typeof value === 'boolean') return value;
    this.fail(key, value === null ? Msg.null : Msg.boolean);
    return undefined;
  }

  /** A UUID field; null only when allowed. */
  uuid(key: string, rules: { required?: boolean; nullable?: boolean } = {}): string | null | undefined {
    if (!this.has(key)) {
      if (rules.required) this.fail(key, Msg.required);
      return undefined;
    }
    const value = this.body[key];
    if (value === null && rules.nullable) return null;
    if (isUuid(value)) return value.toLowerCase();
    this.fail(key, value === null ? Msg.null : Msg.uuid);
    return undefined;
  }

  /** A field that must be a JSON object (a dictionary). */
  object(key: string, required = false): JsonObject | undefined {
    if (!this.has(key)) {
      if (required) this.fail(key, Msg.required);
      return undefined;
    }
    const value = this.body[key];
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as JsonObject;
    this.fail(key, value === null ? Msg.null : Msg.dict(jsonTypeName(value)));
    return undefined;
  }

  /** A field that must be a JSON array. */
  array(key: string, required = false): unknown[] | undefined {
    if (!this.has(key)) {
      if (required) this.fail(key, Msg.required);
      return undefined;
    }
    const value = this.body[key];
    if (Array.isArray(value)) return value as unknown[];
    this.fail(key, value === null ? Msg.null : Msg.list(jsonTypeName(value)));
    return undefined;
  }

  /** Throws 400 with every collected problem, if any. */
  finish(): void {
    if (Object.keys(this.errors).length > 0) throw validationError(this.errors);
  }
}
