// The Summary Preview page. Everything the extension sends is shown as text (textContent, value): no
// string from the extension, the template or the sample is ever parsed as HTML, so a rendered
// `<script>` or `onerror=` is just characters on the screen. Messages are checked on arrival by the
// same protocol module the extension checks its own with.
import { isHostMessage, MAX_SAMPLE_MESSAGE_CHARS, type PreviewProblem, type RenderView, type SampleView, type WebviewAction, type WebviewMessage } from '../../core/summary/previewProtocol';
import { vscodeApi } from '../common/vscodeApi';

const vscode = vscodeApi<WebviewMessage>();
const SAMPLE_DEBOUNCE_MS = 250;
let sampleTimer: ReturnType<typeof setTimeout> | undefined;
/** The policy (or file) the sample in the field belongs to. */
let sampleKey = '';

function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The page has no #${id}`);
  return element as T;
}

const el = {
  content: byId('content'),
  idle: byId('idle'),
  sourceKind: byId('source-kind'),
  sourceTitle: byId('source-title'),
  status: byId('status'),
  notice: byId('notice'),
  templateError: byId('template-error'),
  templateErrorText: byId('template-error-text'),
  output: byId('output'),
  truncated: byId('truncated'),
  missing: byId('missing'),
  sampleOrigin: byId('sample-origin'),
  dataError: byId('data-error'),
  sample: byId<HTMLTextAreaElement>('sample'),
  copy: byId<HTMLButtonElement>('copy-output'),
};

/** Button id → action sent to the extension. */
const BUTTON_ACTIONS: Record<string, WebviewAction> = {
  'copy-output': 'copyOutput',
  'show-source': 'showSource',
  'reveal-error': 'revealTemplateError',
  'fill-from-job': 'fillFromJob',
  'reset-sample': 'resetSample',
};

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  // Only the webview host, which shares this page's origin, speaks for the extension.
  if (event.origin !== window.origin) return;
  const message = event.data;
  if (!isHostMessage(message)) {
    console.warn('Summary Preview: ignored a message of unknown shape');
    return;
  }
  if (message.type === 'render') {
    showRender(message.view);
    // Tell the extension what is on screen now, exactly as the user sees it.
    vscode.postMessage({ type: 'shown', seq: message.seq, text: el.output.textContent ?? '' });
  } else if (message.type === 'sample') showSample(message.sample);
  else showIdle(message.message);
});

function problemText(problem: PreviewProblem): string {
  return problem.line === null ? problem.message : `Line ${problem.line}, column ${String(problem.column)}: ${problem.message}`;
}

function showRender(view: RenderView): void {
  el.idle.hidden = true;
  el.content.hidden = false;
  el.sourceKind.textContent = view.sourceKind === 'policy' ? 'Policy' : 'Local file';
  el.sourceTitle.textContent = view.title;
  el.notice.hidden = view.notice === null;
  el.notice.textContent = view.notice ?? '';
  el.templateError.hidden = view.templateError === null;
  el.templateErrorText.textContent = view.templateError ? `Template error — ${problemText(view.templateError)}` : '';
  el.dataError.hidden = view.dataError === null;
  el.dataError.textContent = view.dataError ? problemText(view.dataError) : '';
  el.sample.setAttribute('aria-invalid', view.dataError ? 'true' : 'false');
  showOutput(view);
  el.copy.disabled = view.output === null;
  el.truncated.hidden = !view.truncated;
  el.missing.hidden = view.missingFields.length === 0;
  el.missing.textContent = view.missingFields.length
    ? `Not in the sample, so printed empty: ${view.missingFields.join(', ')}. Add them to the sample data, or reset it.`
    : '';
  el.status.textContent = view.templateError ? 'Template error' : view.dataError ? 'Sample data error' : view.output !== null ? 'Rendered' : '';
  vscode.setState({ sourceUri: view.sourceUri });
}

function showOutput(view: RenderView): void {
  if (view.output !== null) {
    const empty = view.output === '';
    el.output.textContent = empty ? '(The template rendered no text with this sample.)' : view.output;
    el.output.classList.toggle('empty', empty);
    el.output.classList.remove('stale');
  } else if (el.output.textContent && !el.output.classList.contains('empty')) {
    // Keep the last good output, dimmed, so the layout does not jump while a template is being typed.
    el.output.classList.add('stale');
  } else {
    el.output.textContent = view.notice ? '' : '(Nothing rendered yet: fix the problem shown above.)';
    el.output.classList.add('empty');
  }
}

function showSample(sample: SampleView): void {
  // An edit still waiting goes to the policy it was typed for; for the same policy, the new text replaces it.
  if (sampleTimer !== undefined && sample.key !== sampleKey) sendSample();
  clearTimeout(sampleTimer);
  sampleTimer = undefined;
  sampleKey = sample.key;
  if (el.sample.value !== sample.text) el.sample.value = sample.text;
  el.sampleOrigin.textContent = sample.remembered ? sample.origin : `${sample.origin} (too large to keep for the next session)`;
}

function showIdle(message: string): void {
  el.content.hidden = true;
  el.idle.hidden = false;
  el.idle.textContent = message;
}

function sendSample(): void {
  clearTimeout(sampleTimer);
  sampleTimer = undefined;
  const text = el.sample.value;
  if (text.length > MAX_SAMPLE_MESSAGE_CHARS) {
    el.dataError.hidden = false;
    el.dataError.textContent = 'The sample is larger than 2 MB; make it smaller to preview with it.';
    return;
  }
  vscode.postMessage({ type: 'sampleChanged', key: sampleKey, text });
}

el.sample.addEventListener('input', () => {
  clearTimeout(sampleTimer);
  sampleTimer = setTimeout(sendSample, SAMPLE_DEBOUNCE_MS);
});
el.sample.addEventListener('keydown', (event) => {
  // Ctrl/Cmd+Enter applies the sample at once.
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    sendSample();
  }
});

for (const [id, action] of Object.entries(BUTTON_ACTIONS)) {
  byId(id).addEventListener('click', () => vscode.postMessage({ type: 'action', action }));
}

vscode.postMessage({ type: 'ready' });
