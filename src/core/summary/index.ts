/**
 * The summary preview's engine (Handlebars, the JSON reading and the sample builder), bundled apart as
 * `dist/summary.js` and loaded only when a preview opens: activation never pays for Handlebars.
 */
export { defaultSampleText, hasSummaryTemplate, previewSummary, sampleTextWithJob, type PlacedTemplateError, type RenderedSummary } from './preview';
export { renderTemplate, type RenderResult, type TemplateError } from './render';
export { buildSample, type SampleSource, type SummarySample } from './sampleContext';
export { parseSample, type SampleProblem } from './sampleData';
export { sampleWithJob, type JobForSample } from './jobSample';
export { documentOffset, documentRange, findTemplate, type TemplateInDocument } from './templateLocation';
export { fillMissing, missingFields, sampleOfFields, templateFields, type FieldShape } from './templateFields';
