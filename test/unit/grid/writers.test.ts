import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { CSV, delimitedChunks, delimitedField, delimitedText, TSV } from '../../../src/core/grid/delimited';
import { jsonChunks, jsonKeys } from '../../../src/core/grid/jsonExport';

/** A small RFC 4180 reader, to prove what the writer wrote reads back the same. */
function readCsv(text: string): (string | null)[][] {
  const rows: (string | null)[][] = [];
  let row: (string | null)[] = [];
  let i = 0;
  while (i < text.length) {
    let field: string | null;
    if (text[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const quote = text.indexOf('"', i);
        value += text.slice(i, quote);
        i = quote + 1;
        if (text[i] === '"') {
          value += '"';
          i++;
        } else break;
      }
      field = value;
    } else {
      let end = i;
      while (end < text.length && text[end] !== ',' && text[end] !== '\r') end++;
      field = end === i ? null : text.slice(i, end);
      i = end;
    }
    row.push(field);
    if (text[i] === ',') i++;
    else if (text.startsWith('\r\n', i)) {
      rows.push(row);
      row = [];
      i += 2;
    }
  }
  return rows;
}

describe('CSV export', () => {
  it('quotes fields holding commas, quotes or line breaks, and doubles the quotes', () => {
    assert.equal(delimitedField('plain', CSV), 'plain');
    assert.equal(delimitedField('a,b', CSV), '"a,b"');
    assert.equal(delimitedField('say "hi"', CSV), '"say ""hi"""');
    assert.equal(delimitedField('two\nlines', CSV), '"two\nlines"');
    assert.equal(delimitedField('cr\ronly', CSV), '"cr\ronly"');
  });

  it('writes NULL as nothing and an empty text as "" so they read back apart', () => {
    assert.equal(delimitedText({ names: ['a', 'b', 'c'], rows: [[null, '', 'x']] }, CSV), 'a,b,c\r\n,"",x\r\n');
  });

  it('writes the header and every row in the given order, with CRLF line ends', () => {
    const text = delimitedText({ names: ['id', 'note'], rows: [['1', 'x'], ['2', 'y'], ['3', 'z']], order: [2, 0, 1] }, CSV);
    assert.equal(text, 'id,note\r\n3,z\r\n1,x\r\n2,y\r\n');
  });

  it('reads back exactly what was written, for any cells', () => {
    const cell = fc.oneof(fc.constant(null), fc.string({ unit: fc.constantFrom('a', ',', '"', '\n', '\r', ' ', 'é', '\t') }));
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 20 }), (rows) => {
        const text = delimitedText({ names: ['a', 'b', 'c'], rows }, CSV);
        assert.deepEqual(readCsv(text), [['a', 'b', 'c'], ...rows]);
      }),
    );
  });

  it('comes in chunks of whole lines for large results', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => [String(i), `line\n${i}`]);
    const chunks = Array.from(delimitedChunks({ names: ['n', 'text'], rows }, CSV));
    assert.ok(chunks.length > 2);
    assert.ok(chunks.every((chunk) => chunk.endsWith('\r\n')));
    assert.equal(readCsv(chunks.join('')).length, 5001);
  });
});

describe('copying as tab-separated text', () => {
  it('copies the chosen columns of the chosen rows, tabs between, newline after each row', () => {
    const rows = [['1', 'a', 'x'], ['2', 'b', 'y'], ['3', 'c', 'z']];
    assert.equal(delimitedText({ rows, order: [1, 2], columns: [1, 2] }, TSV), 'b\ty\nc\tz\n');
    assert.equal(delimitedText({ names: ['id', 'l', 'm'], rows, order: [0], columns: [0, 1] }, TSV), 'id\tl\n1\ta\n');
  });

  it('quotes cells with tabs, quotes or newlines so spreadsheets paste them whole', () => {
    assert.equal(delimitedText({ rows: [['a\tb', 'say "x"', 'two\nlines', '', null]] }, TSV), '"a\tb"\t"say ""x"""\t"two\nlines"\t\t\n');
  });
});

describe('JSON export', () => {
  it('writes one object per row with the values as the service sent them', () => {
    const text = Array.from(jsonChunks({ names: ['id', 'name', 'big'], rows: [['1', 'Ann', '18446744073709551615'], ['2', null, '0']] })).join('');
    assert.deepEqual(JSON.parse(text), [
      { id: '1', name: 'Ann', big: '18446744073709551615' },
      { id: '2', name: null, big: '0' },
    ]);
    assert.match(text, /^\[\n {2}\{"id": "1", "name": "Ann", "big": "18446744073709551615"\},\n/);
  });

  it('keeps every column when names repeat, are empty or look special', () => {
    assert.deepEqual(jsonKeys(['a', 'a', '', 'a_2', 'a']), ['a', 'a_2', 'column_3', 'a_2_2', 'a_3']);
    const text = Array.from(jsonChunks({ names: ['__proto__', '2', 'x'], rows: [['p', 'two', 'x']] })).join('');
    const parsed = JSON.parse(text) as Record<string, string>[];
    assert.deepEqual(Object.keys(parsed[0]!).sort(), ['2', '__proto__', 'x']);
    assert.match(text, /"__proto__": "p", "2": "two", "x": "x"/, 'keys keep the column order');
  });

  it('writes an empty array for no rows, and survives any text', () => {
    assert.equal(Array.from(jsonChunks({ names: ['a'], rows: [] })).join(''), '[]\n');
    fc.assert(
      fc.property(fc.array(fc.array(fc.oneof(fc.constant(null), fc.string()), { minLength: 2, maxLength: 2 }), { maxLength: 10 }), (rows) => {
        const parsed = JSON.parse(Array.from(jsonChunks({ names: ['a', 'b'], rows })).join('')) as { a: string | null; b: string | null }[];
        assert.deepEqual(parsed.map((o) => [o.a, o.b]), rows);
      }),
    );
  });
});
