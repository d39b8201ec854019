/**
 * `agent-workbench coverage --policy <file|id> --test-set <file>`: which rules of a policy a test set
 * exercises, read from the test set's newest comparison (the core's `readRuleCoverage`, the same function
 * as the `rule_coverage` tool), printed as a table with its totals. It judges nothing: `try
 * --min-rule-coverage` is the gate.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { ServiceClient } from '../core/client';
import { casesReadText, coverageTableLines, coverageTotals, unmatchedLines } from '../core/coverage/coverageText';
import { readRuleCoverage, type CoveragePolicy, type RuleCoverageReport } from '../core/coverage/readRuleCoverage';
import { parsePolicyFile } from '../core/trial/policyFile';
import { CONNECTION_ENV, clientFromEnv, type Env } from './environment';
import type { CliIo } from './tryCommand';
import { UsageError } from './usageError';

export const COVERAGE_USAGE = `Usage: agent-workbench coverage --policy <file.policy.json|policy id> --test-set <file.testset.jsonl|csv> [options]

Which rules of a policy the test set exercises: read from the test set's newest comparison beside it
(<name>.comparison.json, <name>.trial.comparison.json), a row per rule and sub-rule (path · title · cases
whose outputs say it matched · how many of them are labelled, by expected outcome), then the totals. It
starts no job. Where the outputs say nothing about which rules matched, it says so in one sentence.

Options:
  --policy FILE|ID  a policy file (*.policy.json, no connection needed) or a policy id (its current version)
  --version ID      with a policy id: another version to cover
  --test-set FILE   the cases (*.testset.jsonl or *.csv)
  --comparison FILE read this comparison (*.comparison.json) instead of the test set's newest
  --target ID       the comparison's target whose outputs count (default: the trial's, else the current version now)
  --help            show this text

Comparisons are read only inside the current folder.
${CONNECTION_ENV} (only for a policy id)
Exit code: 0 when the coverage was read (whatever it is: try --min-rule-coverage is the gate), 2 when it could not be.`;

/** Runs `coverage` with its arguments (after the command name); answers the exit code. */
export async function runCoverage(args: readonly string[], env: Env, io: CliIo): Promise<number> {
  const options = { policy: { type: 'string' }, version: { type: 'string' }, 'test-set': { type: 'string' }, comparison: { type: 'string' }, target: { type: 'string' }, help: { type: 'boolean' } } as const;
  const { values } = parseArgs({ args: [...args], strict: true, options });
  if (values.help) {
    io.out(COVERAGE_USAGE);
    return 0;
  }
  if (!values.policy || !values['test-set']) {
    io.err(`agent-workbench coverage: --policy and --test-set are needed.\n${COVERAGE_USAGE}`);
    return 2;
  }
  const cwd = io.cwd ?? process.cwd();
  const policyFile = await readPolicyFileIfAny(path.resolve(cwd, values.policy));
  let client: ServiceClient | undefined;
  if (!policyFile) {
    try {
      client = clientFromEnv(env, 'agent-workbench-cli');
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      throw new UsageError(`${values.policy} is no file, so it is read as a policy id, and ${error.message.replace(/^./, (c) => c.toLowerCase())}`);
    }
  }
  try {
    const policy: CoveragePolicy = policyFile ? { ...policyFile, source: values.policy } : { policyId: values.policy, versionId: values.version };
    const report = await readRuleCoverage(client, { policy, testSet: values['test-set'], root: cwd, comparison: values.comparison, targetId: values.target });
    for (const line of reportLines(report, cwd, values['test-set'])) io.out(line);
    return 0;
  } catch (error) {
    io.err(`agent-workbench coverage: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  } finally {
    await client?.close();
  }
}

// A policy file's content and names, or undefined when there is no file there (then it is an id).
async function readPolicyFileIfAny(file: string): Promise<Omit<Extract<CoveragePolicy, { content: unknown }>, 'source'> | undefined> {
  const text = await fs.readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENAMETOOLONG') return undefined;
    throw error;
  });
  if (text === undefined) return undefined;
  const parsed = parsePolicyFile(text);
  return { content: parsed.content, name: parsed.name, policyId: parsed.policyId, versionId: parsed.baseVersionId };
}

/** The heading, what was read, the table and the totals, then the names this version does not have. */
function reportLines(report: RuleCoverageReport, cwd: string, testSet: string): string[] {
  const { coverage, policy } = report;
  const which = policy.source ? `as in ${policy.source}` : `version ${policy.versionName ?? policy.versionId ?? '?'}${policy.current ? ' (current)' : ''}`;
  const from = path.relative(cwd, report.comparisonFile);
  const heading = `Rule coverage of ${policy.name}, ${which}, by ${testSet}`;
  if (!coverage.known) return [`${heading} (read from ${from}): ${coverage.sentence}`];
  const unreached = coverage.unreached.map((r) => r.number);
  return [
    `${heading}.`,
    `Read from ${from}: ${casesReadText(coverage)}`,
    '',
    ...coverageTableLines(coverage),
    '',
    `${coverageTotals(coverage)}${unreached.length ? `; not reached: ${unreached.join(', ')}` : ''}.`,
    ...unmatchedLines(coverage),
  ];
}
