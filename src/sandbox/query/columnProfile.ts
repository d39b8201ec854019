// Turns SQLite values into the text a ClickHouse-backed service sends, and works out a ClickHouse
// type name per column from the declared type (when known) and the values actually seen.

import type { CatalogColumn } from './catalog';

/** A value as sql.js hands it over with `useBigInt`: INTEGER as bigint, REAL as number. */
export type SqliteValue = bigint | number | string | Uint8Array | null;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** Watches the values of one result column while rendering them to text. */
export class ColumnProfile {
  private sawNull = false;
  private sawInteger = false;
  private sawReal = false;
  private sawText = false;
  private sawBlob = false;
  private allDates = true;
  private allDateTimes = true;
  private allZeroOrOne = true;
  /** UTF-8 bytes of the rendered values. */
  bytes = 0;

  /** The text of one value (`null` for SQL NULL); also records what kind of value it was. */
  render(value: SqliteValue): string | null {
    if (value === null) {
      this.sawNull = true;
      return null;
    }
    let text: string;
    if (typeof value === 'bigint') {
      this.sawInteger = true;
      if (value !== 0n && value !== 1n) this.allZeroOrOne = false;
      text = value.toString();
    } else if (typeof value === 'number') {
      this.sawReal = true;
      text = formatFloat(value);
    } else if (typeof value === 'string') {
      this.sawText = true;
      if (this.allDates && !DATE.test(value)) this.allDates = false;
      if (this.allDateTimes && !DATE_TIME.test(value)) this.allDateTimes = false;
      this.bytes += Buffer.byteLength(value) - value.length;
      text = value;
    } else {
      this.sawBlob = true;
      text = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex').toUpperCase();
    }
    this.bytes += text.length;
    return text;
  }

  /** The ClickHouse type name: the declared type when the values fit it, else one read from the values. */
  typeName(declared: CatalogColumn | undefined): string {
    const fromDeclared = declared ? this.fitDeclared(clickHouseType(declared.declaredType)) : undefined;
    if (fromDeclared) return declared?.nullable || this.sawNull ? `Nullable(${fromDeclared})` : fromDeclared;
    const fromValues = this.fromValues();
    if (fromValues === undefined) return this.sawNull ? 'Nullable(Nothing)' : 'String';
    return this.sawNull ? `Nullable(${fromValues})` : fromValues;
  }

  private fitDeclared(type: string | undefined): string | undefined {
    const onlyIntegers = !this.sawReal && !this.sawText && !this.sawBlob;
    const onlyNumbers = !this.sawText && !this.sawBlob;
    const onlyText = !this.sawInteger && !this.sawReal && !this.sawBlob;
    switch (type) {
      case 'Bool': return onlyIntegers && this.allZeroOrOne ? type : undefined;
      case 'Int64': return onlyIntegers ? type : undefined;
      case 'Float64': return onlyNumbers ? type : undefined;
      case 'Date': return onlyText && this.allDates ? type : undefined;
      case 'DateTime': return onlyText && this.allDateTimes ? type : undefined;
      case 'String':
      case 'UUID': return onlyText ? type : undefined;
      default: return undefined;
    }
  }

  private fromValues(): string | undefined {
    if (this.sawBlob || (this.sawText && (this.sawInteger || this.sawReal))) return 'String';
    if (this.sawText) return this.allDateTimes ? 'DateTime' : this.allDates ? 'Date' : 'String';
    if (this.sawReal) return 'Float64';
    if (this.sawInteger) return 'Int64';
    return undefined;
  }
}

/** True for the types ClickHouse writes as `true` / `false`. */
export function isBoolType(typeName: string): boolean {
  return typeName === 'Bool' || typeName === 'Nullable(Bool)';
}

/** The ClickHouse type for an SQLite declared type, following SQLite's own affinity rules in spirit. */
export function clickHouseType(declared: string): string | undefined {
  const type = declared.toUpperCase();
  if (type === '') return undefined;
  if (type.includes('BOOL')) return 'Bool';
  if (type.includes('DATETIME') || type.includes('TIMESTAMP')) return 'DateTime';
  if (type.includes('DATE')) return 'Date';
  if (type.includes('UUID')) return 'UUID';
  if (type.includes('INT')) return 'Int64';
  if (type.includes('CHAR') || type.includes('CLOB') || type.includes('TEXT')) return 'String';
  if (/REAL|FLOA|DOUB|DEC|NUM/.test(type)) return 'Float64';
  return undefined;
}

/** Float64 as ClickHouse writes it: shortest round-trip digits, `inf` / `-inf` for infinities. */
export function formatFloat(value: number): string {
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  if (Number.isNaN(value)) return 'nan';
  return String(value);
}
