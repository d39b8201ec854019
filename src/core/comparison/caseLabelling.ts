/**
 * Labelling a case where its outputs are compared: what "This Is Right" on a target's cell makes the
 * case expect, the choices of "Set Expected…", the label edit for the test set, and taking the test
 * set's labels back into an open comparison (the test set is where labels live; the comparison keeps a
 * copy, which follows the file).
 */
import * as path from 'node:path';
import { isInsideFolder } from '../runs/workspacePath';
import { outputValue, sameOutcome, targetRunState } from './compare';
import { runOf, type ComparisonCase, type ComparisonRecord } from './comparisonRecord';
import type { LabelEdit } from './testSetLabel';
import { sameExpected } from './testSetLabel';
import { parseTestSet, type CaseLabel, type Expected } from './testSet';

/** What the case expects once a target's finished cell is called right: its outcome, and its values of the other outputs the case already expects. */
export function expectedFromCell(record: ComparisonRecord, caseIndex: number, targetIndex: number): Expected | undefined {
  const c = record.cases[caseIndex];
  const target = record.targets[targetIndex];
  if (!c || !target) return undefined;
  const run = runOf(c, target.id);
  if (targetRunState(target, run, c.refused) !== 'done') return undefined;
  const outcome = outputValue(run, record.keys[0]!);
  if (outcome === null) return undefined;
  const expected: Expected = { disposition: outcome };
  const outputs = Object.entries(c.expected?.outputs ?? {});
  if (outputs.length) expected.outputs = Object.fromEntries(outputs.map(([key, value]) => [key, outputValue(run, key) ?? value]));
  return expected;
}

/**
 * The expectation with one compared output set (`keyIndex` 0 is the outcome, the disposition) or
 * cleared (`value` undefined); the rest of what the case expects stays.
 */
export function expectedWith(current: Expected | undefined, keys: readonly string[], keyIndex: number, value: string | undefined): Expected | undefined {
  const next: Expected = { ...current, outputs: { ...current?.outputs } };
  if (keyIndex === 0) next.disposition = value;
  else if (value === undefined) delete next.outputs![keys[keyIndex]!];
  else next.outputs![keys[keyIndex]!] = value;
  if (next.disposition === undefined) delete next.disposition;
  if (Object.keys(next.outputs!).length === 0) delete next.outputs;
  return next.disposition === undefined && !next.outputs ? undefined : next;
}

/** The edit that writes a label on a comparison's case, over the expectation the comparison shows for it. */
export function caseLabelEdit(record: ComparisonRecord, caseIndex: number, expected: Expected | undefined, label: CaseLabel): LabelEdit {
  const c = record.cases[caseIndex]!;
  return { line: c.line, name: c.name, shown: c.expected, expected, label };
}

/**
 * Takes the test set's current expectations into the comparison's cases (a case is found by its line
 * and name; one the file no longer has there keeps what it had). Answers the indexes that changed.
 */
export function syncExpectations(record: ComparisonRecord, fileName: string, text: string): number[] {
  const byLine = new Map(parseTestSet(fileName, text).cases.map((c) => [c.line, c]));
  const changed: number[] = [];
  record.cases.forEach((c, i) => {
    const now = byLine.get(c.line);
    if (!now || now.name !== c.name || sameExpected(c.expected, now.expected)) return;
    if (now.expected) c.expected = now.expected;
    else delete c.expected;
    changed.push(i);
  });
  return changed;
}

/** A reviewer's correction the service records for a job of the case (the one it was made from), and whether the case's label says otherwise. */
export function caseReview(c: Pick<ComparisonCase, 'runs' | 'expected'>): { verdict: string; disagrees: boolean } | undefined {
  const verdict = Object.values(c.runs).find((run) => run.reviewed !== undefined)?.reviewed;
  if (verdict === undefined) return undefined;
  const expected = c.expected?.disposition;
  return { verdict, disagrees: expected !== undefined && !sameOutcome(expected, verdict) };
}

/** The dispositions a policy's content names (`dispositions.classifications[].name`), once each, in order. */
export function policyDispositions(content: unknown): string[] {
  const dispositions = isObject(content) ? content.dispositions : undefined;
  const classifications = isObject(dispositions) && Array.isArray(dispositions.classifications) ? (dispositions.classifications as unknown[]) : [];
  const names = classifications.flatMap((c) => (isObject(c) && typeof c.name === 'string' && c.name.trim() !== '' ? [c.name.trim()] : []));
  return [...new Set(names)];
}

/** One choice of Set Expected… on a case's outcome. */
export interface DispositionChoice {
  value: string;
  /** Whether the policy names it. */
  inPolicy: boolean;
  /** The targets that gave it for this case. */
  givenBy: string[];
  /** Whether it is what the case expects now. */
  current: boolean;
  /** Whether a reviewer corrected the case's job to it (see {@link caseReview}). */
  reviewed: boolean;
}

/** The policy's dispositions, then the outcomes the targets gave for the case that the policy does not name. */
export function dispositionChoices(record: ComparisonRecord, caseIndex: number, dispositions: readonly string[]): DispositionChoice[] {
  const c = record.cases[caseIndex];
  if (!c) return [];
  const given = new Map<string, string[]>();
  for (const target of record.targets) {
    const run = runOf(c, target.id);
    const value = targetRunState(target, run, c.refused) === 'done' ? outputValue(run, record.keys[0]!) : null;
    if (value !== null) given.set(value, [...(given.get(value) ?? []), target.label]);
  }
  const reviewed = caseReview(c)?.verdict;
  const values = [...dispositions, ...[...given.keys()].filter((v) => !dispositions.some((d) => sameOutcome(d, v)))];
  return values.map((value) => ({
    value,
    inPolicy: dispositions.includes(value),
    givenBy: [...given].filter(([v]) => sameOutcome(v, value)).flatMap(([, labels]) => labels),
    current: c.expected?.disposition !== undefined && sameOutcome(c.expected.disposition, value),
    reviewed: reviewed !== undefined && sameOutcome(reviewed, value),
  }));
}

/** The dispositions a labelling pass numbers: the policy's, then every other outcome a target gave in the comparison. */
export function passDispositions(record: ComparisonRecord, dispositions: readonly string[]): string[] {
  const seen = new Set(dispositions.map((d) => d.trim().toLowerCase()));
  const out = [...dispositions];
  for (const c of record.cases) {
    for (const target of record.targets) {
      const run = runOf(c, target.id);
      const value = targetRunState(target, run, c.refused) === 'done' ? outputValue(run, record.keys[0]!) : null;
      if (value === null || value.trim() === '' || seen.has(value.trim().toLowerCase())) continue;
      seen.add(value.trim().toLowerCase());
      out.push(value);
    }
  }
  return out;
}

/** A case's inputs as text by key, for the labelling pass (a file input by its path, long text cut). */
export function inputTexts(record: ComparisonRecord, caseIndex: number, maxChars = 20_000): [string, string][] {
  const inputs = record.cases[caseIndex]?.inputs ?? {};
  return Object.entries(inputs).map(([key, value]) => {
    const text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
    return [key, text.length > maxChars ? `${text.slice(0, maxChars)}…` : text];
  });
}

/** The test set file of a comparison (its path is relative to the comparison's folder), or why it cannot be written: outside every workspace folder, or not a test set. */
export function testSetFileOf(comparisonFile: string, testSet: string, workspaceFolders: readonly string[]): { ok: true; path: string } | { ok: false; reason: string } {
  const file = path.resolve(path.dirname(comparisonFile), testSet);
  if (!/\.testset\.(jsonl|csv)$/i.test(file)) return { ok: false, reason: `The comparison names "${testSet}" as its test set, which is not a *.testset.jsonl or *.testset.csv file: labels are written into test sets only.` };
  if (!workspaceFolders.some((folder) => isInsideFolder(folder, file))) return { ok: false, reason: `The comparison's test set "${testSet}" is outside the workspace folders: labels are written into the workspace's own files only.` };
  return { ok: true, path: file };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
