// The job view page's markup and identity (no `vscode` import, so tests can read it).

/** The webview type of job views. */
export const JOB_VIEW_TYPE = 'agentWorkbench.jobView'; // JobViewIds.viewType (this file imports nothing)

/** Where the page's files live under `media/` (the script is built there from src/webview/jobView, the codicons copied there). */
export const JOB_VIEW_MEDIA = { folder: 'jobView', script: 'jobView.js', styles: ['codicon.css', 'jobView.css'] } as const;

/**
 * Static markup of the page: no inline styles, scripts or handlers. Every value of the job is put in
 * by the page script with textContent.
 */
export const JOB_VIEW_BODY = `
    <main id="app" aria-busy="true">
      <header class="job-header">
        <div class="title-row">
          <span id="status-icon" class="status-icon"></span>
          <h1 id="title">Loading the job…</h1>
          <span id="status-text" class="status-badge"></span>
        </div>
        <div class="actions" role="toolbar" aria-label="Job actions">
          <button id="act-watch" type="button" class="secondary" title="Follow this job in the status bar until it finishes"><span class="codicon codicon-eye" aria-hidden="true"></span>Watch</button>
          <button id="act-cancel" type="button" class="secondary" title="Ask the service to cancel this job"><span class="codicon codicon-circle-slash" aria-hidden="true"></span>Cancel</button>
          <button id="act-runAgain" type="button" title="Open a run file with the inputs of this job"><span class="codicon codicon-debug-rerun" aria-hidden="true"></span>Run Again With These Inputs</button>
          <button id="act-copyId" type="button" class="secondary" title="Copy the job ID"><span class="codicon codicon-copy" aria-hidden="true"></span>Copy ID</button>
          <button id="act-rawJson" type="button" class="secondary" title="Open everything the service sent about this job as read-only JSON"><span class="codicon codicon-json" aria-hidden="true"></span>Raw JSON</button>
          <button id="act-refresh" type="button" class="secondary icon-only" title="Read the job again" aria-label="Refresh"><span class="codicon codicon-refresh" aria-hidden="true"></span></button>
        </div>
        <div id="labelling" class="labelling" role="toolbar" aria-label="Label this case of the comparison" hidden>
          <span id="labelling-case"></span>
          <button id="act-thisIsRight" type="button" class="secondary" title="This job's outcome becomes what the case expects (written into the test set)"><span class="codicon codicon-check" aria-hidden="true"></span>This Is Right</button>
          <button id="act-setExpected" type="button" class="secondary" title="Choose what the case expects, with a comment (written into the test set)"><span class="codicon codicon-edit" aria-hidden="true"></span>Set Expected…</button>
        </div>
        <dl id="header-fields" class="fields"></dl>
        <p id="freshness" class="hint"></p>
        <p id="notice" class="notice" role="status" aria-live="polite" hidden></p>
        <div id="problems" role="alert" hidden></div>
      </header>
      <section aria-labelledby="outputs-title">
        <h2 id="outputs-title"><span class="codicon codicon-output" aria-hidden="true"></span>Outputs</h2>
        <p id="outputs-note" class="hint" hidden></p>
        <div id="outputs" class="cards"></div>
        <dl id="usage" class="fields usage" aria-label="Tokens and cost" hidden></dl>
      </section>
      <section id="artifacts-section" aria-labelledby="artifacts-title" hidden>
        <h2 id="artifacts-title"><span class="codicon codicon-file-symlink-file" aria-hidden="true"></span>Artifacts</h2>
        <p class="hint">Full results the outputs name by their key, kept apart by the service.</p>
        <ul id="artifacts" class="artifacts"></ul>
      </section>
      <section aria-labelledby="inputs-title">
        <h2 id="inputs-title"><span class="codicon codicon-symbol-field" aria-hidden="true"></span>Inputs</h2>
        <p id="inputs-note" class="hint" hidden></p>
        <div id="inputs" class="cards"></div>
      </section>
      <section aria-labelledby="timeline-title">
        <h2 id="timeline-title"><span class="codicon codicon-history" aria-hidden="true"></span>Status timeline</h2>
        <p id="timeline-note" class="hint" hidden></p>
        <ol id="timeline" class="timeline"></ol>
      </section>
      <section id="evaluation-section" aria-labelledby="evaluation-title" hidden>
        <h2 id="evaluation-title"><span class="codicon codicon-checklist" aria-hidden="true"></span>Evaluation</h2>
        <dl id="evaluation-fields" class="fields"></dl>
        <p id="evaluation-feedback" class="prose" hidden></p>
        <div id="evaluation-reference"></div>
      </section>
      <section id="review-section" aria-labelledby="review-title" hidden>
        <h2 id="review-title"><span class="codicon codicon-feedback" aria-hidden="true"></span>Feedback review</h2>
        <dl id="review-fields" class="fields"></dl>
        <p id="review-comment" class="prose" hidden></p>
      </section>
      <section id="metadata-section" aria-labelledby="metadata-title" hidden>
        <h2 id="metadata-title"><span class="codicon codicon-tag" aria-hidden="true"></span>Metadata</h2>
        <div id="metadata"></div>
      </section>
    </main>`;
