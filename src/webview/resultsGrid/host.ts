// The page's link to the extension: messages out, and the state VS Code keeps while the page is hidden.
import { isGridHostMessage, type GridHostMessage, type GridPageMessage } from '../../core/grid/protocol';
import { PageLink } from '../common/pageLink';

/** The page's one link to the extension. */
export const link = new PageLink<GridHostMessage, GridPageMessage>(isGridHostMessage, 'Query results');

/** Sends a message to the extension (which checks it on arrival). */
export function send(message: GridPageMessage): void {
  link.send(message);
}

/** What the page remembers across being hidden and shown: per query, the widths, scroll and tab. */
export interface PageState {
  key: string;
  load: number;
  active: number;
  widths: Record<number, number[]>;
  scroll: Record<number, { top: number; left: number }>;
}

/** The remembered state of this query's result, or a fresh one. */
export function loadState(key: string, load: number): PageState {
  const saved = link.getState() as Partial<PageState> | undefined;
  if (saved && saved.key === key && saved.load === load && typeof saved.active === 'number') {
    return { key, load, active: saved.active, widths: saved.widths ?? {}, scroll: saved.scroll ?? {} };
  }
  return { key, load, active: 0, widths: {}, scroll: {} };
}

export function saveState(state: PageState): void {
  link.setState(state);
}
