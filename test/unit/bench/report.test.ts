import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type Figure, notMeasured } from '../../../bench/lib/figures';
import { BENCH_TABLE_PAGE, TABLE_BEGIN, TABLE_END, resultsMarkdown, resultsTable, updateBenchTable, type RunReport } from '../../../bench/lib/report';

function figure(overrides: Partial<Figure>): Figure {
  return { key: 'k', title: 'activation', ours: '12.0 ms', reference: '—', ratio: null, budget: '≤ 25 ms', within: true, method: 'How.', values: {}, ...overrides };
}

function report(figures: Figure[]): RunReport {
  return {
    startedAt: '2026-11-21T09:00:00.000Z',
    durationS: 300,
    machine: { cores: 2, cpu: 'Test CPU', memoryGiB: 24, os: 'Linux', node: 'v20.20.2', chromium: 'Chromium 1', codeServer: '4.100.3', loadAverage: { start: 1, end: 2 } },
    figures,
  };
}

describe('Benchmark results', () => {
  it('marks each figure within budget, out of budget or not measured', () => {
    const table = resultsTable([figure({ within: true }), figure({ title: 'upload', within: false, ratio: 0.7 }), notMeasured('grid', 'grid', '≤ 1 s', '', 'no webview yet')]);
    const rows = table.split('\n').slice(2);
    assert.match(rows[0] as string, /\| activation \| 12\.0 ms \| — \| — \| — \| ≤ 25 ms \| yes \|$/);
    assert.match(rows[1] as string, /\| upload \|.*\| 0\.70× \|.*\| \*\*no\*\* \|$/);
    assert.match(rows[2] as string, /\| grid \| — \| — \| — \| — \| ≤ 1 s \| not measured \|$/);
  });

  it('keeps a pipe in a value from breaking the table', () => {
    const table = resultsTable([figure({ ours: 'a | b' })]);
    assert.match(table, /a \\\| b/);
  });

  it('says why a figure could not be measured, and on what machine the run was', () => {
    const text = resultsMarkdown(report([notMeasured('grid', 'grid', '≤ 1 s', 'In the webview.', 'the panel did not open')]));
    assert.match(text, /2 cores \(Test CPU\).*Node v20\.20\.2/);
    assert.match(text, /\*\*grid\.\*\* In the webview\. \*\*Not measured:\*\* the panel did not open/);
  });

  it('replaces only the table between the page’s markers, linking bench/results.md from where the page is', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-page-'));
    try {
      const page = path.join(dir, 'docs', 'benchmarks.md');
      fs.mkdirSync(path.dirname(page));
      fs.writeFileSync(page, `# Title\n\nBefore.\n\n${TABLE_BEGIN}\nold table\n${TABLE_END}\n\nAfter.\n`);
      assert.equal(updateBenchTable(page, report([figure({})]), path.join(dir, 'bench', 'results.md')), true);
      const text = fs.readFileSync(page, 'utf8');
      assert.ok(text.startsWith('# Title\n\nBefore.\n\n'));
      assert.ok(text.endsWith(`${TABLE_END}\n\nAfter.\n`));
      assert.doesNotMatch(text, /old table/);
      assert.match(text, /\| activation \| 12\.0 ms \|/);
      assert.match(text, /\[bench\/results\.md\]\(\.\.\/bench\/results\.md\)/);
      fs.writeFileSync(page, '# No markers\n');
      assert.equal(updateBenchTable(page, report([figure({})]), path.join(dir, 'bench', 'results.md')), false);
      assert.equal(fs.readFileSync(page, 'utf8'), '# No markers\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes its table into docs/benchmarks.md, which holds the markers (not the README)', () => {
    const root = path.resolve(__dirname, '..', '..', '..');
    assert.equal(BENCH_TABLE_PAGE, path.join('docs', 'benchmarks.md'));
    const text = fs.readFileSync(path.join(root, BENCH_TABLE_PAGE), 'utf8');
    assert.ok(text.indexOf(TABLE_BEGIN) >= 0 && text.indexOf(TABLE_END) > text.indexOf(TABLE_BEGIN));
    assert.doesNotMatch(fs.readFileSync(path.join(root, 'README.md'), 'utf8'), /bench:table/);
  });
});
