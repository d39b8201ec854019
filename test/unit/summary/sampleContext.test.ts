import * as assert from 'node:assert/strict';
import { buildSample } from '../../../src/core/summary/sampleContext';
import { renderTemplate } from '../../../src/core/summary/render';
import { missingFields, templateFields } from '../../../src/core/summary/templateFields';
import { CALL_QUALITY, policyContent, rule } from './helpers/policies';

const SOURCE = { policyId: 'p-1', policyName: 'Customer Call Quality Standard', versionName: 'Q2 update' };

describe('the sample a policy starts with', () => {
  const sample = buildSample(policyContent(CALL_QUALITY), SOURCE, CALL_QUALITY.template);

  it('takes the first classification as the disposition, and lists them all', () => {
    assert.equal(sample.disposition, 'Compliant');
    assert.equal(sample.verdict, 'Compliant');
    assert.deepEqual(sample.classification, { name: 'Compliant', description: 'No red flags.', prompt: '' });
    assert.deepEqual((sample.classifications as { name: string }[]).map((c) => c.name), ['Compliant', 'Needs Review', 'Non-Compliant']);
  });

  it('mirrors the categories and rules, green flags seen and the first red flag raised', () => {
    const categories = sample.categories as { title: string; passed: boolean; rules: { title: string; flag: string | null; passed: boolean; sub_rules: { title: string; passed: boolean }[] }[] }[];
    assert.deepEqual(categories.map((c) => [c.title, c.passed]), [['Identity verification', false], ['Resolution', true]]);
    const verifies = categories[0]!.rules[0]!;
    assert.equal(verifies.flag, 'GREEN_FLAG');
    assert.deepEqual(verifies.sub_rules.map((r) => [r.title, r.passed]), [['Asks for the account PIN', true], ['Reads out full card numbers', false]]);
    assert.equal(verifies.passed, false, 'a rule whose sub-rule raised a red flag did not pass');
    assert.equal(categories[0]!.rules[1]!.passed, true, 'only the first red flag is raised');
    assert.equal(categories[1]!.rules[1]!.flag, null);
  });

  it('lists raised red flags, seen green flags and the violations with their category and evidence', () => {
    assert.deepEqual((sample.red_flags as { title: string; category: string }[]).map((f) => [f.title, f.category]), [['Reads out full card numbers', 'Identity verification']]);
    assert.deepEqual((sample.green_flags as { title: string }[]).map((f) => f.title), ['Verifies the caller before sharing account details', 'Asks for the account PIN', 'States a concrete next step']);
    const violations = sample.violations as { rule: string; category: string; evidence: string }[];
    assert.equal(violations.length, 1);
    assert.equal(violations[0]!.rule, 'Reads out full card numbers');
    assert.match(violations[0]!.evidence, /Reads out full card numbers/);
  });

  it('names the policy, and has an agent and a job with inputs and metadata', () => {
    assert.deepEqual(sample.policy, { id: 'p-1', name: 'Customer Call Quality Standard', version: 'Q2 update' });
    assert.equal(sample.policy_name, 'Customer Call Quality Standard');
    assert.equal(sample.policy_version, 'Q2 update');
    const job = sample.job as { id: string; inputs: Record<string, unknown>; metadata: Record<string, unknown> };
    assert.ok(job.id && Object.keys(job.inputs).length && Object.keys(job.metadata).length);
    assert.equal((sample.agent as { name: string }).name, 'Sample agent');
  });

  it('renders the demo call-quality template completely, nothing printed empty', () => {
    const result = renderTemplate(CALL_QUALITY.template, sample);
    assert.ok(result.ok);
    assert.match(result.output, /^## Call review: Compliant\n\n\*\*Issues found\*\*\n- Reads out full card numbers — “Quote/);
    assert.match(result.output, /Reviewed against Customer Call Quality Standard \(Q2 update\)\.$/);
    assert.deepEqual(missingFields(templateFields(CALL_QUALITY.template)!, sample), []);
  });

  it('adds any other field its template prints, so templates of other shapes work at once', () => {
    const template = '**{{disposition}}**{{#if amount}} (${{amount}}){{/if}}\n{{#each evidence}}> {{this}}\n{{/each}}{{class}} ({{confidence}}%)';
    const withFields = buildSample(policyContent({ classifications: [{ name: 'Refund over limit' }] }), SOURCE, template);
    assert.equal(withFields.amount, '‹amount›');
    assert.deepEqual(withFields.evidence, ['‹evidence›']);
    const result = renderTemplate(template, withFields);
    assert.ok(result.ok);
    assert.equal(result.output, '**Refund over limit** ($‹amount›)\n> ‹evidence›\n‹class› (‹confidence›%)');
  });

  it('copes with a policy that has no guidelines or classifications yet, or odd content', () => {
    for (const content of [{}, null, 'text', [], { guidelines: { categories: 'none' }, dispositions: { classifications: [null, 3, { name: '' }] } }]) {
      const s = buildSample(content, {});
      assert.equal(typeof s.disposition, 'string');
      assert.ok(Array.isArray(s.categories) && Array.isArray(s.red_flags) && Array.isArray(s.violations));
    }
    const unnamed = buildSample({ dispositions: { classifications: [{ name: '' }] }, guidelines: { categories: [{ rules: [rule('')] }] } }, {});
    assert.equal(unnamed.disposition, 'Unnamed classification');
    assert.equal((unnamed.categories as { title: string }[])[0]!.title, 'Untitled category');
  });

  it('is plain JSON that survives a round trip unchanged', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(sample)), sample);
  });
});
