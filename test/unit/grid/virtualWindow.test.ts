import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { gridColumns } from '../../../src/core/grid/columnKinds';
import { displayText, MAX_START_WIDTH, MIN_COLUMN_WIDTH, startWidths } from '../../../src/core/grid/columnWidths';
import { canvasHeight, columnOffsets, columnWindow, rowWindow, scrollTopFor } from '../../../src/core/grid/virtualWindow';

describe('which rows the grid paints', () => {
  const layout = { rowHeight: 20, rowCount: 100_000, viewportHeight: 400 };

  it('paints only the rows in view, plus a few either side', () => {
    assert.deepEqual(rowWindow(0, layout, 5), { first: 0, last: 24, offsetY: 0 });
    const middle = rowWindow(20_010, layout, 5);
    assert.deepEqual([middle.first, middle.last], [995, 1025]);
    assert.equal(middle.offsetY, 995 * 20);
    const end = rowWindow(canvasHeight(layout) - 400, layout, 5);
    assert.equal(end.last, 99_999);
  });

  it('paints nothing for no rows', () => {
    assert.deepEqual(rowWindow(0, { ...layout, rowCount: 0 }, 5), { first: 0, last: -1, offsetY: 0 });
  });

  it('maps a scroll area capped by the browser onto all rows, first to last', () => {
    const huge = { rowHeight: 20, rowCount: 5_000_000, viewportHeight: 400, maxCanvas: 1_000_000 };
    assert.equal(canvasHeight(huge), 1_000_000);
    assert.equal(rowWindow(0, huge).first, 0);
    const end = rowWindow(1_000_000 - 400, huge);
    assert.equal(end.last, 4_999_999);
    assert.equal(end.offsetY + (end.last - end.first + 1) * 20, 1_000_000, 'the last row ends at the bottom of the scroll area');
    const half = rowWindow(500_000 - 200, huge);
    assert.ok(Math.abs(half.first - 2_500_000) < 100, `first ${half.first}`);
  });

  it('scrolls just enough to show a row, and not at all when it is in view', () => {
    assert.equal(scrollTopFor(5, 0, layout), 0);
    assert.equal(scrollTopFor(30, 0, layout), 31 * 20 - 400);
    assert.equal(scrollTopFor(10, 1000, layout), 200);
  });

  it('brings any row into view, also in a capped scroll area', () => {
    const huge = { rowHeight: 20, rowCount: 3_000_000, viewportHeight: 400, maxCanvas: 2_000_000 };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_999_999 }), fc.integer({ min: 0, max: 1_999_600 }), (row, from) => {
        const top = scrollTopFor(row, from, huge);
        const window = rowWindow(top, huge);
        assert.ok(row >= window.first && row <= window.last + 1, `row ${row} not in ${window.first}..${window.last}`);
      }),
    );
  });
});

describe('which columns the grid paints', () => {
  const offsets = columnOffsets([100, 50, 200, 80, 120]);

  it('adds up the widths into left edges and a total', () => {
    assert.deepEqual(offsets, [0, 100, 150, 350, 430, 550]);
  });

  it('paints the columns overlapping the visible width', () => {
    assert.deepEqual(columnWindow(offsets, 0, 120), { first: 0, last: 1 });
    assert.deepEqual(columnWindow(offsets, 160, 100), { first: 2, last: 2 });
    assert.deepEqual(columnWindow(offsets, 340, 1000), { first: 2, last: 4 });
    assert.deepEqual(columnWindow(offsets, 160, 100, 1), { first: 1, last: 3 });
    assert.deepEqual(columnWindow([0], 0, 100), { first: 0, last: -1 });
  });
});

describe('starting column widths', () => {
  const columns = gridColumns(['id', 'a_rather_long_column_name', 'notes'], ['UInt64', 'String', 'String']);

  it('fit the name and the widest sampled cell, within bounds', () => {
    const [id, long, notes] = startWidths(columns, [['1', 'x', 'short'], ['22', null, 'y'.repeat(500)]], 8);
    assert.equal(id, Math.ceil(6 * 0.85) * 8 + 18 + 16, 'the type under the name is wider than the values');
    assert.equal(long, 25 * 8 + 18 + 16, 'the name is the widest');
    assert.equal(notes, MAX_START_WIDTH, 'a long text starts at the maximum');
  });

  it('are never narrower than the minimum', () => {
    assert.deepEqual(startWidths(gridColumns(['a'], ['']), [['1']], 2), [MIN_COLUMN_WIDTH]);
  });

  it('shows a cell on one line, cutting very long text', () => {
    assert.equal(displayText('a\r\nb\nc\td'), 'a↵b↵c→d');
    assert.equal(displayText('x'.repeat(20), 5), 'xxxxx…');
  });
});
