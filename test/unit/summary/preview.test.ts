import * as assert from 'node:assert/strict';
import { defaultSampleText, hasSummaryTemplate, previewSummary } from '../../../src/core/summary/preview';
import { CALL_QUALITY, XSS_PAYLOAD, policyDocument } from './helpers/policies';

describe('the summary preview of a policy document', () => {
  const document = policyDocument(CALL_QUALITY);
  const sample = defaultSampleText(document, { policyId: 'p', policyName: 'Call Quality', versionName: 'v2' });

  it('renders the template against the default sample, nothing missing', () => {
    const preview = previewSummary(document, sample);
    assert.equal(preview.templateError, null);
    assert.equal(preview.dataError, null);
    assert.match(preview.output ?? '', /^## Call review: Compliant/);
    assert.match(preview.output ?? '', /Reviewed against Call Quality \(v2\)/);
    assert.deepEqual(preview.missingFields, []);
  });

  it('is built as pretty JSON the user can edit', () => {
    assert.ok(sample.startsWith('{\n  "disposition": "Compliant",'));
    assert.ok(sample.endsWith('}\n'));
  });

  it('places a template error on the exact characters inside the JSON string', () => {
    const broken = policyDocument({ ...CALL_QUALITY, template: 'Line one\n"Quoted" {{#each violations}}\n- {{rule}}\n{{/if}}' });
    const preview = previewSummary(broken, sample);
    assert.equal(preview.output, null);
    const error = preview.templateError;
    assert.ok(error);
    assert.equal(error.message, '"{{#each}}" is closed by "{{/if}}"');
    assert.deepEqual(error.start, { line: 2, column: 13 });
    assert.equal(broken.slice(error.documentOffset, error.documentOffset + error.documentLength), 'each');
    // The place is after escaped characters (\n and \") of the JSON string, so escapes were walked.
    assert.ok(broken.slice(0, error.documentOffset).endsWith('\\n\\"Quoted\\" {{#'));
  });

  it('shows a sample data error with its line and column, and still checks the template', () => {
    const preview = previewSummary(document, '{\n  "verdict": \n}');
    assert.equal(preview.output, null);
    assert.equal(preview.templateError, null);
    assert.deepEqual(preview.dataError?.start, { line: 3, column: 1 });
    const both = previewSummary(policyDocument({ template: '{{#if}}' }), '{');
    assert.ok(both.templateError && both.dataError);
  });

  it('says what to do when the document has no template, and underlines a template that is not text', () => {
    assert.match(previewSummary(policyDocument({ classifications: [] }), '{}').notice ?? '', /no "summary_template.template" yet/);
    const text = '{ "summary_template": { "template": ["a"] } }';
    const preview = previewSummary(text, '{}');
    assert.equal(preview.templateError?.message, '"summary_template.template" must be a string.');
    assert.equal(text.slice(preview.templateError.documentOffset, preview.templateError.documentOffset + preview.templateError.documentLength), '["a"]');
  });

  it('lists the fields the template prints that the sample lacks', () => {
    const preview = previewSummary(policyDocument({ template: '{{verdict}} {{amount}} {{#each violations}}{{severity}}{{/each}}' }), '{"verdict":"ok","violations":[{}]}');
    assert.deepEqual(preview.missingFields, ['amount', 'violations[].severity']);
  });

  it('renders a script payload of the sample as the characters themselves', () => {
    const preview = previewSummary(policyDocument({ template: 'A {{{payload}}} B {{payload}}' }), JSON.stringify({ payload: XSS_PAYLOAD }));
    assert.ok(preview.output?.startsWith(`A ${XSS_PAYLOAD} B &lt;script&gt;`));
  });

  it('knows a local JSON file with a template from one without', () => {
    assert.equal(hasSummaryTemplate(policyDocument({ template: 'x' })), true);
    assert.equal(hasSummaryTemplate('{"summary_template": {"template": 1}}'), false);
    assert.equal(hasSummaryTemplate('{"name": "package"}'), false);
  });
});
