// The comparison page's markup and identity (no `vscode` import, so tests can read it).

/** The custom editor type of comparison files (`*.comparison.json`). */
export const COMPARISON_VIEW_TYPE = 'agentWorkbench.comparison';

/** Where the page's files live under `media/` (the script is built there from src/webview/comparison). */
export const COMPARISON_MEDIA = { folder: 'comparison', script: 'comparison.js', styles: ['comparison.css'] } as const;

/**
 * Static markup of the page: no inline styles, scripts or handlers. Every value (case names, outputs,
 * target labels) is put in by the page script with textContent. The scrolling viewport is no tab stop
 * of its own (the grid takes the keys), so Tab goes from the table to the label bar.
 */
export const COMPARISON_PAGE_BODY = `
    <main id="app" aria-busy="true">
      <header class="top">
        <div class="titles">
          <h1 id="title" class="title"></h1>
          <p id="subtitle" class="hint"></p>
        </div>
        <div class="actions" role="toolbar" aria-label="Comparison actions">
          <button id="cancel" type="button" class="secondary" hidden title="Cancel the jobs of this comparison that have not finished">Cancel</button>
          <button id="resume" type="button" class="secondary" hidden title="Start the cases that have no job yet and follow the others">Resume</button>
          <button id="label-cases" type="button" class="secondary" title="Label the unlabelled cases one by one, by keyboard, from the selected case on">Label Cases…</button>
          <button id="export-csv" type="button" class="secondary" title="Save a case a row as CSV (cells that spreadsheets would run as formulas are guarded)">CSV…</button>
          <button id="export-json" type="button" class="secondary" title="Save the summary and the cases as JSON">JSON…</button>
          <button id="export-markdown" type="button" title="Save a Markdown summary to paste into a pull request">Markdown…</button>
        </div>
      </header>
      <div id="progress" class="progress" role="status" aria-live="polite" hidden></div>
      <section id="summaries" class="summaries" aria-label="Figures per target"></section>
      <section id="transitions" class="transitions" aria-label="Right and wrong between the baseline and a target" hidden></section>
      <div class="filters" role="group" aria-label="Which cases to show">
        <label><input id="only-changed" type="checkbox"> Only changed</label>
        <label><input id="only-failed" type="checkbox"> Only failed</label>
        <label><input id="only-mismatches" type="checkbox"> Only mismatches</label>
        <input id="filter" type="search" spellcheck="false" autocomplete="off" placeholder="Filter cases" aria-label="Filter cases by name, tag, expectation or output">
        <span id="count" class="hint" role="status" aria-live="polite"></span>
      </div>
      <section id="label-pass" class="label-pass" tabindex="0" aria-label="Labelling pass: a number picks a disposition, Enter agrees with the outcome shown, S skips, Backspace goes back, Escape stops" hidden></section>
      <div id="table" class="table" role="grid" tabindex="0" aria-readonly="true" aria-label="Cases" aria-describedby="table-help">
        <div id="viewport" class="viewport" tabindex="-1">
          <div id="head" class="head" role="rowgroup"></div>
          <div id="canvas" class="canvas" role="rowgroup"></div>
        </div>
        <div id="empty" class="empty hint" hidden></div>
      </div>
      <div id="label-bar" class="label-bar" role="toolbar" aria-label="Label the selected case" hidden></div>
      <p id="table-help" class="visually-hidden">Arrow keys move between cases; Enter opens the selected case's outputs of the baseline and the target in a diff editor (so does a double-click on a target's cell; on its status, the job opens). Click a column header to sort. Tab leads to the label bar of the selected case: This Is Right on a target's outcome, or Set Expected… (also in a cell's context menu).</p>
      <div id="notice" class="notice" role="status" aria-live="polite" hidden></div>
    </main>`;
