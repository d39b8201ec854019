// The column headers: name and type, the sort arrow, and a handle on the right edge to resize.
import type { GridColumn } from '../../core/grid/columnKinds';
import type { GridSort } from '../../core/grid/protocol';
import { make } from '../common/dom';

const HEADER_FOCUS_ID = 'grid-header-focus';

export class GridHeader {
  private cells: HTMLDivElement[] = [];
  private corner: HTMLDivElement | undefined;

  constructor(private readonly row: HTMLElement) {}

  /** Builds the header of a result's columns. */
  build(columns: readonly GridColumn[]): void {
    this.row.replaceChildren();
    this.corner = make('div', 'corner', '#');
    this.corner.setAttribute('role', 'columnheader');
    this.corner.setAttribute('aria-colindex', '1');
    this.corner.setAttribute('aria-label', 'Row number');
    this.row.append(this.corner);
    this.cells = columns.map((column, c) => {
      const cell = make('div', `col-header${column.kind === 'number' ? ' num' : ''}`);
      cell.setAttribute('role', 'columnheader');
      cell.setAttribute('aria-colindex', String(c + 2));
      cell.setAttribute('aria-sort', 'none');
      cell.title = column.type ? `${column.name} (${column.type}): click to sort` : `${column.name}: click to sort`;
      const name = make('span', 'col-name', column.name === '' ? '(no name)' : column.name);
      const type = make('span', 'col-type', column.type);
      const arrow = make('span', 'sort-arrow');
      arrow.setAttribute('aria-hidden', 'true');
      const handle = make('div', 'resize-handle');
      handle.setAttribute('aria-hidden', 'true');
      handle.dataset.col = String(c);
      cell.dataset.col = String(c);
      const label = make('span', 'col-label');
      label.append(name, type);
      cell.append(label, arrow, handle);
      this.row.append(cell);
      return cell;
    });
  }

  /** Places the headers at the columns' offsets. */
  layout(gutter: number, widths: readonly number[]): void {
    let left = gutter;
    this.cells.forEach((cell, c) => {
      const width = widths[c] ?? 0;
      cell.style.left = `${left}px`;
      cell.style.width = `${width}px`;
      left += width;
    });
  }

  /** Shows the sort on its column (arrow and aria-sort). */
  showSort(sort: GridSort | null): void {
    this.cells.forEach((cell, c) => {
      const direction = sort?.column === c ? sort.direction : undefined;
      cell.setAttribute('aria-sort', direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none');
      const arrow = cell.querySelector('.sort-arrow');
      if (arrow) arrow.textContent = direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '';
    });
  }

  /** Marks the header the keyboard is on (or none), returning its element id for aria-activedescendant. */
  focus(col: number | undefined): string | undefined {
    this.cells.forEach((cell, c) => {
      const on = c === col;
      cell.classList.toggle('focused', on);
      if (on) cell.id = HEADER_FOCUS_ID;
      else if (cell.id) cell.removeAttribute('id');
    });
    if (col === undefined || !this.cells[col]) return undefined;
    this.cells[col]?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    return HEADER_FOCUS_ID;
  }

  /** The column of a header element under the pointer, and whether it is the resize handle. */
  hit(target: EventTarget | null): { col: number; resize: boolean } | undefined {
    if (!(target instanceof Element)) return undefined;
    const handle = target.closest('.resize-handle');
    const cell = target.closest('.col-header');
    const col = Number((handle as HTMLElement | null)?.dataset.col ?? (cell as HTMLElement | null)?.dataset.col);
    return Number.isInteger(col) ? { col, resize: handle !== null } : undefined;
  }
}
