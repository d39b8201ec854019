// Reading an uploaded CSV file record by record: asynchronously on the server (to name the columns and
// their types when the file arrives) and synchronously in the query worker (to load it into SQLite).

import * as fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { MAX_TABLE_COLUMNS } from '../query/identifiers';
import { ColumnGuess } from './columnTypes';
import { CsvReader } from './csv';

const CHUNK_BYTES = 1024 * 1024;
/**
 * What the upload's scan reads at a time on the request thread: each chunk is parsed and typed before
 * the next is read, so this bounds how long another request can wait behind an upload (a few ms).
 */
const SCAN_CHUNK_BYTES = 64 * 1024;

/** A column of an uploaded table: its name and ClickHouse type. */
export interface UploadedColumn {
  name: string;
  type: string;
}

/** What a CSV holds: its columns (named and typed) and how many data records. */
export interface CsvShape {
  columns: UploadedColumn[];
  rowCount: number;
}

/** A CSV that cannot become a table; the message is shown to the user as is. */
export class CsvProblem extends Error {}

/** The column names: the header's (blank ones numbered, repeated ones suffixed), or column_1, column_2, … */
export function columnNames(header: readonly string[] | undefined, count: number): string[] {
  const names: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < count; i++) {
    let name = header?.[i]?.trim() || `column_${i + 1}`;
    const base = name;
    for (let n = 2; seen.has(name.toLowerCase()); n++) name = `${base}_${n}`;
    seen.add(name.toLowerCase());
    names.push(name);
  }
  return names;
}

/** Checks that a data record has the header's number of fields. */
export function checkWidth(record: readonly string[], width: number, line: number): void {
  if (record.length !== width) {
    throw new CsvProblem(`Row ${line} of the CSV has ${record.length} field${record.length === 1 ? '' : 's'}, but the table has ${width} column${width === 1 ? '' : 's'}.`);
  }
}

/** Reads the whole file once: names the columns and infers each one's type from all its values. */
export async function scanCsv(filePath: string, withHeaders: boolean): Promise<CsvShape> {
  const reader = new CsvReader();
  const decoder = new StringDecoder('utf8');
  let header: string[] | undefined;
  let width = -1;
  let guesses: ColumnGuess[] = [];
  let rowCount = 0;
  const take = (records: string[][]): void => {
    for (const record of records) {
      if (width < 0) {
        width = record.length;
        if (width > MAX_TABLE_COLUMNS) {
          throw new CsvProblem(`The CSV has ${width} columns; a table can have at most ${MAX_TABLE_COLUMNS}.`);
        }
        guesses = record.map(() => new ColumnGuess());
        if (withHeaders) {
          header = record;
          continue;
        }
      }
      checkWidth(record, width, reader.line - 1);
      for (let i = 0; i < width; i++) (guesses[i] as ColumnGuess).see(record[i] as string);
      rowCount++;
    }
  };
  for await (const chunk of fs.createReadStream(filePath, { highWaterMark: SCAN_CHUNK_BYTES })) take(reader.push(decoder.write(chunk as Buffer)));
  take(reader.push(decoder.end()));
  take(reader.end());
  if (width < 0) throw new CsvProblem('The CSV file is empty: it has no header and no rows.');
  const names = columnNames(header, width);
  return { columns: names.map((name, i) => ({ name, type: (guesses[i] as ColumnGuess).typeName() })), rowCount };
}

/** Calls `each` with every data record of the file, in order, reading it synchronously. */
export function forEachCsvRecord(filePath: string, withHeaders: boolean, each: (record: string[]) => void): void {
  const reader = new CsvReader();
  const decoder = new StringDecoder('utf8');
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let skipHeader = withHeaders;
  const take = (records: string[][]): void => {
    for (const record of records) {
      if (skipHeader) skipHeader = false;
      else each(record);
    }
  };
  const fd = fs.openSync(filePath, 'r');
  try {
    for (;;) {
      const read = fs.readSync(fd, buffer, 0, CHUNK_BYTES, null);
      if (read === 0) break;
      take(reader.push(decoder.write(buffer.subarray(0, read))));
    }
  } finally {
    fs.closeSync(fd);
  }
  take(reader.push(decoder.end()));
  take(reader.end());
}
