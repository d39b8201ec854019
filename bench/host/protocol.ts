// What the benchmark orchestrator (Node) and the bench host runner (inside the extension host) say
// to each other: the runner announces itself with a hello, then answers one task per POST.

/** Sent by the runner to the orchestrator's hello URL when its extension host is up. */
export interface Hello {
  port: number;
  pid: number;
}

/** A service to sign in to. */
export interface ServiceConnection {
  baseUrl: string;
  organizationId: string;
  token: string;
}

/** A JavaScript file evaluated while the extension loaded and activated. */
export interface LoadedModule {
  file: string;
  bytes: number;
}

/** How long the runner keeps watching for files the extension loads once activate() has returned (ms). */
export const AFTER_ACTIVATION_MS = 3000;

/** One activation, measured around VS Code's own require of the extension and its call of activate(). */
export interface ActivationSample {
  /** The require of the extension's main file, nested requires included (VS Code's "code loading"). */
  codeLoadMs: number;
  /** The synchronous call of activate() (VS Code's "activate call"). */
  activateCallMs: number;
  /** From the call until its result resolved (our activate returns synchronously). */
  activateResolvedMs: number;
  /** `extension.activate()` as an API caller waits for it: context creation, storage, everything. */
  apiWaitMs: number;
  /** VS Code's own marks around its code loading, when it set them. */
  vscodeCodeLoadMs: number | null;
  modules: LoadedModule[];
  /** Files of the extension loaded in the seconds after activate() returned (lazy loading). */
  loadedSoonAfter: LoadedModule[];
}

/** The host's view of itself. */
export interface HostState {
  pid: number;
  extensionActive: boolean;
  windowFocused: boolean;
  connected: boolean;
  rssBytes: number;
}

/** The root request of the Agents view, as the extension host saw it. */
export interface TreeRootTiming {
  /** Date.now() when VS Code asked for the root's children (same clock as the browser's Date.now()). */
  startedAt: number;
  durationMs: number;
  nodes: number;
  firstLabel: string | null;
  calls: number;
}

/** What the reference tree shows: labels it holds (`instant`), or a page it fetches itself (`fetch`). */
export interface ReferenceTreeArgs {
  mode: 'instant' | 'fetch';
  labels?: string[];
  baseUrl?: string;
  organizationId?: string;
  token?: string;
  ordering?: string;
}

export interface WatchState {
  focused: boolean;
  intervalMs: number;
  watched: number;
  running: number;
  statuses: Record<string, number>;
}

export interface UploadArgs {
  filePath: string;
  datasetId: string;
  /** Run under the CPU profiler and write the profile here (for finding causes; times not representative). */
  profileTo?: string;
}

/** How often the extension host's memory is sampled during an upload (ms). */
export const MEMORY_SAMPLE_MS = 25;

export interface UploadSample {
  ok: boolean;
  reason?: string;
  ms: number;
  bytes: number;
  rssBeforeBytes: number;
  rssPeakBytes: number;
  heapBeforeBytes: number;
  heapPeakBytes: number;
  externalPeakBytes: number;
  arrayBuffersPeakBytes: number;
  samples: number;
  /** The extension host's garbage collections during the upload, by kind. */
  gc: Record<string, { count: number; ms: number }>;
}

export interface GridFetch {
  rows: number;
  columns: number;
  fetchMs: number;
  queryId: string;
}

export interface GridOpen {
  queryId: string;
  /** Date.now() just before show() (the browser's Date.now() reads the same clock). */
  shownAt: number;
  /** The results panel's own timings, from show() (see PanelTimings). */
  timings: Record<string, number | undefined>;
}

export interface GridScroll {
  frames: number;
  meanMs: number;
  p95Ms: number;
  maxMs: number;
  longFrames: number;
  reachedEnd: boolean;
}

export interface SqlCompletionArgs {
  text: string;
  offsets: number[];
  warmUp: number;
  runs: number;
}

export interface SqlCompletionSample {
  /** Milliseconds per offset, one per run. */
  samples: number[][];
  /** The same requests on the text as a plaintext document (VS Code's own providers only). */
  referenceSamples: number[][];
  /** Items offered at each offset (all providers of the editor, ours among them). */
  items: number[];
  /** Tables in the extension's catalog. */
  tables: number;
}

export interface SoakArgs {
  agentName: string;
  documents: number;
  jobs: number;
  jobViews: number;
  resultPanels: number;
  watched: number;
  polls: number;
  pollSpacingMs: number;
}

/** The extension host after a forced full collection. */
export interface SoakSnapshot {
  heapBytes: number;
  /** Active handles and requests (process.getActiveResourcesInfo), in all and by kind. */
  handles: number;
  resources: Record<string, number>;
  /** Documents the editable file system holds (null when the extension does not say). */
  documents: number | null;
}

export interface SoakPhase {
  name: string;
  count: number;
  ms: number;
}

export interface SoakSample {
  before: SoakSnapshot;
  after: SoakSnapshot;
  phases: SoakPhase[];
}

export interface RunToRowArgs {
  agentName: string;
  inputs: Record<string, unknown>;
  rounds: number;
  /** For the raw request beside each run. */
  baseUrl: string;
  organizationId: string;
  token: string;
}

export interface RunToRowSample {
  /** From the run command to the Agents view's Jobs list answered with the new job (ms), one per round. */
  runMs: number[];
  /** One raw POST of the same body from the extension host (ms), one per round. */
  rawMs: number[];
}

/** The size of a page whose frames are measured: its floor page has the same rows, cells and row height in view. */
export interface FloorShape {
  /** Rows in view. */
  rows: number;
  /** Cells in each row. */
  cells: number;
  rowHeight: number;
  /** Width of each cell (px). */
  cellWidth: number;
  /** Rows to scroll through. */
  totalRows: number;
}

export interface ComparisonFileArgs {
  /** File name in the workspace folder (`*.comparison.json`). */
  name: string;
  text: string;
}

/** Every task the runner answers, with its argument and result types. */
export interface HostTasks {
  state: [undefined, HostState];
  activate: [{ profileTo?: string } | undefined, ActivationSample];
  showRunningExtensions: [undefined, null];
  closeEditors: [undefined, null];
  connect: [ServiceConnection, HostState];
  treeOrdering: [{ ordering: string | null }, null];
  treeLastRoot: [undefined, TreeRootTiming | null];
  referenceTree: [ReferenceTreeArgs, null];
  watch: [{ ids: string[] }, WatchState];
  watchState: [undefined, WatchState];
  unwatchAll: [undefined, null];
  upload: [UploadArgs, UploadSample];
  gridFetch: [{ sql: string }, GridFetch];
  gridOpen: [undefined, GridOpen];
  gridRun: [{ sql: string }, GridOpen];
  gridScroll: [{ queryId: string }, GridScroll];
  emptyWebview: [undefined, number];
  gridForget: [undefined, null];
  retainedHeap: [undefined, number];
  sqlCompletion: [SqlCompletionArgs, SqlCompletionSample];
  soak: [SoakArgs, SoakSample];
  runToRow: [RunToRowArgs, RunToRowSample];
  comparisonWrite: [ComparisonFileArgs, string];
  comparisonOpen: [{ uri: string }, number];
  floorOpen: [FloorShape, null];
  floorClose: [undefined, null];
}

export type TaskName = keyof HostTasks;

/** Environment variables the orchestrator gives code-server (and so the extension host). */
export const BenchEnv = {
  hello: 'AGENT_WORKBENCH_BENCH_HELLO',
  secret: 'AGENT_WORKBENCH_BENCH_SECRET',
} as const;

/** The header that carries the shared secret on every call, both ways. */
export const SECRET_HEADER = 'x-agent-workbench-bench';
