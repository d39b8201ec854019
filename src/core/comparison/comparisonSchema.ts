/**
 * The shape of a comparison file, checked whole: a file is something a user opens (a teammate's commit,
 * a download), so every case, run and batch is validated before the view, an export or a request reads it.
 * A wrong shape is one problem with its line, never a TypeError later.
 */
import * as z from 'zod/mini';
import { checkJson } from '../documents/jsonProblems';
import { positionOf } from '../textPosition';

const text = z.string();
const count = z.nullish(z.number().check(z.refine((n) => Number.isFinite(n), 'must be a finite number')));

const RunOutputSchema = z.object({
  key: text,
  value: z.nullable(text),
  data_type: z.nullish(text),
  description: z.nullish(text),
});

const RunRecordSchema = z.object({
  jobId: text,
  status: z.optional(z.int()),
  outputs: z.nullish(z.array(RunOutputSchema)),
  cost: count,
  inputTokens: count,
  outputTokens: count,
  durationMs: count,
  error: z.optional(text),
  reviewed: z.optional(text),
});

const ExpectedSchema = z.object({
  disposition: z.optional(text),
  outputs: z.optional(z.record(text, text)),
});

const CaseSchema = z.object({
  name: z.optional(text),
  line: z.int(),
  tags: z.array(text),
  inputs: z.record(text, z.unknown()),
  expected: z.optional(ExpectedSchema),
  runs: z.record(text, RunRecordSchema),
  refused: z.optional(text),
});

const targetBase = { id: z.string().check(z.minLength(1)), label: text, failed: z.optional(text) };
const TargetSchema = z.discriminatedUnion('kind', [
  z.object({ ...targetBase, kind: z.literal('version'), agentVersionId: z.string().check(z.minLength(1)) }),
  z.object({ ...targetBase, kind: z.literal('current'), agentId: z.optional(z.string().check(z.minLength(1))) }),
  z.object({ ...targetBase, kind: z.literal('baseline') }),
]);

const PendingSchema = z.object({ targetId: text, caseIndexes: z.array(z.int().check(z.minimum(0))), sentAt: text });

/** The whole record as a file holds it; cross-references (baseline, batches) are checked too. */
export const ComparisonFileSchema = z
  .object({
    kind: z.literal('agent-workbench.comparison'),
    version: z.literal(1),
    title: text,
    agentId: z.string().check(z.minLength(1)),
    agentName: z.optional(text),
    testSet: text,
    createdAt: text,
    keys: z.optional(z.array(text)),
    targets: z.array(TargetSchema).check(z.minLength(2)),
    baselineId: text,
    cases: z.array(CaseSchema),
    pending: z.optional(z.array(PendingSchema)),
  })
  .check(
    z.superRefine((record, ctx) => {
      const ids = new Set<string>();
      record.targets.forEach((t, i) => {
        if (ids.has(t.id)) ctx.issues.push({ code: 'custom', message: `a second target with the id "${t.id}"`, path: ['targets', i, 'id'], input: t.id });
        ids.add(t.id);
      });
      if (!ids.has(record.baselineId)) ctx.issues.push({ code: 'custom', message: 'names no target of this comparison', path: ['baselineId'], input: record.baselineId });
      (record.pending ?? []).forEach((p, i) => {
        if (!ids.has(p.targetId)) ctx.issues.push({ code: 'custom', message: 'names no target of this comparison', path: ['pending', i, 'targetId'], input: p.targetId });
        p.caseIndexes.forEach((c, j) => {
          if (c >= record.cases.length) ctx.issues.push({ code: 'custom', message: `there is no case ${c}`, path: ['pending', i, 'caseIndexes', j], input: c });
        });
      });
    }),
  );

/** What is wrong with a comparison file, and the line it is on (1-based). */
export class ComparisonFileProblem extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = 'ComparisonFileProblem';
  }
}

/** Validates a comparison file's text; throws the first problem with its line (the parsed value otherwise). */
export function checkComparisonText(text: string): unknown {
  const head = peek(text);
  if (head && head.kind !== 'agent-workbench.comparison') throw new ComparisonFileProblem('This is not a comparison file of Agent Workbench.', 1);
  if (head && head.version !== 1) throw new ComparisonFileProblem(`Comparison files of format ${String(head.version)} are not supported (this version reads 1).`, 1);
  const checked = checkJson(text, ComparisonFileSchema);
  if (checked.ok) return JSON.parse(text) as unknown;
  const first = checked.problems[0]!;
  const line = positionOf(text, first.offset).line;
  const more = checked.problems.length > 1 ? ` (and ${checked.problems.length - 1} more problem${checked.problems.length === 2 ? '' : 's'})` : '';
  const syntax = first.message.startsWith('JSON syntax: ');
  const what = syntax ? `is not valid JSON at line ${line}: ${first.message.slice('JSON syntax: '.length)}` : `is not valid at line ${line}: ${first.message}`;
  throw new ComparisonFileProblem(`The comparison file ${what}${more}.`, line);
}

// A file of another kind is said so plainly rather than as a list of missing fields.
function peek(text: string): { kind?: unknown; version?: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : { kind: null };
  } catch {
    return undefined;
  }
}
