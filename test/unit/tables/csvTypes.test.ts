import * as assert from 'node:assert/strict';
import { ColumnGuess } from '../../../src/sandbox/tables/columnTypes';
import { CsvReader } from '../../../src/sandbox/tables/csv';
import { columnNames } from '../../../src/sandbox/tables/csvFile';

function typeOf(values: string[]): string {
  const guess = new ColumnGuess();
  for (const v of values) guess.see(v);
  return guess.typeName();
}

/** Reads text split at every possible point, so chunk borders never change the records. */
function readAllSplits(text: string): string[][] {
  const whole = readChunks([text]);
  for (let i = 1; i < text.length; i++) assert.deepEqual(readChunks([text.slice(0, i), text.slice(i)]), whole, `split at ${i}`);
  return whole;
}

function readChunks(chunks: string[]): string[][] {
  const reader = new CsvReader();
  return [...chunks.flatMap((c) => reader.push(c)), ...reader.end()];
}

describe('CSV reading', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, in any chunking', () => {
    assert.deepEqual(readAllSplits('a,b\r\n"x, y","say ""hi"""\n"two\nlines",\n'), [
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['two\nlines', ''],
    ]);
  });

  it('takes a last record without a line break, skips blank lines and a byte order mark', () => {
    assert.deepEqual(readAllSplits('\ufeffid\n\n1\n2'), [['id'], ['1'], ['2']]);
  });

  it('keeps an empty quoted field as an empty field', () => {
    assert.deepEqual(readChunks(['a,""\n""\n']), [['a', ''], ['']]);
  });

  it('names columns from the header, numbering blank ones and suffixing repeated ones', () => {
    assert.deepEqual(columnNames(['id', '', 'Name', 'name'], 4), ['id', 'column_2', 'Name', 'name_2']);
    assert.deepEqual(columnNames(undefined, 3), ['column_1', 'column_2', 'column_3']);
  });
});

describe('CSV column types', () => {
  it('infers the narrowest ClickHouse type every value fits', () => {
    assert.equal(typeOf(['1', '-2', '30']), 'Int64');
    assert.equal(typeOf(['1', '2.5', '1e3']), 'Float64');
    assert.equal(typeOf(['true', 'FALSE']), 'Bool');
    assert.equal(typeOf(['2025-01-01', '2024-02-29']), 'Date');
    assert.equal(typeOf(['2025-01-01 10:00:00', '2025-01-02T11:30:00Z', '2025-01-03']), 'DateTime');
    assert.equal(typeOf(['1', 'x']), 'String');
    assert.equal(typeOf(['2025-02-30']), 'String');
  });

  it('uses UInt64 only for integers past Int64 that are not negative', () => {
    assert.equal(typeOf(['18446744073709551615', '1']), 'UInt64');
    assert.equal(typeOf(['9223372036854775807', '-9223372036854775808']), 'Int64');
    assert.equal(typeOf(['18446744073709551615', '-1']), 'Float64');
  });

  it('wraps the type in Nullable when a value is empty, and an all-empty column is Nullable(String)', () => {
    assert.equal(typeOf(['1', '', '3']), 'Nullable(Int64)');
    assert.equal(typeOf(['', '']), 'Nullable(String)');
  });
});
