// The checks that run while typing, one row per checker: the largest document of a hostile but
// plausible shape it checks within 50 ms (median of a few runs), in plain Node on the bundles the
// extension loads (dist/core.js, dist/sql.js). Each checker's size cap (LIVE_CHECK_MAX_CHARS) must be
// at most that size: above the cap the document is plain text, so no document blocks the host longer.
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { repoRoot } from '../../test/harness/index.mjs';
import { LIVE_CHECK_MAX_CHARS, type LiveCheckKind } from '../../src/core/documents/checkBudget';
import type { Figure } from '../lib/figures';
import type { CoreBundle } from '../lib/services';
import { median, round } from '../lib/stats';

type SqlBundle = typeof import('../../src/core/sql/index');

const BUDGET_MS = 50;
const RUNS = 7;
const AGENT = '11111111-2222-4333-8444-555555555555';

interface Checker {
  kind: LiveCheckKind;
  title: string;
  shape: string;
  /** A document of about `n` units (input sets, rows, joins…). */
  document(n: number): string;
  check(text: string): Promise<unknown>;
}

/** One row per checker: the largest document checked within the budget, against the checker's cap. */
export async function liveChecks(core: CoreBundle): Promise<Figure[]> {
  const sql = createRequire(path.join(repoRoot, 'package.json'))(path.join(repoRoot, 'dist', 'sql.js')) as SqlBundle;
  const catalog = new sql.SqlCatalog([{ name: 'calls', columns: [{ name: 'id', type: 'UInt64' }] }]);
  const definitions = [{ key: 'transcript', data_type: 'text/plain' }];
  const ctx = { baseDir: '/work/space', fileKind: () => Promise.resolve('file' as const) };
  const checkers: Checker[] = [
    {
      kind: 'runs',
      title: 'run file',
      shape: 'a batch of input sets, each with a value of the wrong type (a problem per set)',
      document: (n) => JSON.stringify({ agent: AGENT, inputs: Array.from({ length: n }, (_, i) => ({ transcript: i })) }),
      check: async (text) => {
        const parsed = core.parseRunFile(text);
        if (parsed.file) await core.checkRun(text, parsed.file, definitions, ctx);
      },
    },
    {
      kind: 'testSets',
      title: 'test set (CSV)',
      shape: 'rows of three inputs, one of them an input the agent does not take',
      document: (n) => `transcript,language,extra\n${Array.from({ length: n }, (_, i) => `"Agent: hello, call ${i}",en,x`).join('\n')}\n`,
      check: (text) => Promise.resolve(core.checkTestSet('x.testset.csv', text, ['transcript', 'language'])),
    },
    {
      kind: 'json',
      title: 'policy version',
      shape: 'a policy whose guidelines hold n fields of the wrong type',
      document: (n) => JSON.stringify({ guidelines: Object.fromEntries(Array.from({ length: n }, (_, i) => [`field_${i}`, i])) }, null, 2),
      check: (text) => Promise.resolve(core.checkJson(text, core.PolicyContentSchema)),
    },
    {
      kind: 'sql',
      title: 'SQL',
      shape: 'one SELECT with n JOINs of unknown tables, checked, then completed at its end',
      document: (n) => `SELECT * FROM calls ${Array.from({ length: n }, (_, i) => `JOIN t${i} ON calls.id = t${i}.id`).join(' ')}`,
      check: (text) => Promise.resolve([sql.unknownTables(text, catalog), sql.sqlCompletions(text, text.length, catalog)]),
    },
  ];
  const figures: Figure[] = [];
  for (const checker of checkers) {
    const { chars, ms, units } = await largestWithin(checker);
    const cap = LIVE_CHECK_MAX_CHARS[checker.kind];
    figures.push({
      key: `liveChecks.${checker.kind}`,
      title: `check while typing: ${checker.title}, largest document within ${BUDGET_MS} ms`,
      ours: `${chars.toLocaleString('en-US')} characters`,
      reference: `cap ${cap.toLocaleString('en-US')}`,
      ratio: round(chars / cap, 2),
      budget: `≥ the cap (above it: plain text)`,
      within: chars >= cap,
      method: `Documents doubling in size, then bisected (${checker.shape}); each checked ${RUNS} times through the bundle, the median compared with ${BUDGET_MS} ms. The largest within: ${units} units, ${round(ms, 1)} ms.`,
      values: { chars, ms: round(ms, 2), units, cap },
    });
  }
  return figures;
}

async function largestWithin(checker: Checker): Promise<{ chars: number; ms: number; units: number }> {
  const measure = async (n: number): Promise<{ chars: number; ms: number; units: number }> => {
    const text = checker.document(n);
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      await checker.check(text);
      samples.push(performance.now() - start);
    }
    return { chars: text.length, ms: median(samples), units: n };
  };
  // Doubling to the first size over budget, then halving the gap a few times.
  let best = { chars: 0, ms: 0, units: 0 };
  let over = 0;
  for (let n = 16; n <= 1 << 22; n *= 2) {
    const m = await measure(n);
    if (m.ms > BUDGET_MS) {
      over = n;
      break;
    }
    best = m;
  }
  for (let step = 0; step < 4 && over > best.units + 1; step++) {
    const m = await measure(Math.floor((best.units + over) / 2));
    if (m.ms > BUDGET_MS) over = m.units;
    else best = m;
  }
  return best;
}
