import * as vscode from 'vscode';
import { AgentsView } from './agents/agentsView';
import { onOutcomeUnknown } from './commands/commandRunner';
import { registerConnectionCommands } from './commands/connectionCommands';
import { Connection } from './connection/connection';
import { AccountsProvider } from './connection/accountsProvider';
import { applyProvisionedConnection } from './connection/provisioning';
import type { SavedConnections } from './connection/savedConnections';
import { AgentCommands, ComparisonCommands, CoverageCommands, DatasetCommands, DocumentCommands, PolicyCommands, QueryCommands, RunCommands, TableCommands, TEST_API_ENV, TrialCommands } from './constants';
import { lazyBundle } from './lazyCore';
import { registerOnFirstUse } from './commands/onFirstUse';
import { EditableFileSystem } from './documents/editableFileSystem';
import { registerSaveCommand } from './documents/saveCommand';
import { ServiceDocuments } from './documents/serviceDocuments';
import { DocumentTargets } from './documents/documentTargets';
import { VersionDrafts } from './agents/versionDrafts';
import { registerJobWatchCommands } from './jobs/jobWatchCommands';
import { JobWatchStatusBar } from './jobs/jobWatchStatusBar';
import { RunningJobsRefresher } from './jobs/runningJobsRefresher';
import { Log } from './log';
import { LocalSandbox } from './sandbox/localSandbox';
import { ConnectionStatusBar } from './statusBar/connectionStatusBar';
import { LazyFollower } from '../core/store/lazyFollower';
import { Stores } from './store/stores';
import { Ticker } from './util/ticker';
import { registerTreeCommands } from './tree/treeCommands';
import { TreeFailures } from './tree/treeFailures';
import { PolicyDocuments } from './policies/policyDocuments';
import { PoliciesView } from './policies/policiesView';
import { SummaryPreview } from './policies/summaryPreview';
import { DatasetsView } from './datasets/datasetsView';
import { DatasetDropController } from './datasets/dropController';
import { Uploads } from './datasets/uploads';
import { QueryResults } from './queries/queryResults';
import { JobViews } from './jobs/jobView/jobViews';
import type { JobPanelDebugState } from './jobs/jobView/jobPanel';
import { SignedInUser } from './connection/signedInUser';
import { RunTargets } from './runs/runTargets';
import { RunFiles } from './runs/runFiles';
import { Runner } from './runs/runner';
import { SqlLanguageFeatures } from './tables/sqlLanguage';
import { TableCatalog } from './tables/tableCatalog';
import { TableDropController, TableUploads } from './tables/tableUploads';
import { TablesView } from './tables/tablesView';
import { withProbes, type ResultsProbes } from './queries/resultsPanelProbe';
import type { TestPrompts } from './testing/testPrompts';
import { answerTrustWith } from './commands/workspaceTrust';
import { answerStartWith } from './comparison/comparisonPrompts';
import { answerModalsWith } from './util/modal';
import { ComparisonEditors } from './comparison/comparisonEditors';
import { openWalkthroughOnFirstRun } from './welcome/firstRun';
import { TestSetEditing } from './comparison/testSetEditing';
import { registerLanguageModelTools } from './tools/languageModelTools';
import { registerMcpServerProvider, type McpServerProvider } from './tools/mcpServerProvider';
import { registerRuleCoverage, type RuleCoverageParts } from './coverage/coverageEditor';

let sandbox: LocalSandbox | undefined;

/** The commands in dist/commands.js (src/extension/commandsBundle.ts), loaded the first time one of them runs. */
const loadCommands = lazyBundle<typeof import('./commandsBundle')>('commands.js');
const LAZY_COMMANDS: readonly string[] = [AgentCommands, PolicyCommands, DatasetCommands, QueryCommands, RunCommands, TableCommands, ComparisonCommands, TrialCommands, DocumentCommands, CoverageCommands].flatMap((ids) => Object.values(ids));

/**
 * What `activate` returns when the test harness asks for it (`AGENT_WORKBENCH_TEST_API=1`): the
 * extension's parts, for the integration tests. Otherwise nothing: other extensions get no handle on
 * the connection or its token.
 */
export interface AgentWorkbenchApi {
  secrets: vscode.SecretStorage;
  /** What the next window of this workspace starts from. */
  workspaceState: vscode.Memento;
  /** The folder of the extension's log file ("Agent Workbench.log"). */
  logUri: vscode.Uri;
  connection: Connection;
  sandbox: LocalSandbox;
  accounts: AccountsProvider;
  savedConnections: SavedConnections;
  agents: AgentsView;
  /** The store of each connection: what every view shows. */
  stores: Stores;
  drafts: VersionDrafts;
  watched: JobWatchStatusBar;
  refresher: RunningJobsRefresher;
  policies: PoliciesView;
  policyDocuments: PolicyDocuments;
  summaryPreview: SummaryPreview;
  datasets: DatasetsView;
  uploads: Uploads;
  results: QueryResults & ResultsProbes;
  jobViews: JobViews & { debugState(jobId: string): JobPanelDebugState | undefined };
  user: SignedInUser;
  log: Log;
  runFiles: RunFiles;
  tables: TablesView;
  tableUploads: TableUploads;
  /** Answers in place of the user's (unset: ask the user). */
  prompts: TestPrompts;
  /** The `agent-workbench:` file system of policy documents and drafts. */
  editable: EditableFileSystem;
  comparisons: ComparisonEditors;
  /** The MCP server offered to VS Code's MCP client; none where VS Code has no such API. */
  mcpServer: McpServerProvider | undefined;
  /** Rule coverage in policy editors: what each document shows, and the marks of unreached rules. */
  ruleCoverage: RuleCoverageParts;
}

/** Wires the extension together. Nothing slow happens here: the client loads on first use. */
export function activate(context: vscode.ExtensionContext): AgentWorkbenchApi | undefined {
  const log = new Log();
  const connection = new Connection(context, log);
  // Answers tests give in place of the user's; read only by the test build.
  const prompts: TestPrompts = {};
  sandbox = new LocalSandbox(context, connection, log, prompts);
  const accounts = new AccountsProvider(context, connection, sandbox, log);
  const ticker = new Ticker();
  const treeFailures = new TreeFailures(log);
  const stores = new Stores(context, connection, log);
  const agents = new AgentsView(context, connection, treeFailures, stores, ticker);
  const documents = new ServiceDocuments(connection);
  const editable = new EditableFileSystem(log);
  const documentTargets = new DocumentTargets();
  const drafts = new VersionDrafts(editable, connection, agents, log, documentTargets);
  const watched = new JobWatchStatusBar(stores, ticker);
  const refresher = new RunningJobsRefresher(agents, stores, log);
  const policies = new PoliciesView(context, connection, treeFailures);
  const policyDocuments = new PolicyDocuments(editable, connection, policies, log, prompts, documentTargets);
  const summaryPreview = new SummaryPreview(context, connection, agents, log);
  const drop = new DatasetDropController();
  const datasets = new DatasetsView(context, connection, treeFailures, drop);
  const uploads = new Uploads(context, datasets, log, prompts);
  drop.uploads = uploads;
  const results = new QueryResults(context, log);
  const runTargets = new RunTargets(connection, (agentId) => stores.current?.agent(agentId));
  const runFiles = new RunFiles(runTargets);
  const runner = new Runner(connection, agents, runTargets, runFiles, stores, log);
  const tableCatalog = new TableCatalog(connection);
  const tableDrop = new TableDropController();
  const tables = new TablesView(context, connection, treeFailures, tableCatalog, tableDrop);
  const tableUploads = new TableUploads(tables, log);
  tableDrop.uploads = tableUploads;
  const jobViews = new JobViews(context, connection, documents, stores, log, ticker);
  const user = new SignedInUser(connection, log);
  const comparisons = new ComparisonEditors(context, {
    connection,
    followJobs: (owner) => new LazyFollower(() => stores.current?.follower(owner), (listener) => stores.onDidSwitch(listener)),
    log,
    jobsStarted: (id, jobs) => stores.require().jobsStarted(id, jobs),
    readJobsAgain: (id) => agents.reloadJobs(id),
  });
  const mcp = registerMcpServerProvider(context, { connection, stores, user, log });
  const ruleCoverage = registerRuleCoverage(context, { connection, comparisons, log, prompts });
  context.subscriptions.push(
    answerTrustWith(prompts),
    answerStartWith(prompts),
    answerModalsWith(prompts),
    onOutcomeUnknown(() => {
      agents.reload();
      policies.reload();
      datasets.reload();
      tables.reload();
    }),
    log,
    ticker,
    connection,
    stores,
    sandbox,
    accounts,
    agents,
    documents,
    editable,
    drafts,
    watched,
    refresher,
    user,
    new ConnectionStatusBar(connection, user),
    policies,
    policyDocuments,
    summaryPreview,
    datasets,
    results,
    jobViews,
    ...registerConnectionCommands(connection, sandbox, user, log),
    ...registerTreeCommands(log),
    ...registerJobWatchCommands(stores, log, () => connection.requireClient()),
    registerSaveCommand(editable, log),
    runTargets,
    runFiles,
    tableCatalog,
    tables,
    new SqlLanguageFeatures(tableCatalog),
    comparisons,
    new TestSetEditing(runTargets, connection),
    ...registerLanguageModelTools(context, { connection, stores, user, log, prompts }),
    ...mcp.disposables,
    ...ruleCoverage.disposables,
  );
  // Registered last: a stand-in only for what the lines above did not register (the job watch's commands are there).
  context.subscriptions.push(
    registerOnFirstUse(
      LAZY_COMMANDS,
      () =>
        loadCommands().registerCommands({
          agents: [agents, documents, drafts, jobViews, log],
          policies: [policies, policyDocuments, log],
          datasets: [datasets, uploads, log],
          queries: [connection, results, log],
          runs: [agents, connection, runner, runTargets, stores, log],
          tables: [tables, tableUploads, results, log],
          comparisons: [agents, comparisons, log],
          trials: { connection, agents, policies, policyDocuments, versionDrafts: drafts, comparisons, log, madeHere: new Set<string>() },
          coverage: [ruleCoverage.parts, { connection, comparisons, log, prompts }],
        }),
      context.subscriptions,
      log,
    ),
  );
  // Reading the secret is asynchronous; activation returns first and the views fill in when it is done.
  // Until the saved token is read and a provisioned connection applied, the window says "connecting…".
  const local = sandbox;
  void connection
    .start(async () => {
      await local.repairLegacySettings();
      await connection.refresh();
      await applyProvisionedConnection(connection, log);
    })
    .then(() => local.offerRestartAfterReload())
    .catch((error: unknown) => log.error('Connecting at start failed', error));
  openWalkthroughOnFirstRun(context);
  // The build users get has no test API at all (esbuild drops this branch, and what only it uses).
  if (__TEST_HOOKS__ && process.env[TEST_API_ENV] === '1') {
    const probedResults = withProbes(results, (queryId) => results.probe(queryId));
    return { secrets: context.secrets, workspaceState: context.workspaceState, logUri: context.logUri, connection, sandbox, accounts, savedConnections: connection.saved, agents, stores, drafts, watched, refresher, policies, policyDocuments, summaryPreview, datasets, uploads, results: probedResults, log, runFiles, tables, tableUploads, jobViews: Object.assign(jobViews, { debugState: (jobId: string) => jobViews.shownState(jobId) }), user, prompts, editable, comparisons, mcpServer: mcp.provider, ruleCoverage: ruleCoverage.parts };
  }
  return undefined;
}

/** Stops the local sandbox (if this window started it) and lets it flush its data. */
export async function deactivate(): Promise<void> {
  await sandbox?.shutdown();
  sandbox = undefined;
}
