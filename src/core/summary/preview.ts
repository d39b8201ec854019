import { sampleWithJob, type JobForSample } from './jobSample';
import { renderTemplate, type TemplateError } from './render';
import { buildSample, type SampleSource } from './sampleContext';
import { parseSample, type SampleProblem } from './sampleData';
import { TEMPLATE_PATH, documentRange, findTemplate } from './templateLocation';
import { missingFields, templateFields } from './templateFields';

/** A template error, also placed in the policy document (inside the JSON string). */
export interface PlacedTemplateError extends TemplateError {
  documentOffset: number;
  documentLength: number;
}

/** Everything the preview shows for one document and one sample. */
export interface RenderedSummary {
  /** Null when nothing could be rendered (no template, or a template or data error). */
  output: string | null;
  truncated: boolean;
  templateError: PlacedTemplateError | null;
  dataError: SampleProblem | null;
  /** Why there is nothing to render, when that is not an error of the template or the sample. */
  notice: string | null;
  /** Fields the template prints that the sample lacks (they come out empty). */
  missingFields: string[];
}

const TEMPLATE_FIELD = TEMPLATE_PATH.join('.');

/** Renders a document's summary template against a sample text: the whole preview in one pure step. */
export function previewSummary(documentText: string, sampleText: string): RenderedSummary {
  const empty: RenderedSummary = { output: null, truncated: false, templateError: null, dataError: null, notice: null, missingFields: [] };
  const lookup = findTemplate(documentText);
  if (lookup.kind === 'missing') return { ...empty, notice: `This document has no "${TEMPLATE_FIELD}" yet: add one to preview the summary.` };
  if (lookup.kind === 'notString') {
    const templateError: PlacedTemplateError = {
      message: `"${TEMPLATE_FIELD}" must be a string.`,
      located: true,
      offset: 0,
      length: 0,
      start: { line: 1, column: 1 },
      documentOffset: lookup.literalOffset,
      documentLength: Math.max(1, lookup.literalLength),
    };
    return { ...empty, templateError };
  }
  const { found } = lookup;
  const data = parseSample(sampleText);
  const rendered = renderTemplate(found.template, data.ok ? data.value : {});
  if (!rendered.ok) {
    const place = documentRange(documentText, found, rendered.error.offset, rendered.error.length);
    const templateError = { ...rendered.error, documentOffset: place.offset, documentLength: place.length };
    return { ...empty, templateError, dataError: data.ok ? null : data.problem };
  }
  if (!data.ok) return { ...empty, dataError: data.problem };
  const fields = templateFields(found.template);
  return { ...empty, output: rendered.output, truncated: rendered.truncated, missingFields: fields ? missingFields(fields, data.value) : [] };
}

/** The sample a policy document starts with, as the pretty JSON text the user edits. */
export function defaultSampleText(documentText: string, source: SampleSource): string {
  const lookup = findTemplate(documentText);
  const content = lookup.kind === 'found' ? lookup.found.content : lookup.content;
  const template = lookup.kind === 'found' ? lookup.found.template : undefined;
  return `${JSON.stringify(buildSample(content, source, template), null, 2)}\n`;
}

/** Whether a JSON text holds a `summary_template.template` string (for local files that are not policy documents). */
export function hasSummaryTemplate(documentText: string): boolean {
  return findTemplate(documentText).kind === 'found';
}

/**
 * The sample text after filling it from a job. An unreadable sample (being edited) is replaced by the
 * policy's default sample first, so the job always lands in a complete sample.
 */
export function sampleTextWithJob(sampleText: string, defaultText: () => string, agent: { id: string; name: string }, job: JobForSample): string {
  const current = parseSample(sampleText);
  const base = current.ok ? current.value : (parseSample(defaultText()) as { ok: true; value: unknown }).value;
  return `${JSON.stringify(sampleWithJob(base, agent, job), null, 2)}\n`;
}
