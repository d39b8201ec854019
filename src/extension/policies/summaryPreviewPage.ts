// The Summary Preview page's markup (no `vscode` import, so tests can read it in plain Node).

/**
 * Static markup of the page: no inline styles, scripts or handlers. Every value the extension sends is
 * put in by the page (src/webview/summaryPreview/main.ts, built to media/summaryPreview/main.js) with textContent.
 */
export const SUMMARY_PREVIEW_BODY = `
    <div id="idle" class="idle" role="status" hidden></div>
    <div id="content">
      <header class="toolbar">
        <div class="source">
          <span id="source-kind" class="badge"></span>
          <h1 id="source-title">Summary Preview</h1>
        </div>
        <div class="actions" role="toolbar" aria-label="Preview actions">
          <button id="show-source" type="button" class="secondary" title="Go to the policy document">Show Template</button>
          <button id="copy-output" type="button" class="secondary" title="Copy the rendered summary">Copy Output</button>
        </div>
      </header>
      <section aria-labelledby="output-heading">
        <div class="section-header">
          <h2 id="output-heading">Rendered summary</h2>
          <span id="status" class="status" role="status" aria-live="polite"></span>
        </div>
        <div id="notice" class="notice" hidden></div>
        <div id="template-error" class="problem" role="alert" hidden>
          <p id="template-error-text"></p>
          <button id="reveal-error" type="button" class="link">Go to the error in the template</button>
        </div>
        <pre id="output" class="output" tabindex="0" aria-labelledby="output-heading"></pre>
        <p id="truncated" class="hint" hidden>The output is cut after 200,000 characters.</p>
        <p id="missing" class="hint" hidden></p>
      </section>
      <section aria-labelledby="sample-heading">
        <div class="section-header">
          <h2 id="sample-heading"><label for="sample">Sample data (JSON)</label></h2>
          <div class="actions">
            <button id="fill-from-job" type="button" title="Use the inputs and metadata of a real job">Fill from a Job…</button>
            <button id="reset-sample" type="button" class="secondary" title="Rebuild the sample from the policy">Reset Sample</button>
          </div>
        </div>
        <p id="sample-origin" class="hint"></p>
        <div id="data-error" class="problem" role="alert" hidden></div>
        <textarea id="sample" spellcheck="false" autocomplete="off" aria-describedby="sample-help data-error"></textarea>
        <p id="sample-help" class="hint">The template sees this data. It is kept for this policy; edits apply as you type (Ctrl+Enter at once). Tab leaves the field.</p>
      </section>
    </div>`;
