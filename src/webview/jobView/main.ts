// The job view page: one job's header, outputs, usage, inputs, status timeline, evaluation, review and
// metadata. The extension sends the whole model; this page paints it, as text, and asks for actions.
import { isJobHostMessage, JOB_VIEW_ACTIONS, MAX_REPORTED_CHARS, MAX_REPORTED_OUTPUTS, type JobHostMessage, type JobPageMessage } from '../../core/jobView/protocol';
import type { Field, JobViewModel, OutputView, StatusLook, TimelineEntry } from '../../core/jobView/model';
import { byId, setText } from '../common/dom';
import { el, foreignElements } from './elements';
import { valueElement } from './values';
import { vscodeApi } from '../common/vscodeApi';

const api = vscodeApi<JobPageMessage>();

function send(message: JobPageMessage): void {
  api.postMessage(message);
}

let jobId = '';

for (const action of JOB_VIEW_ACTIONS) {
  byId(`act-${action}`).addEventListener('click', () => {
    if (jobId) send({ type: 'action', jobId, action });
  });
}

function icon(look: StatusLook): HTMLElement {
  const span = el('span', `codicon codicon-${look.icon} tone-${look.tone}${look.spin ? ' codicon-modifier-spin' : ''}`);
  span.setAttribute('aria-hidden', 'true');
  return span;
}

function fields(target: HTMLElement, list: readonly Field[]): void {
  target.replaceChildren();
  for (const field of list) target.append(el('dt', '', field.label), el('dd', '', field.value));
  target.hidden = list.length === 0;
}

function note(id: string, text: string): void {
  const element = byId(id);
  setText(element, text);
  element.hidden = text === '';
}

function outputCard(output: OutputView): HTMLElement {
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

function timelineItem(entry: TimelineEntry): HTMLElement {
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

function render(model: JobViewModel): void {
  jobId = model.jobId;
  // VS Code keeps this across a window reload, so the extension can open the same job again.
  api.setState({ agentId: model.agentId, jobId: model.jobId, agentName: model.agentName });
  document.title = model.title;
  byId('status-icon').replaceChildren(icon(model.status.look));
  setText(byId('title'), model.title);
  const badge = byId('status-text');
  setText(badge, model.status.text);
  badge.className = `status-badge tone-${model.status.look.tone}`;
  byId('act-cancel').hidden = !model.actions.cancel;
  byId('act-watch').hidden = !model.actions.watch;
  byId<HTMLButtonElement>('act-runAgain').disabled = !model.actions.runAgain;
  fields(byId('header-fields'), model.header);
  setText(byId('freshness'), model.freshness);
  const problems = byId('problems');
  problems.replaceChildren(...model.problems.map((p) => el('p', 'problem', p)));
  problems.hidden = model.problems.length === 0;

  byId('outputs').replaceChildren(...model.outputs.map(outputCard));
  note('outputs-note', model.outputsNote);
  fields(byId('usage'), model.usage);

  byId('inputs').replaceChildren(
    ...model.inputs.map((input) => {
      const card = el('article', 'card input');
      const head = el('header', 'card-head');
      head.append(el('span', 'key', input.key));
      if (input.dataType) head.append(el('span', 'badge', input.dataType));
      if (input.fileName) head.append(el('span', 'hint', `file: ${input.fileName}`));
      card.append(head);
      if (input.description) card.append(el('p', 'description', input.description));
      card.append(valueElement(input.value, `Input ${input.key}`));
      return card;
    }),
  );
  note('inputs-note', model.inputsNote);

  byId('timeline').replaceChildren(...model.timeline.map(timelineItem));
  note('timeline-note', model.timeline.length ? '' : 'No status events.');

  byId('evaluation-section').hidden = !model.evaluation;
  if (model.evaluation) {
    fields(byId('evaluation-fields'), model.evaluation.fields);
    note('evaluation-feedback', model.evaluation.feedback);
    byId('evaluation-reference').replaceChildren(...(model.evaluation.reference ? [el('div', 'side-title', 'Reference'), valueElement(model.evaluation.reference, 'Evaluation reference')] : []));
  }
  byId('review-section').hidden = !model.review;
  if (model.review) {
    fields(byId('review-fields'), model.review.fields);
    note('review-comment', model.review.comment);
  }
  byId('metadata-section').hidden = !model.metadata;
  byId('metadata').replaceChildren(...(model.metadata ? [valueElement(model.metadata, 'Metadata')] : []));
  byId('app').setAttribute('aria-busy', 'false');
  // The render report is for tests: the build users get drops it (and the page never sends it).
  if (__TEST_HOOKS__) report(model);
}

function report(model: JobViewModel): void {
  const outputs = [...byId('outputs').querySelectorAll('.output')].slice(0, MAX_REPORTED_OUTPUTS).map((card) => (card.textContent ?? '').slice(0, MAX_REPORTED_CHARS));
  send({ type: 'rendered', jobId: model.jobId, status: byId('status-text').textContent ?? '', outputs, foreignElements: foreignElements() });
}

function onMessage(message: JobHostMessage): void {
  if (message.type === 'job') return render(message.model);
  const notice = byId('notice');
  setText(notice, message.text);
  notice.className = message.error ? 'notice error' : 'notice';
  notice.hidden = message.text === '';
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  if (isJobHostMessage(event.data)) onMessage(event.data);
});
send({ type: 'ready' });
