/**
 * A trial as a gate for CI: the accuracy the trial must reach and how many labelled cases it may turn
 * wrong, judged on the comparison's own figures (compare.ts). Pure; the command line turns the verdict
 * into its exit code and its summary.
 */
import { caseRows, correctnessLine, summarize, transitions } from '../comparison/compare';
import type { ComparisonRecord } from '../comparison/comparisonRecord';
import { coverageTotals } from '../coverage/coverageText';
import { coveragePercent, type RuleCoverage } from '../coverage/ruleCoverage';

/** The thresholds a trial must meet (either may be left out). */
export interface GateThresholds {
  /** The least accuracy on the labelled cases, in percent (0–100). */
  minAccuracy?: number;
  /** The most labelled cases right on the baseline that the trial may get wrong. */
  maxNewlyWrong?: number;
  /** The least share of the tried policy's rules the test set must reach, in percent (0–100). */
  minRuleCoverage?: number;
}

type Threshold = 'min-accuracy' | 'max-newly-wrong' | 'min-rule-coverage';

/** What the gate says of one comparison. */
export interface GateVerdict {
  /** "accuracy 58% → 75%: 3 cases became right, 1 became wrong". */
  line: string;
  /** One sentence per threshold not met (empty: the trial passes). */
  failed: { threshold: Threshold; message: string }[];
}

/**
 * Exit codes of `try` when a threshold fails: 3 accuracy, 4 newly wrong, 5 both, 6 rule coverage alone
 * (an accuracy threshold that fails too gives its own code); 1 stays "a labelled case disagrees", 2 "could not run".
 */
export const GATE_EXIT = { 'min-accuracy': 3, 'max-newly-wrong': 4, both: 5, 'min-rule-coverage': 6 } as const;

/**
 * Judges a comparison against the thresholds: the baseline against the target `targetId`; `coverage`:
 * the tried policy's rule coverage (ruleCoverage.ts), which `minRuleCoverage` needs.
 */
export function judgeTrial(record: ComparisonRecord, targetId: string, thresholds: GateThresholds, coverage?: RuleCoverage): GateVerdict {
  const rows = caseRows(record);
  const summaries = summarize(record, rows);
  const base = record.targets.findIndex((t) => t.id === record.baselineId);
  const trial = record.targets.findIndex((t) => t.id === targetId);
  if (base < 0 || trial < 0) throw new Error(`The comparison has no target "${targetId}" to judge against its baseline.`);
  const moves = transitions(record, base, trial, rows);
  const after = summaries[trial]!;
  const failed: GateVerdict['failed'] = [];
  if (thresholds.minAccuracy !== undefined) {
    // A gate that cannot measure must not pass: no labelled case finished is a failure, said as such.
    if (after.accuracy === undefined) failed.push({ threshold: 'min-accuracy', message: `--min-accuracy ${thresholds.minAccuracy}%: no labelled case finished on the trial, so its accuracy is unknown` });
    else if (after.accuracy * 100 < thresholds.minAccuracy) {
      failed.push({ threshold: 'min-accuracy', message: `--min-accuracy ${thresholds.minAccuracy}%: the trial reached ${round(after.accuracy * 100)}% of ${after.expected} labelled` });
    }
  }
  if (thresholds.maxNewlyWrong !== undefined && moves.becameWrong.length > thresholds.maxNewlyWrong) {
    failed.push({ threshold: 'max-newly-wrong', message: `--max-newly-wrong ${thresholds.maxNewlyWrong}: ${moves.becameWrong.length} case${moves.becameWrong.length === 1 ? '' : 's'} became wrong` });
  }
  if (thresholds.minRuleCoverage !== undefined) {
    const problem = ruleCoverageProblem(thresholds.minRuleCoverage, coverage);
    if (problem) failed.push({ threshold: 'min-rule-coverage', message: problem });
  }
  return { line: correctnessLine(summaries[base]!, after, moves), failed };
}

// Like the accuracy, a rule coverage that cannot be measured fails the gate, said as such.
function ruleCoverageProblem(min: number, coverage: RuleCoverage | undefined): string | undefined {
  if (!coverage) return `--min-rule-coverage ${min}%: the trial tried no policy content, so no rule coverage was measured`;
  if (!coverage.known) return `--min-rule-coverage ${min}%: rule coverage is not known. ${coverage.sentence.replace(/\.$/, '')}`;
  const percent = coveragePercent(coverage);
  return percent < min ? `--min-rule-coverage ${min}%: ${coverageTotals(coverage)} (${round(percent)}%)` : undefined;
}

/** The exit code for the verdicts of every agent tried: 0 when all pass, else which threshold failed. */
export function gateExitCode(verdicts: readonly GateVerdict[]): number {
  const kinds = new Set(verdicts.flatMap((v) => v.failed.map((f) => f.threshold)));
  const coverage = kinds.delete('min-rule-coverage');
  if (kinds.size === 2) return GATE_EXIT.both;
  if (kinds.size === 1) return GATE_EXIT[[...kinds][0]!];
  return coverage ? GATE_EXIT['min-rule-coverage'] : 0;
}

/** The thresholds as the command line names them ("--min-accuracy 75%", "--max-newly-wrong 1"). */
export function thresholdsText(thresholds: GateThresholds): string[] {
  const given: string[] = [];
  if (thresholds.minAccuracy !== undefined) given.push(`--min-accuracy ${thresholds.minAccuracy}%`);
  if (thresholds.maxNewlyWrong !== undefined) given.push(`--max-newly-wrong ${thresholds.maxNewlyWrong}`);
  if (thresholds.minRuleCoverage !== undefined) given.push(`--min-rule-coverage ${thresholds.minRuleCoverage}%`);
  return given;
}

/** A threshold given on the command line, or why it is not one. */
export function parseThreshold(name: Threshold, text: string | undefined): number | undefined | string {
  if (text === undefined) return undefined;
  const value = Number(text.trim().replace(/%$/, ''));
  if (text.trim() === '' || !Number.isFinite(value) || value < 0) return `--${name} needs a number of 0 or more, not "${text}"`;
  if (name !== 'max-newly-wrong' && value > 100) return `--${name} is a percent (0–100), not "${text}"`;
  if (name === 'max-newly-wrong' && !Number.isInteger(value)) return `--max-newly-wrong is a number of cases, not "${text}"`;
  return value;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
