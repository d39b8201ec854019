// dist/commands.js: the commands that drawing the views does not need, loaded the first time one runs
// (src/extension/commands/onFirstUse.ts). The modules it shares with the activation bundle are taken
// from there, not copied (esbuild.mjs), so module state and `instanceof` mean the same in both.
import type * as vscode from 'vscode';
import { registerAgentCommands } from './agents/agentCommands';
import { registerComparisonCommands } from './comparison/comparisonCommands';
import { registerDatasetCommands } from './datasets/datasetCommands';
import { registerPolicyCommands } from './policies/policyCommands';
import { registerQueryCommands } from './queries/queryCommands';
import { registerRunCommands } from './runs/runCommands';
import { registerTableCommands } from './tables/tableCommands';
import { registerTrialCommands } from './trials/trialCommands';
import { registerRuleCoverageCommands } from './coverage/coverageCommands';

type Args<F extends (...args: never[]) => unknown> = Parameters<F>;

/** What the commands of this bundle are given: the parts built at activation. */
export interface CommandDeps {
  agents: Args<typeof registerAgentCommands>;
  policies: Args<typeof registerPolicyCommands>;
  datasets: Args<typeof registerDatasetCommands>;
  queries: Args<typeof registerQueryCommands>;
  runs: Args<typeof registerRunCommands>;
  tables: Args<typeof registerTableCommands>;
  comparisons: Args<typeof registerComparisonCommands>;
  trials: Args<typeof registerTrialCommands>[0];
  coverage: Args<typeof registerRuleCoverageCommands>;
}

/** Registers every command of this bundle. */
export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  return [
    ...registerAgentCommands(...deps.agents),
    ...registerPolicyCommands(...deps.policies),
    ...registerDatasetCommands(...deps.datasets),
    ...registerQueryCommands(...deps.queries),
    ...registerRunCommands(...deps.runs),
    ...registerTableCommands(...deps.tables),
    ...registerComparisonCommands(...deps.comparisons),
    ...registerTrialCommands(deps.trials),
    ...registerRuleCoverageCommands(...deps.coverage),
  ];
}
