// The labelling pass, a mode of the comparison page: the unlabelled cases one by one, keyboard first —
// a number picks a disposition, Enter agrees with the outcome shown, S skips, Backspace goes back,
// Escape stops. It starts at the selected case, so it stops and resumes anywhere. Text only.
import { labelProgress, nextUnlabelled, shownTarget } from '../../core/comparison/labelWalk';
import type { ComparisonHostMessage, ComparisonPageMessage } from '../../core/comparison/viewProtocol';
import { byId, make } from '../common/dom';

type Shown = Extract<ComparisonHostMessage, { type: 'comparison' }>;
type Send = (message: ComparisonPageMessage) => void;

export class LabelPass {
  private readonly section = byId('label-pass');
  private dispositions: string[] = [];
  private index: number | undefined;
  /** The cases this pass showed, in order (Backspace goes back through them). */
  private history: number[] = [];
  private readonly skipped = new Set<number>();
  private inputs = new Map<number, [string, string][]>();

  constructor(
    private readonly shown: () => Shown | undefined,
    private readonly send: Send,
    /** Selects a case in the table (the pass and the table show the same case). */
    private readonly select: (index: number) => void,
  ) {
    this.section.addEventListener('keydown', (event) => this.onKey(event));
  }

  get active(): boolean {
    return !this.section.hidden;
  }

  /** Starts at case `from` (the selected one); the dispositions come with the extension's answer. */
  start(from: number): void {
    const shown = this.shown();
    if (!shown) return;
    this.history = [];
    this.skipped.clear();
    this.section.hidden = false;
    this.send({ type: 'labelMode', load: shown.load });
    this.goTo(nextUnlabelled(shown.rows, from, this.skipped));
    this.section.focus();
  }

  stop(): void {
    this.section.hidden = true;
    this.index = undefined;
  }

  /** A message of the extension for the pass. */
  onMessage(message: Extract<ComparisonHostMessage, { type: 'dispositions' | 'inputs' }>): void {
    if (message.load !== this.shown()?.load) return;
    if (message.type === 'dispositions') this.dispositions = message.values;
    else this.inputs.set(message.index, message.inputs);
    this.render();
  }

  /** The comparison changed (a label landed): the progress and the case shown are painted again. */
  refresh(): void {
    if (this.active) this.render();
  }

  private goTo(index: number | undefined, remember = true): void {
    const shown = this.shown();
    if (remember && this.index !== undefined) this.history.push(this.index);
    this.index = index;
    if (shown && index !== undefined) {
      this.select(index);
      if (!this.inputs.has(index)) this.send({ type: 'inputs', load: shown.load, index });
    }
    this.render();
  }

  private advance(): void {
    const shown = this.shown();
    if (!shown || this.index === undefined) return;
    this.skipped.add(this.index);
    this.goTo(nextUnlabelled(shown.rows, this.index + 1, this.skipped));
  }

  private onKey(event: KeyboardEvent): void {
    const shown = this.shown();
    if (!shown) return;
    const index = this.index;
    const row = index === undefined ? undefined : shown.rows[index];
    if (event.key === 'Escape') this.stop();
    else if (event.key === 'Backspace') {
      const back = this.history.pop();
      if (back !== undefined) {
        this.skipped.delete(back);
        this.goTo(back, false);
      }
    } else if (index !== undefined && row && (event.key === 's' || event.key === 'S')) this.advance();
    else if (index !== undefined && row && event.key === 'Enter') {
      const target = shownTarget(shown.targets, row);
      if (target === undefined) return;
      this.send({ type: 'label', load: shown.load, index, target, key: 0, action: 'right' });
      this.advance();
    } else if (index !== undefined && /^[1-9]$/.test(event.key) && this.dispositions[Number(event.key) - 1] !== undefined) {
      this.send({ type: 'labelAs', load: shown.load, index, value: this.dispositions[Number(event.key) - 1]! });
      this.advance();
    } else return;
    event.preventDefault();
  }

  private render(): void {
    const shown = this.shown();
    if (!shown || !this.active) return;
    const index = this.index;
    const row = index === undefined ? undefined : shown.rows[index];
    const progress = make('p', 'pass-progress', labelProgress(shown.rows));
    progress.setAttribute('role', 'status');
    if (index === undefined || !row) {
      this.section.replaceChildren(progress, make('p', '', 'Every case is labelled (or skipped). Escape ends the pass; Backspace goes back.'));
      return;
    }
    const title = make('h2', 'pass-case', row.expected === null ? row.case : `${row.case} — expected ${row.expected}`);
    const inputs = make('dl', 'pass-inputs');
    for (const [key, text] of this.inputs.get(index) ?? []) inputs.append(make('dt', '', key), make('dd', '', text));
    const outputs = make('div', 'pass-outputs');
    shown.targets.forEach((target, t) => {
      const cell = row.cells[t];
      const box = make('div', 'pass-output');
      box.append(make('h3', '', target.label), make('p', '', cell?.state === 'done' ? shown.keys.map((k, i) => `${k}: ${cell.values[i] ?? '–'}`).join('\n') : (cell?.state ?? 'none')));
      outputs.append(box);
    });
    const choices = make('ol', 'pass-choices');
    this.dispositions.slice(0, 9).forEach((value, i) => {
      const li = make('li', '');
      li.append(make('span', 'pass-key', String(i + 1)), make('span', 'pass-value', value));
      choices.append(li);
    });
    const target = shownTarget(shown.targets, row);
    const agree = target === undefined ? 'no outcome to agree with' : `agree with ${shown.targets[target]!.label}: ${row.cells[target]!.values[0]}`;
    const keys = make('p', 'hint', `A number picks a disposition · Enter: ${agree} · S skips · Backspace goes back · Escape stops`);
    this.section.replaceChildren(progress, title, inputs, outputs, choices, keys);
  }
}
