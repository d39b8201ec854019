/**
 * Writing a label into a test set file: a pure text transformation. Only the labelled case's line (for
 * CSV: its row, and the header when a label column is new) is replaced; every other byte — comments,
 * blank lines, lines that cannot be read, the order, the line breaks — stays where it was. A label is
 * written only over the expectation the caller showed: when the file says something else by now (another
 * window labelled the case), the answer is a conflict, never an overwrite.
 */
import { csvRecords } from './csvRecords';
import { LABEL_FIELDS, labelPartOf, parseTestSet, testSetFormat, type CaseLabel, type Expected, type TestCase } from './testSet';

/** A label to write on one case. */
export interface LabelEdit {
  /** The 1-based line the case starts on, as the caller read it. */
  line: number;
  /** The case's name as the caller showed it: a different case on that line now is a conflict. */
  name?: string;
  /** The expectation the caller showed (undefined: none); the file must still say this. */
  shown: Expected | undefined;
  /** The new expectation (undefined clears it). */
  expected: Expected | undefined;
  label: CaseLabel;
}

/** One replacement in the text: offsets of the old text, and the new text. */
export interface TextReplacement {
  start: number;
  end: number;
  text: string;
}

/** The labelled text and the replacements that make it, or why nothing was written. */
export type LabelResult =
  | { ok: true; text: string; replacements: TextReplacement[] }
  | { ok: false; conflict: 'missing' | 'moved' | 'changed'; message: string; current?: Expected };

/** Writes a label into a test set's text (JSONL or CSV by its file name), keeping every other byte. */
export function writeLabel(fileName: string, text: string, edit: LabelEdit): LabelResult {
  const testCase = parseTestSet(fileName, text).cases.find((c) => c.line === edit.line);
  if (!testCase) return { ok: false, conflict: 'missing', message: `Line ${edit.line} of ${fileName} is no longer a case: the file changed; reload it and label again.` };
  if (edit.name !== undefined && testCase.name !== edit.name) {
    return { ok: false, conflict: 'moved', message: `Line ${edit.line} of ${fileName} is now "${testCase.name ?? 'a case without a name'}", not "${edit.name}": the file changed; reload it and label again.` };
  }
  if (!sameExpected(testCase.expected, edit.shown)) {
    return { ok: false, conflict: 'changed', current: testCase.expected, message: `${testCase.name ?? `Line ${edit.line}`} was labelled "${expectedText(testCase.expected)}" meanwhile (you saw "${expectedText(edit.shown)}"); nothing was overwritten.` };
  }
  const replacements = testSetFormat(fileName) === 'csv' ? csvReplacements(text, testCase, edit) : [jsonlReplacement(text, edit)];
  return { ok: true, text: applyReplacements(text, replacements), replacements };
}

/** Whether two expectations say the same (outputs in any order). */
export function sameExpected(a: Expected | undefined, b: Expected | undefined): boolean {
  const norm = (e: Expected | undefined): string =>
    JSON.stringify([e?.disposition ?? null, Object.entries(e?.outputs ?? {}).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))]);
  return norm(a) === norm(b);
}

/** An expectation in a few words, for messages. */
export function expectedText(e: Expected | undefined): string {
  if (!e || (e.disposition === undefined && !e.outputs)) return 'nothing expected';
  const outputs = Object.entries(e.outputs ?? {}).map(([k, v]) => `${k}=${v}`);
  return [e.disposition, ...outputs].filter((s) => s !== undefined).join(', ');
}

/** Applies non-overlapping replacements (any order) to a text. */
export function applyReplacements(text: string, replacements: readonly TextReplacement[]): string {
  let out = text;
  for (const r of [...replacements].sort((a, b) => b.start - a.start)) out = out.slice(0, r.start) + r.text + out.slice(r.end);
  return out;
}

/** Offsets of a 1-based line's text, its line break left out. */
function lineSpan(text: string, line: number): { start: number; end: number } {
  let start = 0;
  for (let n = 1; n < line; n++) start = text.indexOf('\n', start) + 1;
  let end = text.indexOf('\n', start);
  if (end < 0) end = text.length;
  if (end > start && text[end - 1] === '\r') end--;
  return { start, end };
}

// The case's line was parsed above, so it is one JSON object; its keys keep their order and the
// expectation and label keep their place when they had one.
function jsonlReplacement(text: string, edit: LabelEdit): TextReplacement {
  const span = lineSpan(text, edit.line);
  const raw = text.slice(span.start, span.end);
  const indent = /^\s*/.exec(raw)![0];
  const object = JSON.parse(raw.trim()) as Record<string, unknown>;
  const values: [string, unknown][] = [['expected', expectedValue(edit.expected)]];
  for (const part of Object.keys(LABEL_FIELDS) as (keyof CaseLabel)[]) values.push([LABEL_FIELDS[part], edit.label[part]]);
  const out: Record<string, unknown> = {};
  // Built as entries so that a key like `__proto__` in the case stays data.
  const entries: [string, unknown][] = Object.entries(object).map(([k, v]) => {
    const set = values.find(([key]) => key === k);
    return set ? [k, set[1]] : [k, v];
  });
  for (const [k, v] of values) if (!(k in object)) entries.push([k, v]);
  for (const [k, v] of entries) if (v !== undefined) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return { start: span.start, end: span.end, text: indent + JSON.stringify(out) };
}

// The short form (a bare disposition) when that is all there is, as people write it by hand.
function expectedValue(e: Expected | undefined): unknown {
  if (!e || (e.disposition === undefined && !e.outputs)) return undefined;
  if (!e.outputs) return e.disposition;
  return e.disposition === undefined ? { outputs: e.outputs } : { disposition: e.disposition, outputs: e.outputs };
}

// A CSV row may leave trailing cells out, so a new column only touches the header and the labelled row.
function csvReplacements(text: string, testCase: TestCase, edit: LabelEdit): TextReplacement[] {
  const { records } = csvRecords(text);
  const header = records[0]!;
  const row = records.find((r) => r.line === testCase.line)!;
  const names = header.cells.map((n) => n.trim().toLowerCase());
  const headerCells = [...header.cells];
  const cells = [...row.cells];
  for (const [column, value] of csvValues(edit, names)) {
    let c = column.index;
    if (c < 0) {
      if (value === '') continue;
      c = headerCells.push(column.name) - 1;
      names.push(column.name);
    }
    while (cells.length <= c) cells.push('');
    cells[c] = value;
  }
  const replacements = [{ start: row.start, end: row.end, text: cells.map(csvCell).join(',') }];
  if (headerCells.length > header.cells.length) replacements.push({ start: header.end, end: header.end, text: `,${headerCells.slice(header.cells.length).map(csvCell).join(',')}` });
  return replacements;
}

/** Each column to set (found by its index, or -1 with the name to add) and its new value ('' clears). */
function csvValues(edit: LabelEdit, names: readonly string[]): [{ index: number; name: string }, string][] {
  const out: [{ index: number; name: string }, string][] = [];
  const dispositionIndex = names.findIndex((n) => n === 'expected' || n === 'expected.disposition' || n === 'expected_disposition');
  out.push([{ index: dispositionIndex, name: 'expected' }, edit.expected?.disposition ?? '']);
  const outputs = edit.expected?.outputs ?? {};
  const outputColumns = new Set([...names.filter((n) => n.startsWith('expected.') && n !== 'expected.disposition').map((n) => n.slice('expected.'.length)), ...Object.keys(outputs).map((k) => k.toLowerCase())]);
  for (const key of outputColumns) {
    const value = Object.entries(outputs).find(([k]) => k.toLowerCase() === key)?.[1] ?? '';
    out.push([{ index: names.indexOf(`expected.${key}`), name: `expected.${Object.keys(outputs).find((k) => k.toLowerCase() === key) ?? key}` }, value]);
  }
  for (const part of Object.keys(LABEL_FIELDS) as (keyof CaseLabel)[]) {
    out.push([{ index: names.findIndex((n) => labelPartOf(n) === part), name: LABEL_FIELDS[part] }, edit.label[part] ?? '']);
  }
  return out;
}

// Quoted only when it must be, so a hand-written file keeps its look.
function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}
