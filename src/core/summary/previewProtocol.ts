// The messages between the Summary Preview webview and the extension. Both sides validate every
// message on arrival (a webview is another process; its messages are input, not trusted calls).
// No dependencies: the extension's activation bundle and the tests use it as is.

/** A problem shown in the preview, with its place as people read it (line and column from 1). */
export interface PreviewProblem {
  message: string;
  line: number | null;
  column: number | null;
}

/** What the preview shows for the followed document. */
export interface RenderView {
  /** The previewed document (kept by the webview so a reload can bring the same preview back). */
  sourceUri: string;
  /** Tab title of the previewed document, and whether it is a policy version or a local file. */
  title: string;
  sourceKind: 'policy' | 'file';
  /** The rendered summary, shown as text; null when nothing could be rendered. */
  output: string | null;
  truncated: boolean;
  templateError: PreviewProblem | null;
  dataError: PreviewProblem | null;
  notice: string | null;
  missingFields: string[];
}

/** The sample shown in the editable field. */
export interface SampleView {
  /** Which policy (or file) the sample belongs to; edits name it, so a late edit never lands on another policy. */
  key: string;
  text: string;
  /** Where the sample came from ("Built from the policy", "Job 1a2b3c4d of Support QA", "Edited"). */
  origin: string;
  /** False when the text is too large to be remembered for the next session. */
  remembered: boolean;
}

export type HostMessage =
  /** `seq` counts renders, so the page's acknowledgement names the one it shows. */
  | { type: 'render'; seq: number; view: RenderView }
  | { type: 'sample'; sample: SampleView }
  | { type: 'idle'; message: string };

export const WEBVIEW_ACTIONS = ['fillFromJob', 'resetSample', 'copyOutput', 'revealTemplateError', 'showSource'] as const;
export type WebviewAction = (typeof WEBVIEW_ACTIONS)[number];

export type WebviewMessage =
  | { type: 'ready' }
  /** The page shows render `seq`; `text` is exactly the text on screen (so the extension knows what the user sees). */
  | { type: 'shown'; seq: number; text: string }
  | { type: 'sampleChanged'; key: string; text: string }
  | { type: 'action'; action: WebviewAction };

/** The longest sample text the webview may send (larger texts are refused, not cut). */
export const MAX_SAMPLE_MESSAGE_CHARS = 2 * 1024 * 1024;

/** The longest text a `shown` acknowledgement may carry (rendered output is cut before this). */
export const MAX_SHOWN_CHARS = 256 * 1024;

/** A message from the webview, or undefined when it is not one of ours (it is then ignored and logged). */
export function parseWebviewMessage(value: unknown): WebviewMessage | undefined {
  if (!isRecord(value)) return undefined;
  switch (value.type) {
    case 'ready':
      return onlyKeys(value, ['type']) ? { type: 'ready' } : undefined;
    case 'shown':
      return onlyKeys(value, ['type', 'seq', 'text']) && isSeq(value.seq) && typeof value.text === 'string' && value.text.length <= MAX_SHOWN_CHARS
        ? { type: 'shown', seq: value.seq as number, text: value.text }
        : undefined;
    case 'sampleChanged':
      return onlyKeys(value, ['type', 'key', 'text']) && typeof value.key === 'string' && typeof value.text === 'string' && value.text.length <= MAX_SAMPLE_MESSAGE_CHARS
        ? { type: 'sampleChanged', key: value.key, text: value.text }
        : undefined;
    case 'action':
      return onlyKeys(value, ['type', 'action']) && (WEBVIEW_ACTIONS as readonly unknown[]).includes(value.action)
        ? { type: 'action', action: value.action as WebviewAction }
        : undefined;
    default:
      return undefined;
  }
}

/** Whether a message the extension is about to send has the declared shape (catches our own mistakes). */
export function isHostMessage(value: unknown): value is HostMessage {
  if (!isRecord(value)) return false;
  switch (value.type) {
    case 'render':
      return onlyKeys(value, ['type', 'seq', 'view']) && isSeq(value.seq) && isRenderView(value.view);
    case 'sample':
      return onlyKeys(value, ['type', 'sample']) && isRecord(value.sample) && typeof value.sample.key === 'string' && typeof value.sample.text === 'string' && typeof value.sample.origin === 'string' && typeof value.sample.remembered === 'boolean';
    case 'idle':
      return onlyKeys(value, ['type', 'message']) && typeof value.message === 'string';
    default:
      return false;
  }
}

function isRenderView(v: unknown): v is RenderView {
  return (
    isRecord(v) &&
    typeof v.sourceUri === 'string' &&
    typeof v.title === 'string' &&
    (v.sourceKind === 'policy' || v.sourceKind === 'file') &&
    (v.output === null || typeof v.output === 'string') &&
    typeof v.truncated === 'boolean' &&
    isProblemOrNull(v.templateError) &&
    isProblemOrNull(v.dataError) &&
    (v.notice === null || typeof v.notice === 'string') &&
    Array.isArray(v.missingFields) &&
    v.missingFields.every((f) => typeof f === 'string')
  );
}

function isProblemOrNull(v: unknown): boolean {
  if (v === null) return true;
  const position = (n: unknown) => n === null || (typeof n === 'number' && Number.isInteger(n) && n >= 1);
  return isRecord(v) && typeof v.message === 'string' && position(v.line) && position(v.column);
}

function isSeq(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function onlyKeys(value: Record<string, unknown>, keys: readonly string[]): boolean {
  return Object.keys(value).every((k) => keys.includes(k));
}
