/**
 * Which job views were open, kept by the extension for the next window. VS Code brings a job view back
 * after a reload with the state its page saved; a page that was never shown (a view opened behind
 * another one, its page never loaded) saved none, so the view is found again by the job its title
 * names ("Job 0b5c2d1e · Support Call QA") among the views kept here.
 */
import { shortId } from './jobText';

/** One open job view: enough to open it again. */
export interface OpenJobView {
  jobId: string;
  agentId: string;
  agentName: string;
}

/** More views than anyone keeps open; a stale list stays small. */
export const OPEN_VIEWS_KEPT = 100;

/** The kept views with this one (again) last, the oldest dropped past the bound. */
export function withOpenView(views: readonly OpenJobView[], view: OpenJobView): OpenJobView[] {
  return [...views.filter((v) => v.jobId !== view.jobId), view].slice(-OPEN_VIEWS_KEPT);
}

/** The kept views without this job's. */
export function withoutOpenView(views: readonly OpenJobView[], jobId: string): OpenJobView[] {
  return views.filter((v) => v.jobId !== jobId);
}

/** The kept views in stored data; garbage is dropped. */
export function parseOpenViews(data: unknown): OpenJobView[] {
  if (!Array.isArray(data)) return [];
  return data.flatMap((entry) => {
    const view = parseView(entry);
    return view ? [view] : [];
  });
}

/**
 * The job a restored view shows: the one its page's state names, else the kept view whose job its
 * title names (the newest such, should two jobs share the first eight characters of their IDs).
 */
export function restoredJobView(state: unknown, title: string, kept: readonly OpenJobView[]): OpenJobView | undefined {
  const saved = parseView(state);
  if (saved) return saved;
  return [...kept].reverse().find((view) => title.startsWith(`Job ${shortId(view.jobId)} `) || title === `Job ${shortId(view.jobId)}`);
}

function parseView(value: unknown): OpenJobView | undefined {
  const v = value as { jobId?: unknown; agentId?: unknown; agentName?: unknown } | null | undefined;
  if (typeof v?.jobId !== 'string' || typeof v.agentId !== 'string' || !v.jobId || !v.agentId || v.jobId.length > 200 || v.agentId.length > 200) return undefined;
  return { jobId: v.jobId, agentId: v.agentId, agentName: typeof v.agentName === 'string' && v.agentName ? v.agentName.slice(0, 300) : 'agent' };
}
