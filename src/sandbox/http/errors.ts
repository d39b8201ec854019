/**
 * Errors a handler throws to answer with a status and a body shaped like the live service's
 * (a Django REST framework service): `{"detail": ...}`, per-field messages, `{"error": ...}`, or a bare array.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'object' && body && 'detail' in body ? String(body.detail) : `HTTP ${status}`);
  }
}

/** Per-field validation messages, DRF style: a field maps to a list of messages or to nested errors. */
export type FieldErrorMap = Record<string, unknown>;

/** 400 with per-field messages, e.g. `{"name": ["This field may not be blank."]}`. */
export function validationError(errors: FieldErrorMap): HttpError {
  return new HttpError(400, errors);
}

/** 400 naming one field. */
export function fieldError(field: string, message: string): HttpError {
  return new HttpError(400, { [field]: [message] });
}

/** 404 the way Django answers both "no such thing" and "not visible to you". */
export function notFound(detail = 'Not found.'): HttpError {
  return new HttpError(404, { detail });
}

/** 403 for an organization the caller does not belong to. */
export function forbidden(detail = 'You do not have permission to perform this action.'): HttpError {
  return new HttpError(403, { detail });
}

/** 401; `WWW-Authenticate` tells clients which scheme to use. */
export function unauthorized(detail: string): HttpError {
  return new HttpError(401, { detail }, { 'WWW-Authenticate': 'Bearer realm="api"' });
}

/** 413 for a body or an upload over a limit. */
export function tooLarge(limitBytes: number, what = 'Request body'): HttpError {
  return new HttpError(413, { detail: `${what} is larger than the limit of ${limitBytes} bytes.` });
}

/** DRF's standard messages, so that every handler words the same problem the same way. */
export const Msg = {
  required: 'This field is required.',
  blank: 'This field may not be blank.',
  null: 'This field may not be null.',
  string: 'Not a valid string.',
  nullCharacters: 'Null characters are not allowed.',
  boolean: 'Must be a valid boolean.',
  integer: 'A valid integer is required.',
  uuid: 'Must be a valid UUID.',
  datetime: 'Enter a valid date/time.',
  maxLength: (n: number) => `Ensure this field has no more than ${n} characters.`,
  minLength: (n: number) => `Ensure this field has at least ${n} characters.`,
  minValue: (n: number) => `Ensure this value is greater than or equal to ${n}.`,
  maxValue: (n: number) => `Ensure this value is less than or equal to ${n}.`,
  list: (got: string) => `Expected a list of items but got type "${got}".`,
  dict: (got: string) => `Expected a dictionary of items but got type "${got}".`,
  emptyList: 'This list may not be empty.',
  maxItems: (n: number) => `Ensure this field has no more than ${n} elements.`,
  filterChoice: (value: string) => `Select a valid choice. ${value} is not one of the available choices.`,
} as const;

/** The JSON type name DRF uses in "Expected a ... but got type" messages. */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return 'dict';
}
