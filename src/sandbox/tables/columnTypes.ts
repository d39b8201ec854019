// Column types of an uploaded CSV, inferred from every value the way a ClickHouse import names them:
// the narrowest type all non-empty values fit (Bool, Int64 or UInt64, Float64, Date, DateTime,
// String), wrapped in Nullable(...) when a value is empty.

const INTEGER = /^[-+]?\d+$/;
const FLOAT = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^[-+]?(inf|nan)$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z?$/;
const BOOL = /^(true|false)$/i;
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

/** The base types an upload can get. */
export type BaseType = 'Bool' | 'Int64' | 'UInt64' | 'Float64' | 'Date' | 'DateTime' | 'String';

/** Watches one column's values and names its type. */
export class ColumnGuess {
  private bool = true;
  private int64 = true;
  private uint64 = true;
  private float = true;
  private date = true;
  private dateTime = true;
  private sawValue = false;
  sawEmpty = false;

  see(value: string): void {
    if (value === '') {
      this.sawEmpty = true;
      return;
    }
    this.sawValue = true;
    if (this.bool && !BOOL.test(value)) this.bool = false;
    if (this.int64 || this.uint64) this.seeInteger(value);
    if (this.float && !FLOAT.test(value)) this.float = false;
    if (this.date || this.dateTime) {
      // One look at the date part serves both guesses.
      const isDate = DATE.test(value);
      const valid = (isDate || (this.dateTime && DATE_TIME.test(value))) && validDate(value);
      if (this.date && !(valid && isDate)) this.date = false;
      if (this.dateTime && !valid) this.dateTime = false;
    }
  }

  /** The base type (String for a column with no value at all). */
  base(): BaseType {
    if (!this.sawValue) return 'String';
    if (this.bool) return 'Bool';
    if (this.int64) return 'Int64';
    if (this.uint64) return 'UInt64';
    if (this.float) return 'Float64';
    if (this.date) return 'Date';
    if (this.dateTime) return 'DateTime';
    return 'String';
  }

  /** The ClickHouse type name, `Nullable(...)` when a value was empty. */
  typeName(): string {
    const base = this.base();
    return this.sawEmpty || !this.sawValue ? `Nullable(${base})` : base;
  }

  private seeInteger(value: string): void {
    if (!INTEGER.test(value)) {
      this.int64 = this.uint64 = false;
      return;
    }
    // Short numbers fit for sure; only long ones need the exact check.
    if (value.length < 18) {
      if (value.startsWith('-') && value !== '-0' && !/^-0+$/.test(value)) this.uint64 = false;
      return;
    }
    const n = BigInt(value);
    if (n < INT64_MIN || n > INT64_MAX) this.int64 = false;
    if (n < 0n || n > UINT64_MAX) this.uint64 = false;
  }
}

/** Whether the `YYYY-MM-DD` the value starts with is a day of the calendar (read digit by digit: this runs for every cell). */
function validDate(value: string): boolean {
  const y = digits(value, 0, 4);
  const m = digits(value, 5, 2);
  const d = digits(value, 8, 2);
  if (!(m >= 1 && m <= 12 && d >= 1)) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= (m === 2 ? (leap ? 29 : 28) : DAYS_IN_MONTH[m - 1]!);
}

/** The number written by `count` ASCII digits at `at` (NaN where one is not a digit: no date). */
function digits(value: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const c = value.charCodeAt(i) - 48;
    if (!(c >= 0 && c <= 9)) return Number.NaN;
    n = n * 10 + c;
  }
  return n;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The type inside `Nullable(...)`, and whether it was wrapped. */
export function unwrapNullable(typeName: string): { base: string; nullable: boolean } {
  const match = /^Nullable\((.*)\)$/.exec(typeName);
  return match ? { base: match[1] ?? '', nullable: true } : { base: typeName, nullable: false };
}

/**
 * The SQLite column type a ClickHouse base type is stored as, chosen so the query engine reads it back
 * as the same ClickHouse type. UInt64 is kept as text: SQLite integers stop at 2^63 - 1.
 */
export function sqliteType(base: string): string {
  switch (base) {
    case 'Bool': return 'BOOLEAN';
    case 'Int64': return 'INTEGER';
    case 'Float64': return 'REAL';
    case 'Date': return 'DATE';
    case 'DateTime': return 'DATETIME';
    default: return 'TEXT';
  }
}

/** A CSV value as stored: NULL for empty, 1/0 for Bool, DateTime with a space; text otherwise (SQLite's column affinity makes numbers of numbers). */
export function storedValue(value: string, base: string): string | number | null {
  if (value === '') return null;
  if (base === 'Bool') return /^true$/i.test(value) ? 1 : 0;
  if (base === 'DateTime') return value.length === 10 ? `${value} 00:00:00` : value.slice(0, 19).replace('T', ' ');
  return value;
}
