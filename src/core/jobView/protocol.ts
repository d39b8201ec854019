/**
 * The messages between the job view page and the extension. Both sides check every message on arrival
 * (the page is another process: its messages are input, not trusted calls). No dependencies: the
 * page's bundle uses this file as is.
 */
import { type Check, arrayOf, isBoolean, isIndex, isMessage, isString, shaped } from '../messageShape';
import type { JobViewModel } from './model';

export const JOB_VIEW_ACTIONS = ['watch', 'cancel', 'runAgain', 'copyId', 'rawJson', 'refresh', 'thisIsRight', 'setExpected'] as const;
export type JobViewAction = (typeof JOB_VIEW_ACTIONS)[number];

export type JobHostMessage =
  | { type: 'job'; model: JobViewModel }
  | { type: 'notice'; text: string; error: boolean }
  /** The job is a case's run in a comparison: which case and what it expects (null: not opened from one), and whether its outcome can be agreed with. */
  | { type: 'labelling'; text: string | null; canAgree: boolean };

/** What the page painted (kept for tests): the job, the output values exactly as on screen, and elements it did not make. */
export interface JobRenderReport {
  jobId: string;
  status: string;
  outputs: string[];
  /** Elements in the page that its script did not create (markup from data would show up here). */
  foreignElements: number;
}

export type JobPageMessage =
  | { type: 'ready' }
  | { type: 'action'; jobId: string; action: JobViewAction }
  /** Open (or save) an artifact of the job; the extension acts only on a key its model named. */
  | { type: 'artifact'; jobId: string; key: string; save: boolean }
  | ({ type: 'rendered' } & JobRenderReport);

const isCount: Check = isIndex;
const isInteger: Check = (v) => typeof v === 'number' && Number.isInteger(v);
const listOf = arrayOf;
const nullable = (check: Check): Check => (v) => v === null || check(v);
const object = (checks: Record<string, Check>): Check => (v) => shaped(v, checks);

const TONES = new Set(['pending', 'running', 'retry', 'success', 'failure', 'cancelled', 'cached', 'unknown']);
const isLook = object({ icon: (v) => typeof v === 'string' && /^[a-z0-9-]+$/.test(v), spin: isBoolean, tone: (v) => TONES.has(v as string) });
const isValue = object({ kind: (v) => v === 'json' || v === 'markdown' || v === 'text', text: isString, lines: isCount });
const isField = object({ label: isString, value: isString });
const isModel = object({
  jobId: isString,
  agentId: isString,
  title: isString,
  agentName: isString,
  versionName: isString,
  status: object({ code: isInteger, name: isString, text: isString, look: isLook, final: isBoolean }),
  header: listOf(isField),
  timeline: listOf(object({ time: isString, status: isString, look: isLook, count: isString, error: isString, details: isString, observed: isBoolean })),
  inputs: listOf(object({ key: isString, description: isString, dataType: isString, fileName: isString, value: isValue })),
  inputsNote: isString,
  outputs: listOf(object({ key: isString, description: isString, dataType: isString, value: isValue, cost: isString, corrected: nullable(isValue) })),
  outputsNote: isString,
  artifacts: listOf(object({ name: isString, key: isString })),
  usage: listOf(isField),
  evaluation: nullable(object({ fields: listOf(isField), feedback: isString, reference: nullable(isValue) })),
  review: nullable(object({ fields: listOf(isField), comment: isString })),
  metadata: nullable(isValue),
  problems: listOf(isString),
  freshness: isString,
  actions: object({ cancel: isBoolean, runAgain: isBoolean, watch: isBoolean }),
});

const HOST: Record<JobHostMessage['type'], Record<string, Check>> = {
  job: { model: isModel },
  notice: { text: isString, error: isBoolean },
  labelling: { text: nullable(isString), canAgree: isBoolean },
};

/** The most output values a render report may carry, and the longest text of each. */
export const MAX_REPORTED_OUTPUTS = 200;
export const MAX_REPORTED_CHARS = 2000;

const PAGE: Partial<Record<JobPageMessage['type'], Record<string, Check>>> = {
  ready: {},
  action: { jobId: isString, action: (v) => (JOB_VIEW_ACTIONS as readonly unknown[]).includes(v) },
  artifact: { jobId: isString, key: (v) => typeof v === 'string' && v.length > 0 && v.length <= 1024, save: isBoolean },
  // The page's render report: test builds only (the build users get refuses it like any stranger).
  ...(__TEST_HOOKS__
    ? {
        rendered: {
          jobId: isString,
          status: isString,
          outputs: (v: unknown) => Array.isArray(v) && v.length <= MAX_REPORTED_OUTPUTS && v.every((s) => typeof s === 'string' && s.length <= MAX_REPORTED_CHARS),
          foreignElements: isCount,
        },
      }
    : {}),
};


/** A message from the page, or undefined when it is not one of ours (ignored and logged). */
export function parseJobPageMessage(value: unknown): JobPageMessage | undefined {
  return isMessage<JobPageMessage>(PAGE, value) ? value : undefined;
}

/** Whether a message has the shape the page expects (checked by the extension before sending, by the page on arrival). */
export function isJobHostMessage(value: unknown): value is JobHostMessage {
  return isMessage<JobHostMessage>(HOST, value);
}
