// The budget of the checks that run while typing: bounded work per check, and plain text above a size.
import * as assert from 'node:assert/strict';
import { parseCsvTestSet } from '../../../src/core/comparison/testSet';
import { LIVE_CHECK_MAX_CHARS, liveCheckCollectionName, overBudgetNote } from '../../../src/core/documents/checkBudget';
import { SqlCatalog, unknownTables } from '../../../src/core/sql/index';
import { PARSER_BUDGET_CHARS } from '../../../src/core/sql/sqlInsight';
import { parserCharCount } from '../../../src/core/sql/sqlParser';

const joins = (n: number): string => `SELECT * FROM calls ${Array.from({ length: n }, (_, i) => `JOIN t${i} ON calls.id = t${i}.id`).join(' ')}`;

describe('the budget of checks while typing', () => {
  it('names every checker\'s problems by one scheme', () => {
    assert.equal(liveCheckCollectionName('runs'), 'agentWorkbench.runs');
    assert.equal(liveCheckCollectionName('agent-workbench-drafts'), 'agentWorkbench.drafts');
    assert.equal(liveCheckCollectionName('agentWorkbench.sql'), 'agentWorkbench.sql');
  });

  it('says once that checks are off for a document above the cap, and nothing below it', () => {
    assert.equal(overBudgetNote(LIVE_CHECK_MAX_CHARS.sql, LIVE_CHECK_MAX_CHARS.sql), undefined);
    assert.match(overBudgetNote(LIVE_CHECK_MAX_CHARS.sql + 1, LIVE_CHECK_MAX_CHARS.sql) ?? '', /^Checks are off for this document while you type: it has 40,001 characters, more than the 40,000/);
  });

  it('still underlines an unknown table among 2,000 JOINs, giving the slow parser no more than its budget', () => {
    const catalog = new SqlCatalog([{ name: 'calls', columns: [{ name: 'id', type: 'UInt64' }] }]);
    const before = parserCharCount();
    const unknown = unknownTables(joins(2000), catalog);
    assert.ok(parserCharCount() - before <= PARSER_BUDGET_CHARS);
    assert.equal(unknown.length, 2000);
    assert.equal(unknown[0]?.name, 't0');
  });

  it('reads a CSV test set with 100,000 columns', () => {
    const names = Array.from({ length: 100_000 }, (_, i) => `c${i}`);
    const { cases, problems } = parseCsvTestSet(`${names.join(',')}\n${names.map(() => 'x').join(',')}\n`);
    assert.deepEqual(problems, []);
    assert.equal(Object.keys(cases[0]!.inputs).length, 100_000);
  });
});
