/**
 * Shape checks for the messages between webview pages and the extension. Each side checks every
 * message on arrival: a page is another process, so its messages are input, not trusted calls.
 * No dependencies: page bundles use this file as is.
 */

/** A check of one field's value. */
export type Check = (v: unknown) => boolean;
/** The checks of one message's fields, by name. */
export type Checks = Record<string, Check>;

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isIndex: Check = (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff;
export const isString: Check = (v) => typeof v === 'string';
export const isBoolean: Check = (v) => typeof v === 'boolean';
export const isNullableString: Check = (v) => v === null || typeof v === 'string';
export const isFiniteNumber: Check = (v) => typeof v === 'number' && Number.isFinite(v);
export const isNullableNumber: Check = (v) => v === null || isFiniteNumber(v);
export const arrayOf = (check: Check): Check => (v) => Array.isArray(v) && v.every(check);

/** True when `value` is an object with exactly the keys of `checks`, and each passes. */
export function shaped(value: unknown, checks: Checks): boolean {
  if (!isRecord(value)) return false;
  const keys = Object.keys(value);
  return keys.length === Object.keys(checks).length && keys.every((k) => Object.hasOwn(checks, k) && (checks[k] as Check)(value[k]));
}

/** True when `value` is one of the messages of `table` (by its `type`), with exactly its fields. */
export function isMessage<T extends { type: string }>(table: Partial<Record<string, Checks>>, value: unknown): value is T {
  if (!isRecord(value) || typeof value.type !== 'string' || !Object.hasOwn(table, value.type)) return false;
  const checks = table[value.type];
  return checks !== undefined && shaped(value, { ...checks, type: isString });
}
