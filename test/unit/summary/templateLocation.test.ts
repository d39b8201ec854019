import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { documentOffset, documentRange, findTemplate, type TemplateInDocument } from '../../../src/core/summary/templateLocation';
import { policyDocument } from './helpers/policies';

function found(text: string): TemplateInDocument {
  const lookup = findTemplate(text);
  assert.equal(lookup.kind, 'found');
  return (lookup as { found: TemplateInDocument }).found;
}

/** The template character a document offset stands for, decoded from the JSON source there. */
function decodedAt(text: string, offset: number): string {
  if (text[offset] !== '\\') return text[offset] ?? '';
  const length = text[offset + 1] === 'u' ? 6 : 2;
  return JSON.parse(`"${text.slice(offset, offset + length)}"`) as string;
}

describe('the summary template inside a policy document', () => {
  it('is found with the place of its JSON string', () => {
    const text = policyDocument({ template: 'Hi {{name}}', classifications: [{ name: 'A' }] });
    const f = found(text);
    assert.equal(f.template, 'Hi {{name}}');
    assert.equal(text.slice(f.literalOffset, f.literalOffset + f.literalLength), '"Hi {{name}}"');
    assert.equal(f.validJson, true);
  });

  it('is still found while another part of the document has a typo', () => {
    const trailingCommas = found('{ "summary_template": { "template": "{{verdict}}", }, }');
    assert.equal(trailingCommas.template, '{{verdict}}');
    assert.equal(trailingCommas.validJson, false);
    assert.equal(found('{ "instructions": "a" "summary_template": { "template": "x" } }').template, 'x');
    assert.equal(found('{ "instructions": "unfinished\n, "summary_template": { "template": "x" } }').template, 'x');
    assert.equal(found('{ "summary_template": { "template": "x" }, "guidelines": { "categories": [ { "title": } ').template, 'x');
  });

  it('says when there is no template, or when it is not a string', () => {
    assert.equal(findTemplate(policyDocument({ classifications: [] })).kind, 'missing');
    assert.equal(findTemplate('').kind, 'missing');
    const notString = findTemplate('{ "summary_template": { "template": 42 } }');
    assert.equal(notString.kind, 'notString');
  });

  it('maps template characters to the exact source characters across JSON escapes', () => {
    const template = 'Line "one"\n\ttab \\ back, caf\u00e9 and {{bad';
    const text = `{"summary_template":{"template":"Line \\"one\\"\\n\\ttab \\\\ back, caf\\u00e9 and {{bad"}}`;
    const f = found(text);
    assert.equal(f.template, template);
    const at = (i: number) => decodedAt(text, documentOffset(text, f, i));
    assert.equal(at(template.indexOf('"')), '"');
    assert.equal(at(template.indexOf('\n')), '\n');
    assert.equal(at(template.indexOf('\t')), '\t');
    assert.equal(at(template.indexOf('é')), 'é');
    assert.equal(text.slice(documentOffset(text, f, template.indexOf('{{bad')), documentOffset(text, f, template.length)), '{{bad');
  });

  it('maps every character of any template exactly (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.boolean(), (template, pretty) => {
        const text = pretty ? policyDocument({ template, classifications: [{ name: 'X' }] }) : JSON.stringify({ summary_template: { template } });
        const f = found(text);
        assert.equal(f.template, template);
        for (let i = 0; i < template.length; i++) assert.equal(decodedAt(text, documentOffset(text, f, i)), template[i], `character ${i}`);
        assert.equal(documentOffset(text, f, template.length), f.literalOffset + f.literalLength - 1, 'the end maps to the closing quote');
      }),
      { numRuns: 300 },
    );
  });

  it('gives every range at least one character, so the end of the template can be underlined', () => {
    const text = policyDocument({ template: '{{#if a}}' });
    const f = found(text);
    const range = documentRange(text, f, f.template.length, 0);
    assert.equal(range.length, 1);
    assert.equal(text[range.offset], '"');
  });
});
