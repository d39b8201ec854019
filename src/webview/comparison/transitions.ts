// What going from the baseline to another target did to the cases, as filters: became right, became
// wrong, stayed wrong (labelled cases), and a table of outcome on the baseline × outcome on the target
// (every case both finished), each count a button that filters the table to its cases. Text only.
import { transitionCounts, type RightWrong, type TransitionFilter } from '../../core/comparison/transitionFilter';
import type { RowView, TargetView } from '../../core/comparison/viewProtocol';
import { count, make } from '../common/dom';

const MOVES: [RightWrong, string][] = [
  ['becameRight', 'became right'],
  ['becameWrong', 'became wrong'],
  ['stayedWrong', 'stayed wrong'],
];

/** The two targets a transition is between: the baseline, and `to` (default the first other one); undefined with fewer than two. */
export function transitionTargets(targets: readonly TargetView[], to: number | undefined): { from: number; to: number } | undefined {
  if (targets.length < 2) return undefined;
  const from = Math.max(0, targets.findIndex((t) => t.kind === 'baseline'));
  const other = to !== undefined && to !== from && to < targets.length ? to : from === 0 ? 1 : 0;
  return { from, to: other };
}

/** Whether two filters pick the same cases. */
export function sameTransition(a: TransitionFilter | null, b: TransitionFilter): boolean {
  return a !== null && JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The transition filters of targets `from` → `to`; `pick(filter)` when one is pressed (again: null, no
 * filter). `chooseTo(index)` when another target is chosen (more than two targets).
 */
export function transitionPanel(
  targets: readonly TargetView[],
  rows: readonly RowView[],
  pair: { from: number; to: number },
  active: TransitionFilter | null,
  pick: (filter: TransitionFilter | null) => void,
  chooseTo: (to: number) => void,
): HTMLElement[] {
  const counts = transitionCounts(rows, pair.from, pair.to);
  const fromLabel = targets[pair.from]!.label;
  const button = (text: string, filter: TransitionFilter, n: number, label: string): HTMLButtonElement => {
    const pressed = sameTransition(active, filter);
    const b = make('button', `secondary transition${pressed ? ' pressed' : ''}`, text);
    b.type = 'button';
    b.setAttribute('aria-pressed', String(pressed));
    b.setAttribute('aria-label', label);
    b.disabled = n === 0 && !pressed;
    b.addEventListener('click', () => pick(pressed ? null : filter));
    return b;
  };
  const line = make('div', 'transition-moves');
  line.setAttribute('role', 'group');
  line.append(make('span', 'transition-title', `${fromLabel} → `), toChooser(targets, pair, chooseTo));
  for (const [kind, words] of MOVES) {
    const n = counts.rightWrong[kind];
    line.append(button(`${count(n)} ${words}`, { ...pair, kind }, n, `${count(n)} case${n === 1 ? '' : 's'} ${words}: show only them`));
  }
  line.append(make('span', 'hint', counts.judged === 0 ? 'no labelled case finished on both' : `of ${count(counts.judged)} labelled case${counts.judged === 1 ? '' : 's'} both finished`));
  line.setAttribute('aria-label', `What going from ${fromLabel} to ${targets[pair.to]!.label} did to the labelled cases`);
  return [line, outcomeTable(counts.outcomes, targets, pair, button)];
}

function toChooser(targets: readonly TargetView[], pair: { from: number; to: number }, chooseTo: (to: number) => void): HTMLElement {
  if (targets.length <= 2) return make('span', 'transition-title', targets[pair.to]!.label);
  const select = make('select', 'transition-to');
  select.setAttribute('aria-label', 'Target compared with the baseline');
  targets.forEach((t, i) => {
    if (i === pair.from) return;
    const option = make('option', '', t.label);
    option.value = String(i);
    option.selected = i === pair.to;
    select.append(option);
  });
  select.addEventListener('change', () => chooseTo(Number(select.value)));
  return select;
}

type MakeButton = (text: string, filter: TransitionFilter, n: number, label: string) => HTMLButtonElement;

/** Outcome on the baseline (rows) × outcome on the target (columns), each count a filter. */
function outcomeTable(outcomes: { from: string; to: string; count: number }[], targets: readonly TargetView[], pair: { from: number; to: number }, button: MakeButton): HTMLElement {
  const table = make('table', 'transition-table');
  const fromLabel = targets[pair.from]!.label;
  const toLabel = targets[pair.to]!.label;
  table.append(make('caption', 'hint', `Outcomes of the cases both finished: ${fromLabel} ↓ · ${toLabel} →`));
  if (outcomes.length === 0) {
    table.hidden = true;
    return table;
  }
  const froms = [...new Set(outcomes.map((o) => o.from))].sort();
  const tos = [...new Set(outcomes.map((o) => o.to))].sort();
  const head = make('tr', '');
  head.append(make('th', '', ''));
  for (const to of tos) head.append(cellHead('col', to));
  table.append(head);
  for (const from of froms) {
    const tr = make('tr', '');
    tr.append(cellHead('row', from));
    for (const to of tos) {
      const n = outcomes.find((o) => o.from === from && o.to === to)?.count ?? 0;
      const td = make('td', from === to ? 'same' : 'moved');
      if (n > 0) td.append(button(count(n), { ...pair, kind: 'outcomes', fromOutcome: from, toOutcome: to }, n, `${count(n)} case${n === 1 ? '' : 's'} ${from} on ${fromLabel} and ${to} on ${toLabel}: show only them`));
      else td.append(make('span', 'hint', '·'));
      tr.append(td);
    }
    table.append(tr);
  }
  return table;
}

function cellHead(scope: 'row' | 'col', text: string): HTMLElement {
  const th = make('th', '', text);
  th.setAttribute('scope', scope);
  return th;
}
