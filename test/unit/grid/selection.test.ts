import * as assert from 'node:assert/strict';
import { cellSelection, clampSelection, extendTo, isSelected, moveSelection, selectAll, selectedRange, widen, type Selection } from '../../../src/core/grid/selection';

const size = { rows: 100, cols: 5 };
const at = (row: number, col: number): Selection => cellSelection({ row, col });

describe('selecting cells with the keyboard', () => {
  it('moves one cell with the arrows and stops at the edges', () => {
    assert.deepEqual(moveSelection(at(0, 0), size, { kind: 'by', rows: 1, cols: 0 }, false), at(1, 0));
    assert.deepEqual(moveSelection(at(0, 0), size, { kind: 'by', rows: -1, cols: -1 }, false), at(0, 0));
    assert.deepEqual(moveSelection(at(99, 4), size, { kind: 'by', rows: 1, cols: 1 }, false), at(99, 4));
  });

  it('grows a rectangle from the anchor with Shift and the arrows', () => {
    let selection = moveSelection(at(2, 1), size, { kind: 'by', rows: 1, cols: 0 }, true);
    selection = moveSelection(selection, size, { kind: 'by', rows: 0, cols: 2 }, true);
    assert.deepEqual(selectedRange(selection!, size), { top: 2, bottom: 3, left: 1, right: 3 });
    assert.ok(isSelected(selection, size, 3, 3));
    assert.ok(!isSelected(selection, size, 4, 3));
  });

  it('goes to the ends of the row with Home/End and of the grid with Ctrl+Home/End', () => {
    assert.deepEqual(moveSelection(at(7, 3), size, { kind: 'rowStart' }, false), at(7, 0));
    assert.deepEqual(moveSelection(at(7, 1), size, { kind: 'rowEnd' }, false), at(7, 4));
    assert.deepEqual(moveSelection(at(7, 3), size, { kind: 'gridStart' }, false), at(0, 0));
    assert.deepEqual(moveSelection(at(7, 3), size, { kind: 'gridEnd' }, false), at(99, 4));
  });

  it('moves a page with PageUp/PageDown and extends by a page with Shift', () => {
    assert.deepEqual(moveSelection(at(10, 2), size, { kind: 'by', rows: 30, cols: 0 }, false), at(40, 2));
    assert.deepEqual(moveSelection(at(90, 2), size, { kind: 'by', rows: 30, cols: 0 }, false), at(99, 2));
    const extended = moveSelection(at(50, 2), size, { kind: 'by', rows: -30, cols: 0 }, true);
    assert.deepEqual(selectedRange(extended!, size), { top: 20, bottom: 50, left: 2, right: 2 });
  });

  it('selects everything with Ctrl+A, keeping the focused cell', () => {
    const all = selectAll(size, { row: 5, col: 2 });
    assert.deepEqual(selectedRange(all!, size), { top: 0, bottom: 99, left: 0, right: 4 });
    assert.deepEqual(all?.focus, { row: 5, col: 2 });
  });

  it('widens to whole rows or whole columns, and keeps that while extending', () => {
    const rows = widen(at(3, 2), 'rows');
    assert.deepEqual(selectedRange(rows!, size), { top: 3, bottom: 3, left: 0, right: 4 });
    const more = moveSelection(rows, size, { kind: 'by', rows: 2, cols: 0 }, true);
    assert.deepEqual(selectedRange(more!, size), { top: 3, bottom: 5, left: 0, right: 4 });
    assert.deepEqual(selectedRange(widen(at(3, 2), 'columns')!, size), { top: 0, bottom: 99, left: 2, right: 2 });
    assert.equal(moveSelection(more, size, { kind: 'by', rows: 1, cols: 0 }, false)?.mode, 'cells', 'a plain move selects one cell again');
  });
});

describe('selecting cells with the mouse', () => {
  it('extends from the anchor to the cell under the pointer', () => {
    const selection = extendTo(at(5, 4), size, { row: 2, col: 1 });
    assert.deepEqual(selectedRange(selection!, size), { top: 2, bottom: 5, left: 1, right: 4 });
  });
});

describe('a selection when the rows change', () => {
  it('stays inside a grid a filter made smaller and disappears when no row is left', () => {
    const selection = moveSelection(at(10, 1), size, { kind: 'by', rows: 50, cols: 0 }, true);
    assert.deepEqual(selectedRange(clampSelection(selection, { rows: 20, cols: 5 })!, size), { top: 10, bottom: 19, left: 1, right: 1 });
    assert.equal(clampSelection(selection, { rows: 0, cols: 5 }), undefined);
    assert.equal(moveSelection(undefined, { rows: 0, cols: 5 }, { kind: 'gridEnd' }, false), undefined);
  });
});
