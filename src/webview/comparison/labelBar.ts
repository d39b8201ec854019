// The label bar under the case table: for the selected case, This Is Right on each target that gave an
// outcome, and Set Expected…. Keyboard first (it follows the table in the tab order); a cell's context
// menu offers the same two actions. Text only.
import type { ComparisonHostMessage } from '../../core/comparison/viewProtocol';
import { make } from '../common/dom';
import { reviewText } from './caseRows';

type Shown = Extract<ComparisonHostMessage, { type: 'comparison' }>;

/** What a label button asks: target `target`'s cell is right, or Set Expected… (of the outcome). */
export type LabelAsk = (target: number, action: 'right' | 'set') => void;

/** A key telling whether the bar of a case would show anything else (so it is built again only then). */
export function labelBarKey(shown: Shown, index: number): string {
  const row = shown.rows[index];
  return JSON.stringify([shown.load, index, row?.case, row?.expected, row?.reviewed, row?.reviewDisagrees, row?.cells.map((c) => [c.state, c.values[0]])]);
}

/** The bar's content for case `index`. */
export function labelBar(shown: Shown, index: number, ask: LabelAsk): HTMLElement[] {
  const row = shown.rows[index];
  if (!row) return [];
  const what = make('span', 'label-case', `${row.case}: ${row.expected === null ? 'nothing expected' : `expected ${row.expected}`}`);
  const review = reviewText(row);
  if (review) what.append(' · ', make('span', `label-review${row.reviewDisagrees ? ' review-disagree' : ''}`, review));
  const buttons: HTMLElement[] = [];
  shown.targets.forEach((target, t) => {
    const cell = row.cells[t];
    const outcome = cell?.state === 'done' ? cell.values[0] : null;
    if (outcome === null || outcome === undefined) return;
    const agrees = row.expected !== null && cell?.mismatch === false;
    // A check mark only where the outcome is what the case expects; elsewhere the button says what it does.
    const button = make('button', `secondary label-right${agrees ? ' agrees' : ''}`, agrees ? `✓ ${target.label}: ${outcome} (as expected)` : `This Is Right: ${target.label}: ${outcome}`);
    button.type = 'button';
    button.disabled = agrees;
    button.title = agrees ? `${outcome} is already what this case expects` : `This Is Right: ${outcome} becomes what this case expects (written into the test set)`;
    button.setAttribute('aria-label', `This Is Right: ${target.label}'s ${outcome}`);
    button.addEventListener('click', () => ask(t, 'right'));
    buttons.push(button);
  });
  const set = make('button', 'secondary label-set', 'Set Expected…');
  set.type = 'button';
  set.title = 'Choose what this case expects: one of the policy’s dispositions, or another value, with a comment';
  const other = Math.max(0, shown.targets.findIndex((t) => t.kind !== 'baseline'));
  set.addEventListener('click', () => ask(other, 'set'));
  return [what, ...buttons, set];
}
