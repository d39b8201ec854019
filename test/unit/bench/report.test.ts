import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type Figure, notMeasured } from '../../../bench/lib/figures';
import { README_BEGIN, README_END, resultsMarkdown, resultsTable, updateReadme, type RunReport } from '../../../bench/lib/report';

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

  it('replaces only the table between the README markers', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-readme-'));
    try {
      const readme = path.join(dir, 'README.md');
      fs.writeFileSync(readme, `# Title\n\nBefore.\n\n${README_BEGIN}\nold table\n${README_END}\n\nAfter.\n`);
      assert.equal(updateReadme(readme, report([figure({})])), true);
      const text = fs.readFileSync(readme, 'utf8');
      assert.ok(text.startsWith('# Title\n\nBefore.\n\n'));
      assert.ok(text.endsWith(`${README_END}\n\nAfter.\n`));
      assert.doesNotMatch(text, /old table/);
      assert.match(text, /\| activation \| 12\.0 ms \|/);
      fs.writeFileSync(readme, '# No markers\n');
      assert.equal(updateReadme(readme, report([figure({})])), false);
      assert.equal(fs.readFileSync(readme, 'utf8'), '# No markers\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
