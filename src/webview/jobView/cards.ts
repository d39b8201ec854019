// The job view's parts: cards of outputs and inputs, the status timeline, field lists. Every value
// goes in as text (el, valueElement).
import type { ArtifactView, Field, InputView, OutputView, StatusLook, TimelineEntry } from '../../core/jobView/model';
import { byId, setText } from '../common/dom';
import { el } from './elements';
import { valueElement } from './values';

/** A status icon (a codicon in the tone of the status). */
export function icon(look: StatusLook): HTMLElement {
  const span = el('span', `codicon codicon-${look.icon} tone-${look.tone}${look.spin ? ' codicon-modifier-spin' : ''}`);
  span.setAttribute('aria-hidden', 'true');
  return span;
}

/** A definition list of fields; hidden when there are none. */
export function fields(target: HTMLElement, list: readonly Field[]): void {
  target.replaceChildren();
  for (const field of list) target.append(el('dt', '', field.label), el('dd', '', field.value));
  target.hidden = list.length === 0;
}

/** A line of text by id; hidden when empty. */
export function note(id: string, text: string): void {
  const element = byId(id);
  setText(element, text);
  element.hidden = text === '';
}

/** One output: its value, or the agent's answer beside a reviewer's correction. */
export function outputCard(output: OutputView): HTMLElement {
  const card = el('article', 'card output');
  const head = el('header', 'card-head');
  head.append(el('span', 'key', output.key));
  if (output.dataType) head.append(el('span', 'badge', output.dataType));
  if (output.cost) head.append(el('span', 'hint', `cost ${output.cost}`));
  card.append(head);
  if (output.description) card.append(el('p', 'description', output.description));
  if (!output.corrected) {
    card.append(valueElement(output.value, `Value of ${output.key}`));
    return card;
  }
  const compare = el('div', 'compare');
  const original = el('div', 'side');
  original.append(el('div', 'side-title', 'Agent’s answer'), valueElement(output.value, `Agent’s answer for ${output.key}`));
  const corrected = el('div', 'side corrected');
  const title = el('div', 'side-title');
  title.append(el('span', 'codicon codicon-edit'), el('span', '', ' Corrected by a reviewer'));
  corrected.append(title, valueElement(output.corrected, `Corrected value of ${output.key}`));
  compare.append(original, corrected);
  card.append(compare);
  return card;
}

/** One status event of the timeline. */
export function timelineItem(entry: TimelineEntry): HTMLElement {
  const item = el('li', `event tone-${entry.look.tone}`);
  const line = el('div', 'event-line');
  // A past event does not spin, even a PENDING one.
  line.append(icon({ ...entry.look, spin: false }), el('span', 'event-status', entry.status));
  if (entry.count) line.append(el('span', 'badge', entry.count));
  line.append(el('span', 'hint', entry.time));
  if (entry.observed) line.append(el('span', 'hint', '(seen here)'));
  item.append(line);
  if (entry.error) item.append(el('pre', 'value error-text', entry.error));
  if (entry.details) {
    const details = el('details', 'event-details');
    details.append(el('summary', '', 'Error details'), el('pre', 'value code', entry.details));
    item.append(details);
  }
  return item;
}

/** One input: its key, type, file name, description and value. */
export function inputCard(input: InputView): HTMLElement {
  const card = el('article', 'card input');
  const head = el('header', 'card-head');
  head.append(el('span', 'key', input.key));
  if (input.dataType) head.append(el('span', 'badge', input.dataType));
  if (input.fileName) head.append(el('span', 'hint', `file: ${input.fileName}`));
  card.append(head);
  if (input.description) card.append(el('p', 'description', input.description));
  card.append(valueElement(input.value, `Input ${input.key}`));
  return card;
}

/** One artifact: its name and key, with Open and Save… (`ask(save)` sends the request). */
export function artifactItem(artifact: ArtifactView, ask: (save: boolean) => void): HTMLElement {
  const item = el('li', 'artifact');
  item.append(el('span', 'key', artifact.name), el('code', 'artifact-key', artifact.key));
  const button = (label: string, glyphClass: string, save: boolean, title: string): HTMLButtonElement => {
    const b = el('button', 'secondary');
    b.type = 'button';
    b.title = title;
    const glyph = el('span', `codicon ${glyphClass}`);
    glyph.setAttribute('aria-hidden', 'true');
    b.append(glyph, el('span', '', label));
    b.setAttribute('aria-label', `${label} ${artifact.name}`);
    b.addEventListener('click', () => ask(save));
    return b;
  };
  item.append(button('Open', 'codicon-go-to-file', false, 'Open the artifact as read-only JSON'), button('Save…', 'codicon-save', true, 'Save the artifact as a JSON file'));
  return item;
}
