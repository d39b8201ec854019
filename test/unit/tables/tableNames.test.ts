import * as assert from 'node:assert/strict';
import { suggestTableName, tableNameProblem } from '../../../src/core/tables/tableNames';

describe('table names', () => {
  it('accepts 1–128 letters, digits and underscores not starting with a digit', () => {
    for (const name of ['t', 'sales_2025', '_staging', 'A'.repeat(128)]) assert.equal(tableNameProblem(name), undefined, name);
  });

  it('says in one sentence what is wrong with a name', () => {
    assert.match(tableNameProblem('')!, /at least 1 character/);
    assert.match(tableNameProblem('x'.repeat(129))!, /at most 128 characters \(this one has 129\)/);
    assert.match(tableNameProblem('2025_sales')!, /cannot start with a digit/);
    assert.match(tableNameProblem('my sales-table')!, /remove space, “-”/);
  });

  it('suggests a valid name from a file name', () => {
    assert.equal(suggestTableName('Sales 2025 (final).csv'), 'sales_2025_final');
    assert.equal(suggestTableName('2025.csv'), 't_2025');
    assert.equal(suggestTableName('ünïcode.csv'), 'unicode');
    assert.equal(tableNameProblem(suggestTableName('---.csv')), undefined);
  });
});
