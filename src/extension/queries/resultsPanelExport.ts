import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ColumnKind } from '../../core/grid/columnKinds';
import { CSV, delimitedChunks, delimitedText, TSV } from '../../core/grid/delimited';
import { jsonChunks } from '../../core/grid/jsonExport';
import type { Rows } from '../../core/grid/sortOrder';

export type ExportFormat = 'csv' | 'json';

/** What an export writes: every row of one result, in the given order (the grid's sort), with column names. */
export interface ExportTable {
  names: readonly string[];
  rows: Rows;
  order?: ArrayLike<number>;
  /** Numeric columns keep negative numbers unguarded in CSV and are numbers in JSON. */
  kinds?: readonly ColumnKind[];
}

/** Copying is refused beyond this many cells (about 100 MB of text); export has no such limit. */
export const MAX_COPY_CELLS = 5_000_000;

const FILTERS: Record<ExportFormat, Record<string, string[]>> = { csv: { 'CSV (comma-separated)': ['csv'] }, json: { JSON: ['json'] } };

/** Asks where to save, proposing `query-<id>[-result-N].<format>` in the first workspace folder (else the home folder). */
export async function chooseExportTarget(queryId: string, format: ExportFormat, resultIndex: number, resultCount: number): Promise<vscode.Uri | undefined> {
  const suffix = resultCount > 1 ? `-result-${resultIndex + 1}` : '';
  const name = `query-${queryId.slice(0, 8).replace(/[^A-Za-z0-9_-]/g, '_')}${suffix}.${format}`;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
  return vscode.window.showSaveDialog({ defaultUri: vscode.Uri.joinPath(folder, name), filters: FILTERS[format], title: `Export query result as ${format.toUpperCase()}` });
}

/** A path given by a caller (tests, scripts) as a file URI; relative paths are refused rather than guessed. */
export function targetUri(targetPath: string): vscode.Uri {
  if (!path.isAbsolute(targetPath)) throw new Error(`Export needs an absolute path, not “${targetPath}”.`);
  return vscode.Uri.file(targetPath);
}

/** Writes the table to `uri` through VS Code's file system (so remote and virtual folders work); returns the bytes written. */
export async function writeExport(uri: vscode.Uri, format: ExportFormat, table: ExportTable): Promise<number> {
  const chunks = format === 'csv' ? delimitedChunks(table, CSV) : jsonChunks(table);
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (const chunk of chunks) {
    const bytes = encoder.encode(chunk);
    parts.push(bytes);
    size += bytes.length;
  }
  const content = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    content.set(part, at);
    at += part.length;
  }
  await vscode.workspace.fs.writeFile(uri, content);
  return size;
}

/** The tab-separated text of a rectangle of the grid (rows already in the grid's order); numbers of numeric columns stay numbers. */
export function copyText(names: readonly string[], rows: Rows, order: ArrayLike<number>, columns: readonly [number, number], headers: boolean, kinds?: readonly ColumnKind[]): string {
  const [left, right] = columns;
  return delimitedText({ names: headers ? names : undefined, rows, order, columns: [left, right], kinds }, TSV);
}
