import * as assert from 'node:assert/strict';
import { fillMissing, missingFields, sampleOfFields, templateFields, type FieldShape } from '../../../src/core/summary/templateFields';
import { renderTemplate } from '../../../src/core/summary/render';

function fieldsOf(template: string): FieldShape {
  const fields = templateFields(template);
  assert.ok(fields, 'the template parses');
  return fields;
}

describe('the fields a summary template reads', () => {
  it('sees printed values, conditions and lists, and samples each in a fitting form', () => {
    const sample = sampleOfFields(fieldsOf('{{disposition}}{{#if amount}} (${{amount}}){{/if}}{{#if route}}→{{/if}}{{#each evidence}}> {{this}}{{/each}}'));
    assert.deepEqual(sample, { disposition: '‹disposition›', amount: '‹amount›', route: true, evidence: ['‹evidence›'] });
  });

  it('follows fields of list items, `this.`, block parameters, `../` and `@root`', () => {
    const template = '{{#each categories as |c|}}{{c.title}}{{#each c.rules}}{{title}}{{this.flag}}{{../c.title}}{{@root.agent.name}}{{/each}}{{/each}}';
    assert.deepEqual(sampleOfFields(fieldsOf(template)), {
      categories: [{ title: '‹title›', rules: [{ title: '‹title›', flag: '‹flag›' }] }],
      agent: { name: '‹name›' },
    });
  });

  it('reads `list.length` as a list, and `with` and sections as objects', () => {
    const sample = sampleOfFields(fieldsOf('{{#if violations.length}}{{#each violations}}{{rule}}{{/each}}{{/if}}{{#with job}}{{id}}{{/with}}{{#policy}}{{name}}{{/policy}}'));
    assert.deepEqual(sample, { violations: [{ rule: '‹rule›' }], job: { id: '‹id›' }, policy: { name: '‹name›' } });
  });

  it('takes helper arguments as values but not helper names, and ignores @index and literals', () => {
    const sample = sampleOfFields(fieldsOf('{{lookup job.metadata key}}{{#each rows}}{{@index}}{{/each}}{{log "x" level="warn"}}'));
    assert.deepEqual(sample, { job: { metadata: '‹metadata›' }, key: '‹key›', rows: ['‹row›'] });
  });

  it('makes a sample that renders the template it came from with every field filled', () => {
    const template = '## {{verdict}}\n{{#if violations.length}}{{#each violations}}- {{this.rule}}: {{this.evidence}}\n{{/each}}{{else}}none{{/if}}';
    const fields = fieldsOf(template);
    const result = renderTemplate(template, sampleOfFields(fields));
    assert.ok(result.ok);
    assert.equal(result.output, '## ‹verdict›\n- ‹rule›: ‹evidence›\n');
    assert.deepEqual(missingFields(fields, sampleOfFields(fields)), []);
  });

  it('has nothing to say about a template that does not parse', () => {
    assert.equal(templateFields('{{#if}'), undefined);
  });

  describe('filling a sample', () => {
    it('adds only what the sample lacks, into nested objects and every list item', () => {
      const base = { verdict: 'OK', red_flags: [{ title: 'a' }, { title: 'b', severity: 'high' }], job: { id: '1' } };
      const extra = { verdict: '‹verdict›', amount: '‹amount›', red_flags: [{ title: '‹title›', severity: '‹severity›' }], job: { id: '‹id›', inputs: { x: '‹x›' } } };
      assert.deepEqual(fillMissing(base, extra), {
        verdict: 'OK',
        amount: '‹amount›',
        red_flags: [{ title: 'a', severity: '‹severity›' }, { title: 'b', severity: 'high' }],
        job: { id: '1', inputs: { x: '‹x›' } },
      });
    });

    it('never replaces a value the sample has, whatever its type', () => {
      assert.deepEqual(fillMissing({ evidence: 'one line', job: null }, { evidence: ['‹evidence›'], job: { id: '‹id›' } }), { evidence: 'one line', job: null });
    });
  });

  describe('fields missing from a sample', () => {
    it('lists printed fields the sample lacks, including fields of list items', () => {
      const fields = fieldsOf('{{amount}}{{#if route}}{{/if}}{{#each red_flags}}{{severity}}{{/each}}{{job.id}}');
      assert.deepEqual(missingFields(fields, { red_flags: [{ severity: 'x' }, {}], job: {} }), ['amount', 'red_flags[].severity', 'job.id']);
    });

    it('leaves out conditions, which are meant to be absent sometimes', () => {
      assert.deepEqual(missingFields(fieldsOf('{{#if route}}→ {{route_name}}{{/if}}'), {}), ['route_name']);
    });
  });
});
