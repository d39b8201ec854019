/** Turning cell text into values that compare the way people expect for the column's kind. */

// ClickHouse writes infinities and NaN in these spellings.
const SPECIAL_NUMBERS: Readonly<Record<string, number>> = { inf: Infinity, '+inf': Infinity, '-inf': -Infinity, infinity: Infinity, '-infinity': -Infinity };
const NUMERIC = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The numeric value of a cell, or NaN when it is not a number. */
export function numberKey(text: string): number {
  const trimmed = text.trim();
  if (NUMERIC.test(trimmed)) return Number(trimmed);
  return SPECIAL_NUMBERS[trimmed.toLowerCase()] ?? NaN;
}

const PLAIN_DECIMAL = /^([+-]?)0*(\d*)(?:\.(\d*?)0*)?$/;

/**
 * Exact order of two decimal texts whose doubles are equal (Int64/UInt64/Decimal values beyond 2^53
 * collapse to one double): sign, then integer digits, then fraction. 0 when either is not a plain decimal.
 */
export function compareDecimalText(a: string, b: string): number {
  const x = PLAIN_DECIMAL.exec(a.trim());
  const y = PLAIN_DECIMAL.exec(b.trim());
  if (!x || !y) return 0;
  const [, xs = '', xi = '', xf = ''] = x;
  const [, ys = '', yi = '', yf = ''] = y;
  const xNegative = xs === '-' && (xi + xf).length > 0;
  const yNegative = ys === '-' && (yi + yf).length > 0;
  if (xNegative !== yNegative) return xNegative ? -1 : 1;
  const magnitude = xi.length !== yi.length ? xi.length - yi.length : compareText(xi, yi) || compareText(xf, yf);
  return xNegative ? -magnitude : magnitude;
}

// Date, DateTime and DateTime64 as ClickHouse writes them, and ISO 8601 with an optional zone.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * The time of a cell in milliseconds (UTC when no zone is written; the service writes all values of
 * a column in one zone, so their order is right), or NaN when it is not a date.
 */
export function dateKey(text: string): number {
  const m = DATE_TIME.exec(text.trim());
  if (!m) return NaN;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > 31) return NaN;
  const ms = Number(`0.${fraction || '0'}`) * 1000;
  const utc = Date.UTC(Number(y), month - 1, day, Number(h), Number(mi), Number(s)) + ms;
  return utc - zoneOffsetMs(zone);
}

function zoneOffsetMs(zone: string | undefined): number {
  if (!zone || zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0')) * 60_000;
}

/** Code-unit order: the fastest stable order of two texts, used to break ties. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
