import * as assert from 'node:assert/strict';
import Handlebars from 'handlebars/dist/cjs/handlebars';
import { MAX_OUTPUT_CHARS, renderTemplate, type RenderResult, type TemplateError } from '../../../src/core/summary/render';
import { XSS_PAYLOAD } from './helpers/policies';

function output(result: RenderResult): string {
  assert.ok(result.ok, `expected a render, got: ${result.ok ? '' : result.error.message}`);
  return result.output;
}

function failure(result: RenderResult): TemplateError {
  assert.ok(!result.ok, `expected an error, got output: ${result.ok ? result.output : ''}`);
  return result.error;
}

/** The template text an error points at. */
function pointedAt(template: string, error: TemplateError): string {
  return template.slice(error.offset, error.offset + error.length);
}

describe('summary template rendering', () => {
  it('renders fields, lists and conditions of the sample', () => {
    const template = '{{disposition}}{{#if amount}} (${{amount}}){{/if}}\n{{#each evidence}}> {{this}}\n{{/each}}';
    assert.equal(output(renderTemplate(template, { disposition: 'Refund over limit', amount: 180, evidence: ['a', 'b'] })), 'Refund over limit ($180)\n> a\n> b\n');
  });

  it('prints a missing field as nothing instead of failing (strict mode is off)', () => {
    assert.equal(output(renderTemplate('[{{nope}}] [{{deep.er.still}}]', {})), '[] []');
  });

  it('escapes {{double}} mustaches like the service and passes {{{triple}}} through as the raw characters', () => {
    assert.equal(output(renderTemplate('{{x}}', { x: '<b>&' })), '&lt;b&gt;&amp;');
    assert.equal(output(renderTemplate('{{{x}}}', { x: XSS_PAYLOAD })), XSS_PAYLOAD);
  });

  it('keeps prototype access disabled, so a template cannot reach constructors', () => {
    assert.equal(output(renderTemplate('[{{constructor.name}}][{{__proto__}}][{{x.constructor.constructor}}]', { x: {} })), '[][][]');
  });

  it('uses an instance of its own: helpers registered on the global Handlebars are not available', () => {
    Handlebars.registerHelper('shout', (text: string) => text.toUpperCase());
    try {
      assert.match(failure(renderTemplate('{{shout name}}', { name: 'a' })).message, /Missing helper: "shout"/);
    } finally {
      Handlebars.unregisterHelper('shout');
    }
  });

  it('cuts very long output and says so', () => {
    const result = renderTemplate('{{#each rows}}{{this}}{{/each}}', { rows: Array.from({ length: 3000 }, () => 'x'.repeat(100)) });
    assert.ok(result.ok);
    assert.equal(result.output.length, MAX_OUTPUT_CHARS);
    assert.equal(result.truncated, true);
  });

  describe('errors come with the place in the template', () => {
    it('points a syntax error at the token the parser stopped at, on the right line and column', () => {
      const template = 'Verdict: {{verdict}}\nAmount: {{amount}\nDone';
      const error = failure(renderTemplate(template, {}));
      assert.deepEqual(error.start, { line: 2, column: 17 });
      assert.equal(pointedAt(template, error), '}');
      assert.match(error.message, /^Syntax error: unexpected "}"/);
    });

    it('says a block is not closed when the template ends inside it', () => {
      const template = 'a\n{{#if x}}b';
      const error = failure(renderTemplate(template, {}));
      assert.match(error.message, /ends too early/);
      assert.deepEqual(error.start, { line: 2, column: 11 });
    });

    it('points a block closed by the wrong name at the opening helper', () => {
      const template = 'x\n  {{#each items}}\n{{/if}}';
      const error = failure(renderTemplate(template, { items: [] }));
      assert.equal(error.message, '"{{#each}}" is closed by "{{/if}}"');
      assert.equal(pointedAt(template, error), 'each');
      assert.deepEqual(error.start, { line: 2, column: 6 });
    });

    it('points a missing helper at its call, and says only built-in helpers exist here', () => {
      const template = 'Total:\n    {{currency amount}}';
      const error = failure(renderTemplate(template, { amount: 1 }));
      assert.match(error.message, /Missing helper: "currency".*built-in helpers/);
      assert.equal(pointedAt(template, error), '{{currency amount}}');
      assert.deepEqual(error.start, { line: 2, column: 5 });
    });

    it('points a runtime error at the innermost block that failed', () => {
      const template = '{{#each rows}}\n  {{#with}}x{{/with}}\n{{/each}}';
      const error = failure(renderTemplate(template, { rows: [1] }));
      assert.equal(error.message, '#with requires exactly one argument');
      assert.deepEqual(error.start, { line: 2, column: 3 });
    });

    it('points an unknown partial at where it is used', () => {
      const template = 'Header\n{{> footer}}';
      const error = failure(renderTemplate(template, {}));
      assert.match(error.message, /partial "footer" could not be found/);
      assert.equal(pointedAt(template, error), '{{> footer}}');
    });

    it('counts lines the way Handlebars does with Windows line endings too', () => {
      const template = 'one\r\ntwo\r\n{{#if}}{{/if}}';
      const error = failure(renderTemplate(template, {}));
      assert.equal(error.start.line, 3);
      assert.equal(template.slice(error.offset, error.offset + 2), '{{');
    });

    it('recovers after an error: the next good template renders', () => {
      failure(renderTemplate('{{#if}}', {}));
      assert.equal(output(renderTemplate('ok {{a}}', { a: 1 })), 'ok 1');
    });
  });
});
