import { type FieldErrorMap, Msg, validationError } from './errors';
import { isUuid } from './fields';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?$/i;
const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

/**
 * Parses an ISO 8601 date or date-time into epoch milliseconds; naive times are UTC. A date alone
 * means the start of that day, or its end when `endOfDay` (so `created_to=2024-05-01` keeps that day).
 */
export function parseDateParam(text: string, endOfDay = false): number | undefined {
  if (DATE_ONLY.test(text)) {
    const ms = Date.parse(`${text}T00:00:00Z`);
    if (!Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 10) !== text) return undefined;
    return endOfDay ? ms + 86_400_000 - 1 : ms;
  }
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const day = Date.parse(`${m[1]}T00:00:00Z`);
  if (!Number.isFinite(day) || new Date(day).toISOString().slice(0, 10) !== m[1]) return undefined;
  const time = m[2]!.replace(/(\.\d{3})\d+$/, '$1');
  const zone = (m[3] ?? 'Z').toUpperCase().replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  const ms = Date.parse(`${m[1]}T${time}${zone}`);
  return Number.isFinite(ms) ? ms : undefined;
}

/** One term of an `ordering` parameter: a field name and a direction. */
export interface OrderTerm {
  field: string;
  descending: boolean;
}

/**
 * Reads query-string parameters, collecting every problem so that one 400 names all bad fields
 * (`{"page_size": ["A valid integer is required."]}`), the way DRF's filters answer.
 */
export class QueryFields {
  readonly errors: FieldErrorMap = {};

  constructor(readonly params: URLSearchParams) {}

  private fail(name: string, message: string): void {
    const list = (this.errors[name] as string[] | undefined) ?? [];
    list.push(message);
    this.errors[name] = list;
  }

  /** The last value of a parameter, or undefined when absent or empty. */
  string(name: string, maxLength = 1000): string | undefined {
    const all = this.params.getAll(name);
    const value = all[all.length - 1];
    if (value === undefined || value === '') return undefined;
    // Postgres text cannot hold a NUL: the live service's form fields refuse it rather than match everything.
    if (value.includes('\0')) {
      this.fail(name, Msg.nullCharacters);
      return undefined;
    }
    if (value.length > maxLength) this.fail(name, Msg.maxLength(maxLength));
    return value.length > maxLength ? undefined : value;
  }

  /** Every value of a repeatable parameter, also split on commas; empty items are dropped. */
  list(name: string): string[] {
    return this.params
      .getAll(name)
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '');
  }

  /** An integer within bounds; above `clampAt` it is silently lowered (as DRF does with page_size). */
  int(name: string, bounds: { min?: number; max?: number; clampAt?: number } = {}): number | undefined {
    const text = this.string(name);
    if (text === undefined) return undefined;
    if (!/^[+-]?\d{1,15}$/.test(text.trim())) {
      this.fail(name, Msg.integer);
      return undefined;
    }
    const value = Number(text.trim());
    if (bounds.min !== undefined && value < bounds.min) this.fail(name, Msg.minValue(bounds.min));
    else if (bounds.max !== undefined && value > bounds.max) this.fail(name, Msg.maxValue(bounds.max));
    else return bounds.clampAt !== undefined ? Math.min(value, bounds.clampAt) : value;
    return undefined;
  }

  /** A boolean written as true/false, 1/0, yes/no or on/off (any case). */
  bool(name: string): boolean | undefined {
    const text = this.string(name)?.toLowerCase();
    if (text === undefined) return undefined;
    if (TRUE_WORDS.has(text)) return true;
    if (FALSE_WORDS.has(text)) return false;
    this.fail(name, Msg.boolean);
    return undefined;
  }

  /** An ISO 8601 date or date-time, as epoch milliseconds. */
  date(name: string, endOfDay = false): number | undefined {
    const text = this.string(name);
    if (text === undefined) return undefined;
    const ms = parseDateParam(text.trim(), endOfDay);
    if (ms === undefined) this.fail(name, Msg.datetime);
    return ms;
  }

  /** A UUID, lower-cased. */
  uuid(name: string): string | undefined {
    const text = this.string(name);
    if (text === undefined) return undefined;
    if (isUuid(text)) return text.toLowerCase();
    this.fail(name, Msg.uuid);
    return undefined;
  }

  /** A repeatable list of UUIDs, lower-cased. */
  uuids(name: string): string[] {
    const values = this.list(name);
    const bad = values.find((v): boolean => !isUuid(v));
    if (bad !== undefined) this.fail(name, `"${bad}" is not a valid UUID.`);
    return bad === undefined ? values.map((v) => v.toLowerCase()) : [];
  }

  /** The `ordering` parameter: comma-separated (or repeated) field names, each optionally with `-`. */
  ordering(allowed: readonly string[], name = 'ordering'): OrderTerm[] {
    const terms: OrderTerm[] = [];
    for (const raw of this.list(name)) {
      const descending = raw.startsWith('-');
      const field = descending ? raw.slice(1) : raw;
      if (!allowed.includes(field)) this.fail(name, Msg.filterChoice(raw));
      else if (!terms.some((t) => t.field === field)) terms.push({ field, descending });
    }
    return terms;
  }

  /** Records an error found by the caller's own check of a parameter. */
  reject(name: string, message: string): void {
    this.fail(name, message);
  }

  /** Throws 400 with every collected problem, if any. */
  finish(): void {
    if (Object.keys(this.errors).length > 0) throw validationError(this.errors);
  }
}
