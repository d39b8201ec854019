/**
 * The job view's model: what the page shows of one job, as plain data (no functions, no markup). The
 * extension builds it from the records it has (`viewModel.ts`); the page puts every string in as text.
 * No dependencies: the page's bundle uses this file as is.
 */

/** How a status looks: a codicon name, whether it spins, and a tone the page colours with theme variables. */
export interface StatusLook {
  /** Codicon name without the `codicon-` prefix. */
  icon: string;
  spin: boolean;
  tone: 'pending' | 'running' | 'retry' | 'success' | 'failure' | 'cancelled' | 'cached' | 'unknown';
}

/** A value from the service, ready to show: JSON pretty-printed (the page folds it), Markdown (the page renders its blocks as text), or text. */
export interface ShownValue {
  kind: 'json' | 'markdown' | 'text';
  text: string;
  /** Lines in `text` (long texts start folded to a readable height). */
  lines: number;
}

/** A label and a text, for the header, usage, evaluation and review rows. */
export interface Field {
  label: string;
  value: string;
}

export interface TimelineEntry {
  time: string;
  status: string;
  look: StatusLook;
  /** "×3" when the service folded repeated events, else ''. */
  count: string;
  error: string;
  /** Pretty JSON of `error_details`, or ''. */
  details: string;
  /** True for a change this window saw happen (not yet in the service's event list). */
  observed: boolean;
}

export interface InputView {
  key: string;
  description: string;
  dataType: string;
  fileName: string;
  value: ShownValue;
}

export interface OutputView {
  key: string;
  description: string;
  dataType: string;
  value: ShownValue;
  cost: string;
  /** The reviewer's corrected value when it differs from the agent's answer. */
  corrected: ShownValue | null;
}

/** An artifact the outputs name: what they call it and its key (the page asks to open or save it by key). */
export interface ArtifactView {
  name: string;
  key: string;
}

/** What one job view shows. */
export interface JobViewModel {
  jobId: string;
  agentId: string;
  title: string;
  agentName: string;
  versionName: string;
  status: { code: number; name: string; text: string; look: StatusLook; final: boolean };
  header: Field[];
  timeline: TimelineEntry[];
  inputs: InputView[];
  /** Why the inputs list is empty or partial, or ''. */
  inputsNote: string;
  outputs: OutputView[];
  /** Why there are no outputs (still running, no result, not read yet), or ''. */
  outputsNote: string;
  /** Full results kept apart from the outputs, which name them (`evidence_data`). */
  artifacts: ArtifactView[];
  usage: Field[];
  evaluation: { fields: Field[]; feedback: string; reference: ShownValue | null } | null;
  review: { fields: Field[]; comment: string } | null;
  metadata: ShownValue | null;
  /** Problems reading parts of the job (the rest is still shown). */
  problems: string[];
  /** "Read at 14:03:12" (and "· refreshing while it runs"). */
  freshness: string;
  actions: { cancel: boolean; runAgain: boolean; watch: boolean };
}
