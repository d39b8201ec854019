/** A comparison as a tool answers it: the Markdown summary (figures per target, the cases that changed) and the same as data. */
import { comparisonJson, comparisonMarkdown } from '../comparison/comparisonExport';
import type { ComparisonRecord } from '../comparison/comparisonRecord';
import type { ComparisonAnswer } from './answerSchemas';

/** Most case rows in the structured form (the file has them all). */
const MAX_CASES = 100;

/** The summary of a comparison for a model: changed and failing cases first, capped. */
export function comparisonAnswer(record: ComparisonRecord): { text: string; data: ComparisonAnswer } {
  // The export's JSON, which ComparisonAnswerSchema describes (the tests check every answer against it).
  const json = JSON.parse(comparisonJson(record)) as Omit<ComparisonAnswer, 'cases_total' | 'cases_left_out'>;
  const telling = json.cases.filter((c) => c.changed || c.mismatch);
  return { text: comparisonMarkdown(record), data: { ...json, cases: telling.slice(0, MAX_CASES), cases_total: json.cases.length, cases_left_out: Math.max(0, telling.length - MAX_CASES) } };
}
