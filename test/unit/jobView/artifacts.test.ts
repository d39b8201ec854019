import * as assert from 'node:assert/strict';
import { MAX_ARTIFACTS, artifactRefs, isArtifactKey } from '../../../src/core/jobView/artifacts';

const output = (key: string, value: unknown) => ({ key, value: typeof value === 'string' || value === null ? value : JSON.stringify(value) });

describe('the artifacts a job’s outputs name', () => {
  it('takes the keys of an evidence_data output, named by their field', () => {
    assert.deepEqual(artifactRefs([output('disposition', 'Compliant'), output('evidence_data', { extraction: 'agent-job-1/extraction_12.json', matched_rules: 'agent-job-1/rules.json' })]), [
      { name: 'extraction', key: 'agent-job-1/extraction_12.json' },
      { name: 'matched_rules', key: 'agent-job-1/rules.json' },
    ]);
  });

  it('takes an evidence_data output that is one key, a list of keys, or nested fields', () => {
    assert.deepEqual(artifactRefs([output('evidence_data', 'agent-job-1/a.json')]), [{ name: 'evidence_data', key: 'agent-job-1/a.json' }]);
    assert.deepEqual(artifactRefs([output('evidence_data', ['k/1.json', 'k/2.json'])]).map((a) => a.name), ['evidence_data[0]', 'evidence_data[1]']);
    assert.deepEqual(artifactRefs([output('evidence_data', { pages: { first: 'k/p1.json' } })]), [{ name: 'pages.first', key: 'k/p1.json' }]);
  });

  it('takes an evidence_data field inside another output’s JSON', () => {
    assert.deepEqual(artifactRefs([output('result', { verdict: 'ok', evidence_data: { invoice: 'agent-job-2/invoice.json' } })]), [{ name: 'invoice', key: 'agent-job-2/invoice.json' }]);
  });

  it('names each key once, whoever names it again', () => {
    const refs = artifactRefs([output('evidence_data', { a: 'k/1.json', b: 'k/1.json' }), output('other', { evidence_data: ['k/1.json'] })]);
    assert.deepEqual(refs, [{ name: 'a', key: 'k/1.json' }]);
  });

  it('ignores what is no key: text with spaces, numbers, nulls, empty strings, other outputs', () => {
    assert.deepEqual(artifactRefs([output('evidence_data', { note: 'not a key at all', n: 3, z: null, e: '' }), output('summary', 'evidence_data here'), output('x', null)]), []);
    assert.equal(isArtifactKey('a'.repeat(1024)), true);
    assert.equal(isArtifactKey('a'.repeat(1025)), false);
    assert.equal(isArtifactKey('tab\there'), false);
    assert.equal(isArtifactKey('bell\u0007'), false);
  });

  it('stops at a readable number of artifacts and a sane depth', () => {
    const many = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`f${i}`, `k/${i}.json`]));
    assert.equal(artifactRefs([output('evidence_data', many)]).length, MAX_ARTIFACTS);
    let deep: unknown = 'k/deep.json';
    for (let i = 0; i < 10; i++) deep = { d: deep };
    assert.deepEqual(artifactRefs([output('evidence_data', deep)]), []);
  });
});
