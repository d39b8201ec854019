// Writes a benchmark run: bench/results.json (everything), bench/results.md (the table, the method
// of each figure, the machine) and the table in docs/benchmarks.md between its bench markers.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Figure } from './figures';
import { type Machine, machineLine } from './machine';

export interface RunReport {
  startedAt: string;
  durationS: number;
  machine: Machine;
  figures: Figure[];
}

/** The page that shows the last full run's table, repository-relative. */
export const BENCH_TABLE_PAGE = path.join('docs', 'benchmarks.md');
export const TABLE_BEGIN = '<!-- bench:table:begin -->';
export const TABLE_END = '<!-- bench:table:end -->';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function verdict(figure: Figure): string {
  if (figure.within === null) return 'not measured';
  return figure.within ? 'yes' : '**no**';
}

/** The results table in Markdown. */
export function resultsTable(figures: readonly Figure[]): string {
  const rows = figures.map((f) =>
    `| ${cell(f.title)} | ${cell(f.ours)} | ${cell(f.spread ? `${f.spread.text} (${f.spread.runs} runs)` : '—')} | ${cell(f.reference)} | ${f.ratio === null ? '—' : `${f.ratio.toFixed(2)}×`} | ${cell(f.budget)} | ${verdict(f)} |`,
  );
  return ['| figure | ours (median) | min–max | reference (same run) | ratio | budget | within budget |', '| --- | --- | --- | --- | --- | --- | --- |', ...rows].join('\n');
}

/** results.md: heading, machine, table, then the method (and any problem) of each figure. */
export function resultsMarkdown(report: RunReport): string {
  const notes = report.figures.map((f) => `- **${f.title}.** ${f.method}${f.problem ? ` **Not measured:** ${f.problem}` : ''}`);
  return [
    '# Benchmarks',
    '',
    `\`npm run bench\` on ${report.startedAt.slice(0, 16).replace('T', ' ')} UTC, ${Math.round(report.durationS)} s in all.`,
    `Machine: ${machineLine(report.machine)}.`,
    '',
    resultsTable(report.figures),
    '',
    'Each figure is the median of several runs after a warm-up, with the least and most of those runs beside it; a ratio compares two things measured in the same run, side by side, ' +
      'since these machines are shared and noisy. A figure out of budget is reported, never a failure of the command; a row that could not be measured says why and makes the command exit 1. All numbers: `bench/results.json`.',
    '',
    '## How each figure is measured',
    '',
    ...notes,
    '',
  ].join('\n');
}

/**
 * Replaces the table between the bench markers of the page at `pagePath`, its note linking `resultsPath`
 * (bench/results.md) relative to the page; false when the markers are missing.
 */
export function updateBenchTable(pagePath: string, report: RunReport, resultsPath: string): boolean {
  const text = fs.readFileSync(pagePath, 'utf8');
  const begin = text.indexOf(TABLE_BEGIN);
  const end = text.indexOf(TABLE_END);
  if (begin < 0 || end < begin) return false;
  const link = path.relative(path.dirname(pagePath), resultsPath).split(path.sep).join('/');
  const body = `${TABLE_BEGIN}\n${resultsTable(report.figures)}\n\n_Measured ${report.startedAt.slice(0, 10)} on ${report.machine.cores} cores, Node ${report.machine.node}; method and notes in [bench/results.md](${link})._\n`;
  fs.writeFileSync(pagePath, text.slice(0, begin) + body + text.slice(end));
  return true;
}

/** Writes results.json and results.md into `benchDir`. */
export function writeResults(benchDir: string, report: RunReport): void {
  fs.writeFileSync(path.join(benchDir, 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(benchDir, 'results.md'), resultsMarkdown(report));
}
