/**
 * Test sets: the cases a comparison runs, kept as a workspace file. JSONL (one case a line) or CSV
 * (one case a row). A bad line is reported with its line number and the rest is kept, so one typo
 * never hides a whole set.
 */
import { nestingProblem } from '../documents/jsonNesting';
import { relativePathProblem } from '../runs/workspacePath';
import { csvRecords } from './csvRecords';
import { jsonSyntaxErrors } from '../documents/jsonSyntax';

/** What a reviewer or the author says a case should give. */
export interface Expected {
  /** The disposition (the value of the outcome output, e.g. `disposition`). */
  disposition?: string;
  /** Output values by key. */
  outputs?: Record<string, string>;
}

/** Who labelled a case, when, and why (the `label_note`, `labelled_by`, `labelled_at` fields). */
export interface CaseLabel {
  note?: string;
  by?: string;
  /** ISO 8601 time. */
  at?: string;
}

/** The field (JSONL key or CSV column) of each part of a label. */
export const LABEL_FIELDS = { note: 'label_note', by: 'labelled_by', at: 'labelled_at' } as const;

/** One case of a test set. */
export interface TestCase {
  /** 1-based line of the file it came from. */
  line: number;
  name?: string;
  tags: string[];
  /** Inputs by input definition key; a file input is `{ "file": "relative/path" }`. */
  inputs: Record<string, unknown>;
  expected?: Expected;
  /** Who set `expected`, when, with their note (absent for a case nobody labelled here). */
  label?: CaseLabel;
  /** The past job the case was made from: its results are the "before" of a comparison. */
  sourceJobId?: string;
}

/** A line that could not be read, and why. */
export interface TestSetProblem {
  line: number;
  message: string;
}

export interface ParsedTestSet {
  cases: TestCase[];
  problems: TestSetProblem[];
}

/** Which format a test set file is in, from its name. */
export function testSetFormat(fileName: string): 'jsonl' | 'csv' | undefined {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.testset.jsonl') || lower.endsWith('.jsonl')) return 'jsonl';
  if (lower.endsWith('.testset.csv') || lower.endsWith('.csv')) return 'csv';
  return undefined;
}

/** Parses a test set in the format its file name says. */
export function parseTestSet(fileName: string, text: string): ParsedTestSet {
  return testSetFormat(fileName) === 'csv' ? parseCsvTestSet(text) : parseJsonlTestSet(text);
}

/** One JSON object a line; blank lines and lines starting with `//` are skipped. */
export function parseJsonlTestSet(text: string): ParsedTestSet {
  const cases: TestCase[] = [];
  const problems: TestSetProblem[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = i + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('//')) return;
    const deep = nestingProblem(trimmed);
    if (deep) {
      problems.push({ line, message: deep.message });
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (e) {
      const where = jsonSyntaxErrors(trimmed)[0];
      const said = where ? `column ${where.start.column + raw.indexOf(trimmed)}: ${where.words}` : e instanceof Error ? e.message : String(e);
      problems.push({ line, message: `Not valid JSON: ${said}` });
      return;
    }
    const parsed = caseFromObject(value, line);
    if (typeof parsed === 'string') problems.push({ line, message: parsed });
    else cases.push(parsed);
  });
  return { cases, problems };
}

/** Column names of a CSV test set with a meaning of their own; every other column is an input. */
const NAME_COLUMN = 'name';
const TAGS_COLUMN = 'tags';
const SOURCE_COLUMN = 'source_job_id';
const EXPECTED_DISPOSITION = ['expected', 'expected.disposition', 'expected_disposition'];
const EXPECTED_OUTPUT_PREFIX = 'expected.';

/**
 * A header row, then a case a row. `name`, `tags` (separated by `;`), `source_job_id`, `expected`
 * (the disposition) and `expected.<output key>` have their own meaning; every other column is an input,
 * and an empty cell leaves that input out.
 */
export function parseCsvTestSet(text: string): ParsedTestSet {
  const { records, problems } = csvRecords(text);
  const [header, ...rows] = records;
  if (!header) return { cases: [], problems };
  const names = header.cells.map((n) => n.trim());
  // What each column means, decided once for the header rather than for every cell.
  const roles = names.map((name) => {
    const lower = name.toLowerCase();
    if (lower === NAME_COLUMN || lower === TAGS_COLUMN || lower === SOURCE_COLUMN) return lower;
    const labelPart = labelPartOf(lower);
    if (labelPart) return `label.${labelPart}`;
    if (EXPECTED_DISPOSITION.includes(lower)) return 'disposition';
    return lower.startsWith(EXPECTED_OUTPUT_PREFIX) ? 'output' : 'input';
  });
  const cases: TestCase[] = [];
  for (const { cells: record, line } of rows) {
    if (record.length > names.length) {
      problems.push({ line, message: `${record.length} cells, but the header names ${names.length} columns` });
      continue;
    }
    const testCase: TestCase = { line, tags: [], inputs: {} };
    const expected: Expected = {};
    // Collected as entries: a column named `__proto__` or `constructor` is an input like any other.
    const inputs: [string, string][] = [];
    const outputs: [string, string][] = [];
    record.forEach((cell, c) => {
      const name = names[c] ?? '';
      if (cell === '') return;
      const role = roles[c];
      if (role === NAME_COLUMN) testCase.name = cell;
      else if (role === TAGS_COLUMN) testCase.tags = splitTags(cell);
      else if (role === SOURCE_COLUMN) testCase.sourceJobId = cell;
      else if (role === 'disposition') expected.disposition = cell;
      else if (role?.startsWith('label.')) testCase.label = { ...testCase.label, [role.slice('label.'.length)]: cell };
      else if (role === 'output') outputs.push([name.slice(EXPECTED_OUTPUT_PREFIX.length), cell]);
      else inputs.push([name, cell]);
    });
    testCase.inputs = Object.fromEntries(inputs);
    if (outputs.length) expected.outputs = Object.fromEntries(outputs);
    if (expected.disposition !== undefined || expected.outputs) testCase.expected = expected;
    if (inputs.length === 0) problems.push({ line, message: 'The row has no inputs' });
    else cases.push(testCase);
  }
  problems.sort((a, b) => a.line - b.line);
  return { cases, problems };
}

function splitTags(cell: string): string[] {
  return cell
    .split(/[;,]/)
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

/** A case from one JSONL object, or why it is not one. */
function caseFromObject(value: unknown, line: number): TestCase | string {
  if (!isRecord(value)) return 'Each line must be a JSON object';
  if (!isRecord(value.inputs)) return 'Missing "inputs": an object of inputs by key';
  for (const [key, input] of Object.entries(value.inputs)) {
    // A shared test set names files of the workspace only: a case naming any other is left out, never sent.
    const file = isRecord(input) ? input.file : undefined;
    const problem = typeof file === 'string' ? relativePathProblem(file) : undefined;
    if (problem) return `Input "${key}": ${problem}; the case is left out`;
  }
  const testCase: TestCase = { line, tags: [], inputs: { ...value.inputs } };
  if (value.name !== undefined) {
    if (typeof value.name !== 'string') return '"name" must be text';
    testCase.name = value.name;
  }
  if (value.tags !== undefined) {
    if (!Array.isArray(value.tags) || !value.tags.every((t) => typeof t === 'string')) return '"tags" must be a list of texts';
    testCase.tags = value.tags;
  }
  if (value.source_job_id !== undefined && value.source_job_id !== null) {
    if (typeof value.source_job_id !== 'string') return '"source_job_id" must be text';
    testCase.sourceJobId = value.source_job_id;
  }
  if (value.expected !== undefined && value.expected !== null) {
    const expected = expectedFrom(value.expected);
    if (typeof expected === 'string') return expected;
    testCase.expected = expected;
  }
  const label = labelFrom(value);
  if (label) testCase.label = label;
  return testCase;
}

/** The part of a label a field (key or column) holds, if it is one of {@link LABEL_FIELDS}. */
export function labelPartOf(field: string): keyof CaseLabel | undefined {
  const lower = field.trim().toLowerCase();
  return (Object.keys(LABEL_FIELDS) as (keyof CaseLabel)[]).find((part) => LABEL_FIELDS[part] === lower);
}

// Label fields are notes for people: a value that is not text is ignored rather than costing the case.
function labelFrom(value: Record<string, unknown>): CaseLabel | undefined {
  const label: CaseLabel = {};
  for (const part of Object.keys(LABEL_FIELDS) as (keyof CaseLabel)[]) {
    const v = value[LABEL_FIELDS[part]];
    if (typeof v === 'string') label[part] = v;
  }
  return Object.keys(label).length > 0 ? label : undefined;
}

function expectedFrom(value: unknown): Expected | string {
  if (typeof value === 'string') return { disposition: value };
  if (!isRecord(value)) return '"expected" must be a disposition or an object { "disposition", "outputs" }';
  const expected: Expected = {};
  if (value.disposition !== undefined && value.disposition !== null) {
    if (typeof value.disposition !== 'string') return '"expected.disposition" must be text';
    expected.disposition = value.disposition;
  }
  if (value.outputs !== undefined && value.outputs !== null) {
    if (!isRecord(value.outputs)) return '"expected.outputs" must be an object of output values by key';
    expected.outputs = Object.fromEntries(Object.entries(value.outputs).map(([key, v]) => [key, typeof v === 'string' ? v : JSON.stringify(v)]));
  }
  return expected;
}

/** One case as a JSONL line (the form "Create Test Set from Jobs" writes). */
export function testCaseLine(testCase: Omit<TestCase, 'line'>): string {
  const out: Record<string, unknown> = {};
  if (testCase.name !== undefined) out.name = testCase.name;
  if (testCase.tags.length > 0) out.tags = testCase.tags;
  out.inputs = testCase.inputs;
  if (testCase.expected) out.expected = testCase.expected;
  if (testCase.sourceJobId !== undefined) out.source_job_id = testCase.sourceJobId;
  return JSON.stringify(out);
}

/** A label for a case in lists and reports: its name, else its line. */
export function caseLabel(testCase: Pick<TestCase, 'name' | 'line'>): string {
  return testCase.name ?? `line ${testCase.line}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
