// The job view page: one job's header, outputs, usage, inputs, status timeline, evaluation, review and
// metadata. The extension sends the whole model; this page paints it, as text, and asks for actions.
import { JOB_VIEW_ACTIONS, MAX_REPORTED_CHARS, MAX_REPORTED_OUTPUTS, type JobHostMessage, type JobPageMessage } from '../../core/jobView/protocol';
import type { JobViewModel } from '../../core/jobView/model';
import { byId, setText } from '../common/dom';
import type { PageLink } from '../common/pageLink';
import { artifactItem, fields, icon, inputCard, note, outputCard, timelineItem } from './cards';
import { el, foreignElements } from './elements';
import { valueElement } from './values';

export class JobViewPage {
  /** The job shown (what the action buttons act on). */
  private jobId = '';

  constructor(private readonly link: PageLink<JobHostMessage, JobPageMessage>) {
    for (const action of JOB_VIEW_ACTIONS) {
      byId(`act-${action}`).addEventListener('click', () => {
        if (this.jobId) link.send({ type: 'action', jobId: this.jobId, action });
      });
    }
  }

  /** Handles one checked message of the extension. */
  onMessage(message: JobHostMessage): void {
    if (message.type === 'job') return this.render(message.model);
    if (message.type === 'labelling') {
      // Opened from a comparison's case: label it here as from its cell.
      byId('labelling').hidden = message.text === null;
      setText(byId('labelling-case'), message.text ?? '');
      byId<HTMLButtonElement>('act-thisIsRight').disabled = !message.canAgree;
      return;
    }
    const notice = byId('notice');
    setText(notice, message.text);
    notice.className = message.error ? 'notice error' : 'notice';
    notice.hidden = message.text === '';
  }

  private render(model: JobViewModel): void {
    this.jobId = model.jobId;
    // VS Code keeps this across a window reload, so the extension can open the same job again.
    this.link.setState({ agentId: model.agentId, jobId: model.jobId, agentName: model.agentName });
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
    byId('artifacts').replaceChildren(...model.artifacts.map((artifact) => artifactItem(artifact, (save) => this.link.send({ type: 'artifact', jobId: model.jobId, key: artifact.key, save }))));
    byId('artifacts-section').hidden = model.artifacts.length === 0;

    byId('inputs').replaceChildren(...model.inputs.map(inputCard));
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
    if (__TEST_HOOKS__) this.link.send(renderReport(model));
  }
}

/** What the page painted, for tests; a function outside the class so the build users get drops it whole. */
function renderReport(model: JobViewModel): JobPageMessage {
  const outputs = [...byId('outputs').querySelectorAll('.output')].slice(0, MAX_REPORTED_OUTPUTS).map((card) => (card.textContent ?? '').slice(0, MAX_REPORTED_CHARS));
  return { type: 'rendered', jobId: model.jobId, status: byId('status-text').textContent ?? '', outputs, foreignElements: foreignElements() };
}
