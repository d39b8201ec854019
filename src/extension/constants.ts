/** Every identifier the extension shares with package.json, in one place. */
export const EXTENSION_ID = 'agent-workbench.agent-workbench';

export const Commands = {
  signIn: 'agentWorkbench.signIn',
  signOut: 'agentWorkbench.signOut',
  startSandbox: 'agentWorkbench.startSandbox',
  stopSandbox: 'agentWorkbench.stopSandbox',
  showLog: 'agentWorkbench.showLog',
  showConnectionMenu: 'agentWorkbench.showConnectionMenu',
  switchConnection: 'agentWorkbench.switchConnection',
} as const;

/** Commands used by tree nodes themselves (hidden from the palette). */
export const TreeCommands = {
  retry: 'agentWorkbench.tree.retry',
  loadMore: 'agentWorkbench.tree.loadMore',
} as const;

/** Commands of the Agents view. */
export const AgentCommands = {
  refresh: 'agentWorkbench.agents.refresh',
  refreshNode: 'agentWorkbench.agents.refreshNode',
  search: 'agentWorkbench.agents.search',
  filter: 'agentWorkbench.agents.filter',
  clearFilter: 'agentWorkbench.agents.clearFilter',
  filterJobs: 'agentWorkbench.jobs.filter',
  clearJobFilter: 'agentWorkbench.jobs.clearFilter',
  editSettings: 'agentWorkbench.agents.editSettings',
  duplicate: 'agentWorkbench.agents.duplicate',
  openVersion: 'agentWorkbench.agents.openVersion',
  createVersion: 'agentWorkbench.agents.createVersion',
  compareVersions: 'agentWorkbench.agents.compareVersions',
  openJob: 'agentWorkbench.jobs.open',
  watchJob: 'agentWorkbench.jobs.watch',
  showWatchedJobs: 'agentWorkbench.jobs.showWatched',
  stopWatchingAll: 'agentWorkbench.jobs.stopWatchingAll',
  copyId: 'agentWorkbench.copyId',
  refreshDocument: 'agentWorkbench.refreshDocument',
  newAgent: 'agentWorkbench.agents.create',
  revealVersion: 'agentWorkbench.agents.revealVersion',
  renameVersion: 'agentWorkbench.agents.renameVersion',
  deleteVersion: 'agentWorkbench.agents.deleteVersion',
} as const;

/** Commands of the Policies view and policy documents. */
export const PolicyCommands = {
  refresh: 'agentWorkbench.policies.refresh',
  search: 'agentWorkbench.policies.search',
  clearSearch: 'agentWorkbench.policies.clearSearch',
  create: 'agentWorkbench.policies.create',
  openVersion: 'agentWorkbench.policies.openVersion',
  compareWith: 'agentWorkbench.policies.compareWith',
  compareWithCurrent: 'agentWorkbench.policies.compareWithCurrent',
  restoreVersion: 'agentWorkbench.policies.restoreVersion',
  refreshNode: 'agentWorkbench.policies.refreshNode',
  rename: 'agentWorkbench.policies.rename',
  editDescription: 'agentWorkbench.policies.editDescription',
  delete: 'agentWorkbench.policies.delete',
} as const;

/** The Summary Preview of policy documents: its commands, webview type, context key and stored samples. */
export const SummaryPreviewIds = {
  open: 'agentWorkbench.policies.openSummaryPreview',
  fillSampleFromJob: 'agentWorkbench.policies.fillSummarySampleFromJob',
  resetSample: 'agentWorkbench.policies.resetSummarySample',
  viewType: 'agentWorkbench.summaryPreview',
  /** True while the active editor is a local JSON file holding `summary_template.template`. */
  fileHasTemplate: 'agentWorkbench.summaryPreview.fileHasTemplate',
  /** `globalState`: the sample data of each policy (or local file), by key. */
  samplesState: 'agentWorkbench.policies.summarySamples',
} as const;

/** Commands of the Datasets view and uploads. */
export const DatasetCommands = {
  refresh: 'agentWorkbench.datasets.refresh',
  refreshNode: 'agentWorkbench.datasets.refreshNode',
  search: 'agentWorkbench.datasets.search',
  clearSearch: 'agentWorkbench.datasets.clearSearch',
  deleteFile: 'agentWorkbench.datasets.deleteFile',
  uploadToDataset: 'agentWorkbench.datasets.uploadToDataset',
  uploadFiles: 'agentWorkbench.datasets.uploadFiles',
} as const;

/** Running SQL and opening query results. */
export const QueryCommands = {
  run: 'agentWorkbench.queries.run',
  openResult: 'agentWorkbench.queries.openResult',
} as const;

/** Commands of the Tables view, CSV uploads as tables, and SQL editing. */
export const TableCommands = {
  refresh: 'agentWorkbench.tables.refresh',
  search: 'agentWorkbench.tables.search',
  clearSearch: 'agentWorkbench.tables.clearSearch',
  preview: 'agentWorkbench.tables.preview',
  newQuery: 'agentWorkbench.tables.newQuery',
  copyName: 'agentWorkbench.tables.copyName',
  delete: 'agentWorkbench.tables.delete',
  uploadCsv: 'agentWorkbench.tables.uploadCsv',
} as const;

export const Views = {
  container: 'agentWorkbench',
  agents: 'agentWorkbench.agents',
  policies: 'agentWorkbench.policies',
  datasets: 'agentWorkbench.datasets',
  tables: 'agentWorkbench.tables',
} as const;

export const Settings = {
  section: 'agentWorkbench',
  baseUrl: 'baseUrl',
  organizationId: 'organizationId',
  requestTimeoutSeconds: 'requestTimeoutSeconds',
  pageSize: 'pageSize',
  jobsRefreshIntervalSeconds: 'jobs.refreshIntervalSeconds',
  watchIntervalSeconds: 'jobs.watchIntervalSeconds',
  askVersionName: 'policies.askVersionName',
  confirmFileCount: 'uploads.confirmAboveFileCount',
  confirmTotalMegabytes: 'uploads.confirmAboveTotalMegabytes',
  tablesQueryRowLimit: 'tables.queryRowLimit',
  queriesUseTablesEndpoint: 'queries.useTablesEndpoint',
  jobsLabelField: 'jobs.labelField',
  confirmTwiceAboveCost: 'comparisons.confirmTwiceAboveCost',
  toolsMaxJobs: 'tools.maxJobs',
  toolsMaxJobsPerSession: 'tools.maxJobsPerSession',
} as const;

export const ContextKeys = {
  connected: 'agentWorkbench.connected',
  /** True while the window starts and does not know yet whether it has a session: the views say "Connecting…". */
  connecting: 'agentWorkbench.connecting',
  sandboxRunning: 'agentWorkbench.sandboxRunning',
  sandboxStarting: 'agentWorkbench.sandboxStarting',
  /** True while signed out because the service stopped accepting the token (401): the views ask to sign in again. */
  signInExpired: 'agentWorkbench.signInExpired',
  agentsFiltered: 'agentWorkbench.agents.filtered',
  policiesFiltered: 'agentWorkbench.policies.filtered',
  datasetsFiltered: 'agentWorkbench.datasets.filtered',
  tablesFiltered: 'agentWorkbench.tables.filtered',
} as const;

/** Keys in `globalState` (never secrets), and `workspaceState` where marked. */
export const StateKeys = {
  /** Written by versions before 0.2, which put the sandbox into the user settings: read once to put them back. */
  legacySandboxConnection: 'agentWorkbench.sandbox.connection',
  legacySettingsBeforeSandbox: 'agentWorkbench.sandbox.previousSettings',
  /** `workspaceState`: this window was working in the local sandbox (offered again after a restart). */
  sandboxInWindow: 'agentWorkbench.sandbox.usedInWindow',
  /** The connections signed in to (service URL + organization), for switching. */
  connections: 'agentWorkbench.connections',
  agentFilter: 'agentWorkbench.agents.filter',
  watchedJobs: 'agentWorkbench.jobs.watched',
  /** `workspaceState`: the job views open (job, agent), so a reload brings back those whose page saved no state. */
  openJobViews: 'agentWorkbench.jobs.openViews',
  /** `workspaceState`, per connection: the job labels shown, so a job reads the same after a reload. */
  jobLabels: 'agentWorkbench.jobs.labels',
  recentDatasets: 'agentWorkbench.datasets.recent',
  policySearch: 'agentWorkbench.policies.search',
  tableSearch: 'agentWorkbench.tables.search',
  /** `workspaceState`: the test set whose rule coverage each policy's editor shows, by policy id (a URI). */
  coverageTestSets: 'agentWorkbench.coverage.testSets',
  datasetSearch: 'agentWorkbench.datasets.search',
} as const;

/** The authentication provider (Accounts menu) and its label. */
export const AuthProvider = { id: 'agent-workbench', label: 'Agent Workbench' } as const;

/** Secrets are keyed by the service's origin, so a token is only ever used with the origin it was given for. */
export const tokenSecretKey = (origin: string): string => `agentWorkbench.token:${origin}`;

/** URI schemes: read-only views of service data, and editable documents (drafts, policies) saved back to the service. */
export const Schemes = {
  view: 'agent-workbench-view',
  edit: 'agent-workbench',
} as const;

/** The environment variable naming a connection file (`{baseUrl, organizationId, token}`) the demo and tests provision. */
export const CONNECT_ENV = 'AGENT_WORKBENCH_CONNECT';

/** Set by the test harness: `activate` then returns the extension's parts for the integration tests. */
export const TEST_API_ENV = 'AGENT_WORKBENCH_TEST_API';

/** Commands of our editable documents (policy versions, version drafts). */
export const DocumentCommands = {
  /** Ctrl+S in one of them: the new-version flow, then VS Code's save. */
  saveAsNewVersion: 'agentWorkbench.documents.saveAsNewVersion',
  /** The status bar's "Unsaved policy" menu: save, or try the edit first. */
  unsavedMenu: 'agentWorkbench.documents.unsavedMenu',
} as const;
/** Running agents: run files, runs from the Agents view and the Explorer, cancelling jobs. */
export const RunCommands = {
  runAgent: 'agentWorkbench.runs.runAgent',
  runVersion: 'agentWorkbench.runs.runVersion',
  newRunFile: 'agentWorkbench.runs.newRunFile',
  runFile: 'agentWorkbench.runs.runFile',
  runOnFiles: 'agentWorkbench.runs.runOnFiles',
  cancelJob: 'agentWorkbench.jobs.cancel',
  cancelAllJobs: 'agentWorkbench.agents.cancelAllJobs',
} as const;

export { RUN_SCHEMA_URI } from '../core/documents/runtimeSchemas';

/** The job view, and the commands of running and cancelling (registered by the runs feature) its buttons call. */
export const JobViewIds = {
  viewType: 'agentWorkbench.jobView',
  newRunFile: RunCommands.newRunFile,
  cancelJob: RunCommands.cancelJob,
} as const;

/** Test sets and comparisons: commands, and the scheme of the read-only case outputs a diff shows. */
export const ComparisonCommands = {
  runComparison: 'agentWorkbench.comparisons.run',
  testThisChange: 'agentWorkbench.comparisons.testThisChange',
  testSetFromJobs: 'agentWorkbench.comparisons.testSetFromJobs',
  testSetFromCsv: 'agentWorkbench.comparisons.testSetFromCsv',
  openComparison: 'agentWorkbench.comparisons.open',
  /** A case's cell in the comparison page is right: its outcome becomes what the case expects. */
  thisIsRight: 'agentWorkbench.comparisons.thisIsRight',
  /** Set what a case of the comparison page expects (the policy's dispositions, or an output's value). */
  setExpected: 'agentWorkbench.comparisons.setExpected',
  /** The labelling pass: on a test set (its newest comparison) or the active comparison. */
  labelCases: 'agentWorkbench.comparisons.labelCases',
} as const;
/** Rule coverage in the policy editor: which rules of the policy the chosen test set's cases reach. */
export const CoverageCommands = {
  /** Choose the test set whose coverage a policy's editor shows (remembered per policy). */
  chooseTestSet: 'agentWorkbench.coverage.chooseTestSet',
  /** Past jobs that reach a rule no case reaches, added to the test set as cases. */
  findCases: 'agentWorkbench.coverage.findCases',
  /** A case that reaches a rule, opened in its comparison. */
  openCase: 'agentWorkbench.coverage.openCase',
  /** The cases that reach a rule, to open one. */
  showCases: 'agentWorkbench.coverage.showCases',
} as const;

/** The `webviewSection` of a case's cell in the comparison page (its context menu labels the case). */
export const COMPARISON_CELL_SECTION = 'comparisonCell';

/**
 * Commands that only work on the tree node or the page cell they are invoked on (they take no answers from a prompt);
 * package.json hides them from the palette (`when: false`), and a unit test keeps it so.
 */
export const NODE_ONLY_COMMANDS: readonly string[] = [
  TreeCommands.retry,
  TreeCommands.loadMore,
  AgentCommands.refreshNode,
  AgentCommands.filterJobs,
  AgentCommands.clearJobFilter,
  AgentCommands.copyId,
  PolicyCommands.refreshNode,
  PolicyCommands.restoreVersion,
  DatasetCommands.refreshNode,
  DatasetCommands.deleteFile,
  ComparisonCommands.thisIsRight,
  ComparisonCommands.setExpected,
  CoverageCommands.openCase,
  CoverageCommands.showCases,
];
export const CASE_OUTPUTS_SCHEME = 'agent-workbench-case';

/** Trials of a policy edit or an agent version draft on copies: try, publish, discard, clean up; and a policy as a workspace file. */
export const TrialCommands = {
  tryThisEdit: 'agentWorkbench.trials.tryThisEdit',
  tryThisDraft: 'agentWorkbench.trials.tryThisDraft',
  publishThisEdit: 'agentWorkbench.trials.publish',
  discardTrial: 'agentWorkbench.trials.discard',
  cleanUpTrials: 'agentWorkbench.trials.cleanUp',
  exportPolicy: 'agentWorkbench.policies.exportToWorkspace',
} as const;

/**
 * Commands that act with what a workspace holds — run an agent, start or cancel jobs, upload, run a
 * query, send a workspace file, spend credits, write a label into a test set: disabled in Restricted Mode
 * (see commands/workspaceTrust.ts).
 */
export const TRUSTED_COMMANDS: readonly string[] = [
  RunCommands.runAgent,
  RunCommands.runVersion,
  RunCommands.runFile,
  RunCommands.runOnFiles,
  RunCommands.cancelJob,
  RunCommands.cancelAllJobs,
  DatasetCommands.uploadToDataset,
  DatasetCommands.uploadFiles,
  QueryCommands.run,
  TableCommands.uploadCsv,
  ComparisonCommands.runComparison,
  ComparisonCommands.testThisChange,
  TrialCommands.tryThisEdit,
  TrialCommands.tryThisDraft,
  TrialCommands.publishThisEdit,
  TrialCommands.discardTrial,
  TrialCommands.cleanUpTrials,
  // Labels are written into the workspace's test sets.
  ComparisonCommands.thisIsRight,
  ComparisonCommands.setExpected,
  ComparisonCommands.labelCases,
  // Cases are written into the workspace's test sets.
  CoverageCommands.findCases,
];
