// Rule coverage in the policy editor, registered at activation (a policy opened before any command ran
// shows its coverage): the lenses, the marks of unreached rules, the hovers, and what they read. The
// commands they offer load with the other commands on first use (coverageCommands.ts).
import type * as vscode from 'vscode';
import type { ComparisonEditors } from '../comparison/comparisonEditors';
import type { Connection } from '../connection/connection';
import type { Log } from '../log';
import type { TestPrompts } from '../testing/testPrompts';
import { CoverageLenses } from './coverageLenses';
import { CoverageMarks } from './coverageMarks';
import { NewestComparisons } from './newestComparisons';
import { PolicyCoverage } from './policyCoverage';
import { PolicyTestSets } from './policyTestSets';

/** What rule coverage in the editor works with. */
export interface RuleCoverageDeps {
  connection: Connection;
  comparisons: ComparisonEditors;
  log: Log;
  prompts: TestPrompts;
}

/** The parts tests read: what each policy document shows, and the marks of its editors. */
export interface RuleCoverageParts {
  coverage: PolicyCoverage;
  marks: CoverageMarks;
}

/** Rule coverage in the policy editor: lenses, marks and hovers, over one store of what each policy document shows. */
export function registerRuleCoverage(context: vscode.ExtensionContext, deps: RuleCoverageDeps): { parts: RuleCoverageParts; disposables: vscode.Disposable[] } {
  const newest = new NewestComparisons();
  const testSets = new PolicyTestSets(context.workspaceState, deps.connection, deps.prompts, deps.log);
  const coverage = new PolicyCoverage(testSets, newest);
  const marks = new CoverageMarks(context.extensionUri, coverage);
  return { parts: { coverage, marks }, disposables: [newest, testSets, coverage, new CoverageLenses(coverage), marks] };
}
