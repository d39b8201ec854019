import * as assert from 'node:assert/strict';
import { ColumnProfile, clickHouseType, formatFloat, type SqliteValue } from '../../../src/sandbox/query/columnProfile';
import type { CatalogColumn } from '../../../src/sandbox/query/catalog';

function profileOf(values: SqliteValue[]): { profile: ColumnProfile; texts: (string | null)[] } {
  const profile = new ColumnProfile();
  return { profile, texts: values.map((v) => profile.render(v)) };
}

const declared = (declaredType: string, nullable = false): CatalogColumn => ({ declaredType, nullable });

describe('result column types and values', () => {
  it('renders integers exactly, beyond what a JavaScript number can hold', () => {
    const { profile, texts } = profileOf([9007199254740993n, -1n]);
    assert.deepEqual(texts, ['9007199254740993', '-1']);
    assert.equal(profile.typeName(undefined), 'Int64');
  });

  it('renders floats as ClickHouse does', () => {
    assert.deepEqual([0.1 + 0.2, 2, Infinity, -Infinity].map(formatFloat), ['0.30000000000000004', '2', 'inf', '-inf']);
    assert.equal(profileOf([1n, 2.5]).profile.typeName(undefined), 'Float64');
  });

  it('recognises dates and date-times among text values', () => {
    assert.equal(profileOf(['2025-01-02', '2025-03-04']).profile.typeName(undefined), 'Date');
    assert.equal(profileOf(['2025-01-02 03:04:05', null]).profile.typeName(undefined), 'Nullable(DateTime)');
    assert.equal(profileOf(['2025-01-02', 'soon']).profile.typeName(undefined), 'String');
  });

  it('calls a column of mixed text and numbers String, and an all-NULL column Nullable(Nothing)', () => {
    assert.equal(profileOf(['a', 1n]).profile.typeName(undefined), 'String');
    assert.equal(profileOf([null, null]).profile.typeName(undefined), 'Nullable(Nothing)');
    assert.equal(profileOf([]).profile.typeName(undefined), 'String');
  });

  it('prefers the declared type, nullable as declared, when the values fit it', () => {
    assert.equal(profileOf([3n, 4n]).profile.typeName(declared('INTEGER', true)), 'Nullable(Int64)');
    assert.equal(profileOf([1n, 0n]).profile.typeName(declared('BOOLEAN')), 'Bool');
    assert.equal(profileOf(['c30d77e0-150a-483e-9d32-12605e66beea']).profile.typeName(declared('UUID')), 'UUID');
    // `SELECT count(*) AS started_at`: the name matches a DATETIME column, the values do not.
    assert.equal(profileOf([12n]).profile.typeName(declared('DATETIME')), 'Int64');
  });

  it('maps declared SQLite types to ClickHouse names', () => {
    const types = ['INTEGER', 'BIGINT', 'REAL', 'DOUBLE', 'NUMERIC(10,2)', 'TEXT', 'VARCHAR(20)', 'DATE', 'DATETIME', 'TIMESTAMP', 'BOOLEAN', 'UUID', ''];
    assert.deepEqual(types.map(clickHouseType), [
      'Int64', 'Int64', 'Float64', 'Float64', 'Float64', 'String', 'String', 'Date', 'DateTime', 'DateTime', 'Bool', 'UUID', undefined,
    ]);
  });

  it('counts result bytes in UTF-8 and shows blobs as hex', () => {
    const { profile, texts } = profileOf(['é', 'abc', new Uint8Array([0, 255]), null, 12n]);
    assert.deepEqual(texts, ['é', 'abc', '00FF', null, '12']);
    assert.equal(profile.bytes, 2 + 3 + 4 + 2);
  });
});
