// The messages between the Summary Preview webview and the extension. Both sides validate every
// message on arrival (a webview is another process; its messages are input, not trusted calls).
// Checked with the shared message-shape check; no other dependency: the extension's activation bundle,
// the page and the tests use it as is.

import { type Check, type Checks, arrayOf, isBoolean, isMessage, isNullableString, isString, shaped } from '../messageShape';

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

const isSeq: Check = (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isPosition: Check = (v) => v === null || (typeof v === 'number' && Number.isInteger(v) && v >= 1);
const isProblemOrNull: Check = (v) => v === null || shaped(v, { message: isString, line: isPosition, column: isPosition });
const isTextUpTo = (max: number): Check => (v) => typeof v === 'string' && v.length <= max;

const RENDER_VIEW: Checks = {
  sourceUri: isString,
  title: isString,
  sourceKind: (v) => v === 'policy' || v === 'file',
  output: isNullableString,
  truncated: isBoolean,
  templateError: isProblemOrNull,
  dataError: isProblemOrNull,
  notice: isNullableString,
  missingFields: arrayOf(isString),
};

const SAMPLE_VIEW: Checks = { key: isString, text: isString, origin: isString, remembered: isBoolean };

const WEBVIEW_MESSAGES: Record<WebviewMessage['type'], Checks> = {
  ready: {},
  shown: { seq: isSeq, text: isTextUpTo(MAX_SHOWN_CHARS) },
  sampleChanged: { key: isString, text: isTextUpTo(MAX_SAMPLE_MESSAGE_CHARS) },
  action: { action: (v) => (WEBVIEW_ACTIONS as readonly unknown[]).includes(v) },
};

const HOST_MESSAGES: Record<HostMessage['type'], Checks> = {
  render: { seq: isSeq, view: (v) => shaped(v, RENDER_VIEW) },
  sample: { sample: (v) => shaped(v, SAMPLE_VIEW) },
  idle: { message: isString },
};

/** A message from the webview, or undefined when it is not one of ours (it is then ignored and logged). */
export function parseWebviewMessage(value: unknown): WebviewMessage | undefined {
  return isMessage<WebviewMessage>(WEBVIEW_MESSAGES, value) ? value : undefined;
}

/** Whether a message the extension is about to send has the declared shape (catches our own mistakes). */
export function isHostMessage(value: unknown): value is HostMessage {
  return isMessage<HostMessage>(HOST_MESSAGES, value);
}
