// Random and hostile documents fed to the checkers that run while the user types: none throws, and
// each does bounded work per call (parses counted, parser input capped, nesting capped) — never timed.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { InputDefinition } from '../../../src/core/client';
import { csvRecords } from '../../../src/core/comparison/csvRecords';
import { parseTestSet } from '../../../src/core/comparison/testSet';
import { checkTestSet } from '../../../src/core/comparison/testSetCheck';
import { jsonParseCount } from '../../../src/core/documents/jsonProblems';
import { delimitedField, type DelimitedFormat } from '../../../src/core/grid/delimited';
import { checkRun, parseRunFile } from '../../../src/core/runs/runCheck';
import { SqlCatalog, sqlCompletions, sqlHover, unknownTables } from '../../../src/core/sql/index';
import { PARSER_BUDGET_CHARS } from '../../../src/core/sql/sqlInsight';
import { parserCharCount } from '../../../src/core/sql/sqlParser';
import { runs } from './support';

const AGENT = '11111111-2222-4333-8444-555555555555';
const definitions: InputDefinition[] = [
  { key: 'transcript', data_type: 'text/plain' },
  { key: 'document', data_type: 'application/pdf' },
  { key: '__proto__', data_type: 'application/json' },
];
const ctx = { baseDir: '/work/space', fileKind: () => Promise.resolve('file' as const) };

/** Text that looks like JSON gone wrong: brackets, quotes, keys that are special, numbers, deep openings. */
const hostileJson = fc.oneof(
  fc.string(),
  fc.json(),
  fc.array(fc.constantFrom('[', ']', '{', '}', '"', ':', ',', '\\', '"__proto__"', '"inputs"', '"agent"', `"${AGENT}"`, '1e999', 'null', ' '), { maxLength: 200 }).map((parts) => parts.join('')),
  fc.nat({ max: 5000 }).map((n) => `{"agent":"${AGENT}","inputs":${'['.repeat(n)}`),
  fc.array(fc.record({ transcript: fc.oneof(fc.string(), fc.integer(), fc.constant(null)), document: fc.string() }), { maxLength: 50 }).map((inputs) => JSON.stringify({ agent: AGENT, inputs })),
);

describe('checkers fed random and hostile documents', () => {
  it('checks any run file without throwing, parsing it at most three times', async () => {
    await fc.assert(
      fc.asyncProperty(hostileJson, async (text) => {
        const before = jsonParseCount();
        const parsed = parseRunFile(text);
        if (parsed.file) await checkRun(text, parsed.file, definitions, ctx);
        else assert.ok(parsed.problems.length > 0, 'a file that does not parse says why');
        assert.ok(jsonParseCount() - before <= 3, `parsed ${jsonParseCount() - before} times`);
      }),
      runs('run files', 300),
    );
  });

  it('reads any test set without throwing, naming only lines the text has', () => {
    const lines = fc.array(fc.oneof(fc.string(), fc.json(), fc.constantFrom('"', '""', '"a,"b', '__proto__,constructor', '{"inputs":{"__proto__":{"file":"/etc/passwd"}}}', '// agent: x')), { maxLength: 30 });
    fc.assert(
      fc.property(lines, fc.constantFrom('x.testset.csv', 'x.testset.jsonl'), (parts, name) => {
        const text = parts.join('\n');
        const lineCount = text.split('\n').length;
        const { cases, problems } = parseTestSet(name, text);
        for (const p of [...cases, ...problems]) assert.ok(p.line >= 1 && p.line <= lineCount, `line ${p.line} of ${lineCount}`);
        checkTestSet(name, text, ['transcript']);
      }),
      runs('test sets', 300),
    );
  });

  it('reads back every CSV cell written by the CSV writer, in one pass', () => {
    const plain: DelimitedFormat = { delimiter: ',', lineEnd: '\r\n', quoteEmpty: true, guardFormulas: false };
    fc.assert(
      fc.property(fc.array(fc.array(fc.string({ minLength: 1 }), { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 20 }), (rows) => {
        const text = rows.map((r) => r.map((c) => delimitedField(c, plain)).join(',') + '\r\n').join('');
        const { records, problems } = csvRecords(text);
        assert.deepEqual(problems, []);
        assert.deepEqual(records.map((r) => r.cells), rows);
      }),
      runs('csv round trip', 200),
    );
  });

  it('checks, completes and hovers any SQL without throwing, giving the parser at most its budget', () => {
    const catalog = new SqlCatalog([{ name: 'calls', columns: [{ name: 'id', type: 'UInt64' }] }]);
    const words = fc.constantFrom('SELECT', 'FROM', 'JOIN', 'ON', 'WITH', 'AS', '(', ')', ',', ';', '.', 'calls', 'c', 'id', "'", '"', '--', '/*', '*/', 'x', '1', ' ', '\n');
    fc.assert(
      fc.property(fc.array(words, { maxLength: 3000 }), fc.nat(), (parts, at) => {
        const text = parts.join(' ');
        const before = parserCharCount();
        unknownTables(text, catalog);
        assert.ok(parserCharCount() - before <= PARSER_BUDGET_CHARS, `parser given ${parserCharCount() - before} characters`);
        sqlCompletions(text, at % (text.length + 1), catalog);
        sqlHover(text, at % (text.length + 1), catalog);
      }),
      runs('sql', 100),
    );
  });
});
