import * as assert from 'node:assert/strict';
import { FaultBook, compilePath } from '../../../src/sandbox/faults/faultBook';
import { type FaultRule, readFaultRules } from '../../../src/sandbox/faults/rules';

describe('fault rules', () => {
  describe('checking', () => {
    it('accepts every kind with its options, and keeps a copy the caller cannot change afterwards', () => {
      const given: FaultRule[] = [
        { path: '/v1/agents/', kind: 'latency', ms: 250 },
        { path: '/v1/agents/*/', method: 'put', kind: 'status', status: 502, after: true, rate: 0.5, seed: 7, count: 3 },
        { path: '/v1/agents/', kind: 'status', status: 429, retryAfter: 2, body: { detail: 'slow down' } },
        { path: '/v1/datasets/files/upload/', kind: 'reset', when: 'upload', bytes: 1024 },
        { path: '/v1/policies/*/versions/', kind: 'reset', after: true, bytes: 0 },
        { path: '/**', kind: 'truncate' },
        { path: '/**', kind: 'malformed' },
        { path: '/**', kind: 'wrongTypes', remove: 'name' },
        { path: '/**', kind: 'huge', field: 'description', bytes: 1000 },
        { path: '/**', kind: 'html', status: 200, after: true },
        { path: '^/v1/(agents|policies)/$', kind: 'foreignNext', origin: 'https://proxy.example:8443' },
      ];
      const rules = readFaultRules(given);
      assert.deepEqual(rules, given);
      (given[0] as { ms: number }).ms = 1;
      assert.equal((rules[0] as { ms: number }).ms, 250);
    });

    it('names the rule and the field of the first problem', () => {
      const problems: [unknown, RegExp][] = [
        [[{ path: '/x/', kind: 'explode' }], /^faults\[0\]\.kind: expected one of latency, status, reset/],
        [[{ path: '/x/', kind: 'truncate' }, { path: 'v1/agents', kind: 'truncate' }], /^faults\[1\]\.path: a glob starts with "\/"/],
        [[{ path: '^([', kind: 'truncate' }], /^faults\[0\]\.path: not a valid regular expression/],
        [[{ path: '/x/', kind: 'truncate', rate: 1.5 }], /^faults\[0\]\.rate: expected a number from 0 to 1, got 1\.5/],
        [[{ path: '/x/', kind: 'truncate', count: 0 }], /^faults\[0\]\.count: expected a whole number from 1/],
        [[{ path: '/x/', kind: 'latency' }], /^faults\[0\]\.ms: required/],
        [[{ path: '/x/', kind: 'status', status: 302 }], /^faults\[0\]\.status: expected a whole number from 400 to 599/],
        [[{ path: '/x/', kind: 'status', status: 500, after: 'yes' }], /^faults\[0\]\.after: expected true or false/],
        [[{ path: '/x/', kind: 'reset', when: 'upload', after: true }], /^faults\[0\]\.after: an upload is cut before the operation can finish/],
        [[{ path: '/x/', kind: 'reset', when: 'later' }], /^faults\[0\]\.when: not a valid value/],
        [[{ path: '/x/', kind: 'huge', bytes: 1e12 }], /^faults\[0\]\.bytes: expected a whole number from 1 to 104857600/],
        [[{ path: '/x/', kind: 'foreignNext', origin: 'ftp://x' }], /^faults\[0\]\.origin: expected an origin/],
        [[{ path: '/x/', kind: 'foreignNext', origin: 'http://x/with/path' }], /^faults\[0\]\.origin: expected an origin/],
        [[{ path: '/x/', kind: 'insert', item: {}, copy: 1 }], /^faults\[0\]\.copy: give either "item" or "copy", not both/],
        [[{ path: '/x/', kind: 'insert', at: -1 }], /^faults\[0\]\.at: expected a whole number from 0 to 10000/],
        [[{ path: '/x/', kind: 'truncate', after: true }], /^faults\[0\]\.after: not an option of a "truncate" fault/],
        [['/x/'], /^faults\[0\]: expected an object/],
      ];
      for (const [value, message] of problems) assert.throws(() => readFaultRules(value), { message }, JSON.stringify(value));
    });
  });

  describe('paths', () => {
    it('matches a glob where * is one segment and ** any number, with or without the trailing slash', () => {
      const versions = compilePath('/v1/policies/*/versions/');
      assert.ok(versions('/v1/policies/7c1e/versions/'));
      assert.ok(versions('/v1/policies/7c1e/versions'));
      assert.ok(!versions('/v1/policies/7c1e/versions/8d2f/'));
      assert.ok(!versions('/v1/policies/versions/'));
      const anyAgent = compilePath('/v1/agents/**');
      assert.ok(anyAgent('/v1/agents/'));
      assert.ok(anyAgent('/v1/agents/a/versions/b/'));
      assert.ok(!anyAgent('/v1/policies/'));
      const jobsOfAny = compilePath('/v1/agents/**/jobs/');
      assert.ok(jobsOfAny('/v1/agents/a/jobs/') && jobsOfAny('/v1/agents/jobs/'));
    });

    it('reads a pattern starting with ^ as a regular expression and takes dots in globs literally', () => {
      const regex = compilePath('^/v1/(agents|policies)/$');
      assert.ok(regex('/v1/agents/') && regex('/v1/policies/'));
      assert.ok(!regex('/v1/agents'));
      const dotted = compilePath('/v1/files/a.b/');
      assert.ok(dotted('/v1/files/a.b/'));
      assert.ok(!dotted('/v1/files/axb/'));
    });
  });

  describe('the book', () => {
    it('applies a rule only to its method and path, and a count only to that many requests', () => {
      const book = new FaultBook([{ path: '/v1/agents/*/', method: 'PUT', kind: 'status', status: 500, count: 2 }]);
      assert.equal(book.plan('GET', '/v1/agents/a/'), undefined);
      assert.equal(book.plan('PUT', '/v1/agents/'), undefined);
      assert.equal(book.plan('put', '/v1/agents/a/')?.fault?.rule.kind, 'status');
      assert.ok(book.plan('PUT', '/v1/agents/b/')?.fault);
      assert.equal(book.plan('PUT', '/v1/agents/c/'), undefined, 'spent after two');
      assert.deepEqual(book.report().map((r) => [r.hits, r.remaining]), [[2, 0]]);
    });

    it('applies a rule scoped to a token only to requests bearing that token', () => {
      const book = new FaultBook(readFaultRules([{ path: '/v1/**', kind: 'status', status: 401, token: 'revoked-token' }]));
      assert.equal(book.plan('GET', '/v1/agents/', 'revoked-token')?.fault?.rule.kind, 'status');
      assert.equal(book.plan('GET', '/v1/agents/', 'other-token'), undefined);
      assert.equal(book.plan('GET', '/v1/agents/'), undefined, 'no token');
      assert.throws(() => readFaultRules({ path: '/v1/**', kind: 'status', status: 401, token: 'has space' }), /token/);
    });

    it('adds up latencies and applies the first other rule that matches', () => {
      const book = new FaultBook([
        { path: '/**', kind: 'latency', ms: 100 },
        { path: '/v1/agents/', kind: 'truncate' },
        { path: '/**', kind: 'malformed' },
        { path: '/v1/**', kind: 'latency', ms: 50 },
      ]);
      const plan = book.plan('GET', '/v1/agents/');
      assert.equal(plan?.delayMs, 150);
      assert.equal(plan?.fault?.rule.kind, 'truncate');
      assert.equal(book.plan('GET', '/v1/policies/')?.fault?.rule.kind, 'malformed');
      assert.deepEqual(book.report().map((r) => r.hits), [2, 1, 1, 2]);
    });

    it('gives a hit and its count back when a fault turns out not to apply', () => {
      const book = new FaultBook([{ path: '/**', kind: 'foreignNext', count: 1 }]);
      book.plan('GET', '/v1/agents/')!.fault!.release();
      assert.deepEqual(book.report().map((r) => [r.hits, r.remaining]), [[0, 1]]);
      assert.ok(book.plan('GET', '/v1/agents/')?.fault);
    });

    it('picks about the given share of requests, and the same ones for the same seed', () => {
      const picks = (seed: number) => {
        const book = new FaultBook([{ path: '/**', kind: 'status', status: 503, rate: 0.3, seed }]);
        return Array.from({ length: 1000 }, () => (book.plan('GET', '/v1/agents/') ? 1 : 0)).join('');
      };
      const first = picks(11);
      const share = [...first].filter((c) => c === '1').length / 1000;
      assert.ok(share > 0.25 && share < 0.35, `share ${share}`);
      assert.equal(picks(11), first);
      assert.notEqual(picks(12), first);
    });

    it('keeps the old rules when new ones are refused, and is off once cleared', () => {
      const book = new FaultBook([{ path: '/**', kind: 'truncate' }]);
      assert.throws(() => book.set([{ path: '/**', kind: 'latency' } as unknown as FaultRule]), /ms: required/);
      assert.ok(book.active);
      book.clear();
      assert.equal(book.plan('GET', '/v1/agents/'), undefined);
      assert.ok(!book.active);
    });
  });
});
