// @ts-check
// The Summary Preview page. Everything the extension sends is shown as text (textContent, value): no
// string from the extension, the template or the sample is ever parsed as HTML, so a rendered
// `<script>` or `onerror=` is just characters on the screen. Messages are checked on arrival.
(function () {
  'use strict';

  // @ts-ignore acquireVsCodeApi is provided by VS Code inside webviews.
  const vscode = acquireVsCodeApi();
  const SAMPLE_DEBOUNCE_MS = 250;
  const MAX_SAMPLE_CHARS = 2 * 1024 * 1024;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let sampleTimer;
  /** The policy (or file) the sample in the field belongs to. */
  let sampleKey = '';

  /** @param {string} id */
  function byId(id) {
    const element = document.getElementById(id);
    if (!element) throw new Error(`The page has no #${id}`);
    return element;
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
    sample: /** @type {HTMLTextAreaElement} */ (byId('sample')),
    copy: /** @type {HTMLButtonElement} */ (byId('copy-output')),
  };

  /** @type {Record<string, string>} button id → action sent to the extension */
  const BUTTON_ACTIONS = {
    'copy-output': 'copyOutput',
    'show-source': 'showSource',
    'reveal-error': 'revealTemplateError',
    'fill-from-job': 'fillFromJob',
    'reset-sample': 'resetSample',
  };

  // ---- checking messages from the extension ----

  /** @param {unknown} v @returns {v is Record<string, any>} */
  function isRecord(v) {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  }
  /** @param {unknown} v */
  function isPosition(v) {
    return v === null || (typeof v === 'number' && Number.isInteger(v) && v >= 1);
  }
  /** @param {unknown} v */
  function isProblemOrNull(v) {
    return v === null || (isRecord(v) && typeof v.message === 'string' && isPosition(v.line) && isPosition(v.column));
  }
  /** @param {unknown} v */
  function isRenderView(v) {
    return (
      isRecord(v) &&
      typeof v.sourceUri === 'string' &&
      typeof v.title === 'string' &&
      (v.sourceKind === 'policy' || v.sourceKind === 'file') &&
      (v.output === null || typeof v.output === 'string') &&
      typeof v.truncated === 'boolean' &&
      isProblemOrNull(v.templateError) &&
      isProblemOrNull(v.dataError) &&
      (v.notice === null || typeof v.notice === 'string') &&
      Array.isArray(v.missingFields) &&
      v.missingFields.every((/** @type {unknown} */ f) => typeof f === 'string')
    );
  }
  /** @param {unknown} m */
  function isHostMessage(m) {
    if (!isRecord(m)) return false;
    if (m.type === 'render') return typeof m.seq === 'number' && Number.isSafeInteger(m.seq) && m.seq >= 0 && isRenderView(m.view);
    if (m.type === 'sample') return isRecord(m.sample) && typeof m.sample.key === 'string' && typeof m.sample.text === 'string' && typeof m.sample.origin === 'string' && typeof m.sample.remembered === 'boolean';
    if (m.type === 'idle') return typeof m.message === 'string';
    return false;
  }

  window.addEventListener('message', (event) => {
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
      vscode.postMessage({ type: 'shown', seq: message.seq, text: el.output.textContent || '' });
    }
    else if (message.type === 'sample') showSample(message.sample);
    else showIdle(message.message);
  });

  // ---- showing ----

  /** @param {{message: string, line: number | null, column: number | null}} problem */
  function problemText(problem) {
    return problem.line === null ? problem.message : `Line ${problem.line}, column ${problem.column}: ${problem.message}`;
  }

  /** @param {any} view */
  function showRender(view) {
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
    el.copy.disabled = view.output === null;
    el.truncated.hidden = !view.truncated;
    el.missing.hidden = view.missingFields.length === 0;
    el.missing.textContent = view.missingFields.length
      ? `Not in the sample, so printed empty: ${view.missingFields.join(', ')}. Add them to the sample data, or reset it.`
      : '';
    el.status.textContent = view.templateError
      ? 'Template error'
      : view.dataError
        ? 'Sample data error'
        : view.output !== null
          ? 'Rendered'
          : '';
    vscode.setState({ sourceUri: view.sourceUri });
  }

  /** @param {{key: string, text: string, origin: string, remembered: boolean}} sample */
  function showSample(sample) {
    // An edit still waiting goes to the policy it was typed for; for the same policy, the new text replaces it.
    if (sampleTimer !== undefined && sample.key !== sampleKey) sendSample();
    clearTimeout(sampleTimer);
    sampleTimer = undefined;
    sampleKey = sample.key;
    if (el.sample.value !== sample.text) el.sample.value = sample.text;
    el.sampleOrigin.textContent = sample.remembered ? sample.origin : `${sample.origin} (too large to keep for the next session)`;
  }

  /** @param {string} message */
  function showIdle(message) {
    el.content.hidden = true;
    el.idle.hidden = false;
    el.idle.textContent = message;
  }

  // ---- user input ----

  function sendSample() {
    clearTimeout(sampleTimer);
    sampleTimer = undefined;
    const text = el.sample.value;
    if (text.length > MAX_SAMPLE_CHARS) {
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
})();
