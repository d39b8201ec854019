// The header figures of each target: accuracy, changes, failures, progress, cost, tokens, durations,
// a chart of outcomes, and Drop This Target where a target may be left out.
import type { SummaryView } from '../../core/comparison/viewProtocol';
import { count, make } from '../common/dom';
import { duration } from './caseRows';
import { outcomeChart } from './outcomeChart';

/** One card per target; `drop(index)` when a droppable target's button is clicked (the host marks only a failed target droppable). */
export function summaryCards(summaries: readonly SummaryView[], drop: (index: number) => void): HTMLElement[] {
  return summaries.map((s, index) => {
    const card = make('div', 'card');
    card.append(make('h2', 'card-title', s.label));
    const figures = make('dl', 'figures');
    const add = (name: string, value: string, tone = ''): void => void figures.append(make('dt', '', name), make('dd', tone, value));
    add('Accuracy', s.accuracy);
    if (s.changed !== null) add('Changed', count(s.changed), s.changed > 0 ? 'changed' : '');
    else add('Changed', 'baseline');
    add('Failures', count(s.failures), s.failures > 0 ? 'failed' : '');
    add('Done', s.running > 0 ? `${count(s.done)} (${count(s.running)} running)` : count(s.done));
    // Jobs answered from the cache cost nothing and took no time of their own: said as "cached", never as 0.
    const allCached = s.cached > 0 && s.cached === s.done;
    const cachedNote = s.cached > 0 && !allCached ? ` (${count(s.cached)} cached)` : '';
    add('Cost', allCached ? 'cached' : `${s.cost.toFixed(4)}${cachedNote}`);
    add('Tokens', allCached ? 'cached' : count(s.tokens));
    add('p50 / p95', allCached ? 'cached' : `${duration(s.p50Ms)} / ${duration(s.p95Ms)}`);
    card.append(figures, outcomeChart(s.outcomes, `Outcomes of ${s.label}`));
    if (s.failed !== null) {
      card.classList.add('target-failed');
      card.append(make('p', 'failed target-failure', `Runs nothing more: ${s.failed}`));
    }
    if (s.droppable) {
      const button = make('button', 'secondary drop-target', 'Drop This Target');
      button.setAttribute('type', 'button');
      button.title = 'Leave this target and its results out of the comparison';
      button.addEventListener('click', () => drop(index));
      card.append(button);
    }
    return card;
  });
}
