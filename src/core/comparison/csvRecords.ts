/**
 * CSV records with their line numbers, read so that one broken row never hides the others: a stray
 * quote (never closed, or "closed" by a later quote that text follows) costs its own line only, and the
 * rows after it are read as usual. Linear in the text for files people write, whatever the number of
 * rows or columns.
 */

/** One row of cells and the 1-based line it starts on. */
export interface CsvRecord {
  line: number;
  cells: string[];
  /** Offsets of the row's text in the file, its line break left out (a labelling edit replaces just this). */
  start: number;
  end: number;
}

/** A line left out, and why. */
export interface CsvProblem {
  line: number;
  message: string;
}

/** The records of a CSV text (a leading BOM and empty lines are skipped). */
export function csvRecords(text: string): { records: CsvRecord[]; problems: CsvProblem[] } {
  const records: CsvRecord[] = [];
  const problems: CsvProblem[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  while (i < text.length) {
    const read = readRecord(text, i, line);
    if (read.brokenAt !== undefined) {
      problems.push({ line: read.brokenAt, message: 'Not valid CSV: a quote on this line is never closed where a cell ends; the line is left out' });
      // Go on at the next line: the quote was a typo, the rows after it are whole.
      const next = text.indexOf('\n', i);
      i = next < 0 ? text.length : next + 1;
      line += 1;
      continue;
    }
    if (!(read.cells.length === 1 && read.cells[0] === '')) records.push({ line, cells: read.cells, start: i, end: read.contentEnd });
    i = read.end;
    line = read.nextLine;
  }
  return { records, problems };
}

function readRecord(text: string, start: number, line: number): { cells: string[]; end: number; contentEnd: number; nextLine: number; brokenAt?: number } {
  const cells: string[] = [];
  let cell = '';
  let i = start;
  let current = line;
  for (;;) {
    if (text[i] === '"') {
      i++;
      let closed = false;
      while (i < text.length) {
        const c = text[i];
        if (c === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i++;
          closed = true;
          break;
        }
        if (c === '\n') current++;
        cell += c;
        i++;
      }
      const next = text[i];
      // A quoted cell ends at a comma or a line end; anything else means the quote was stray.
      if (!closed || (next !== undefined && next !== ',' && next !== '\n' && next !== '\r')) return { cells, end: i, contentEnd: i, nextLine: current, brokenAt: line };
    }
    // Unquoted text (or what follows a closing quote) up to the next comma or line end.
    let j = i;
    while (j < text.length && text[j] !== ',' && text[j] !== '\n' && text[j] !== '\r') j++;
    cell += text.slice(i, j);
    i = j;
    cells.push(cell);
    cell = '';
    if (text[i] === ',') {
      i++;
      continue;
    }
    const contentEnd = i;
    if (text[i] === '\r') i++;
    if (text[i] === '\n') i++;
    return { cells, end: i, contentEnd, nextLine: current + 1 };
  }
}
