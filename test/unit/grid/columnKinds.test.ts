import * as assert from 'node:assert/strict';
import { columnKind, gridColumns } from '../../../src/core/grid/columnKinds';

describe('column kinds', () => {
  it('treats every integer, float and decimal type as a number, also inside Nullable and LowCardinality', () => {
    for (const type of ['Int8', 'UInt64', 'Int256', 'Float32', 'Float64', 'Decimal(18, 4)', 'Decimal64(3)', 'Nullable(Int64)', 'LowCardinality(Nullable(UInt32))', 'Nullable(Decimal(38,10))']) {
      assert.equal(columnKind(type), 'number', type);
    }
  });

  it('treats Date and DateTime types as dates, with or without precision and zone', () => {
    for (const type of ['Date', 'Date32', 'DateTime', "DateTime('Europe/Paris')", "DateTime64(3, 'UTC')", 'Nullable(DateTime64(6))']) {
      assert.equal(columnKind(type), 'date', type);
    }
  });

  it('treats everything else as text, including look-alikes and missing types', () => {
    for (const type of ['String', 'UUID', 'Bool', 'Array(Int64)', 'Map(String, UInt8)', 'Interval', 'IntervalDay', 'Nullable(String)', 'Enum8(\'a\' = 1)', '', 'Integer']) {
      assert.equal(columnKind(type), 'text', type);
    }
    assert.equal(columnKind(undefined), 'text');
    assert.equal(columnKind(null), 'text');
  });

  it('pairs names with types even when the service sent fewer types or none', () => {
    assert.deepEqual(gridColumns(['id', 'name'], ['UInt64']), [
      { name: 'id', type: 'UInt64', kind: 'number' },
      { name: 'name', type: '', kind: 'text' },
    ]);
    assert.deepEqual(gridColumns(['x'], null), [{ name: 'x', type: '', kind: 'text' }]);
  });
});
