// The query results page's markup and identity (no `vscode` import, so tests and the page harness can read it).

/** The webview type of query result panels. */
export const RESULTS_VIEW_TYPE = 'agentWorkbench.queryResult';

/** Where the page's files live under `media/` (the script is built there from src/webview/resultsGrid). */
export const RESULTS_MEDIA = { folder: 'resultsGrid', script: 'resultsGrid.js', styles: ['resultsGrid.css'] } as const;

/**
 * Static markup of the page: no inline styles, scripts or handlers. Every value the extension sends
 * (cells, column names, errors, SQL) is put in by the page script with textContent.
 */
export const RESULTS_PAGE_BODY = `
    <main id="app" aria-busy="true">
      <section id="pending" class="state" hidden>
        <div class="spinner" aria-hidden="true"></div>
        <div>
          <h1 class="state-title" role="status">The query is still running…</h1>
          <p>Status: <span id="pending-status" class="status-code"></span></p>
          <p class="hint">The result opens here when the service has it.</p>
          <p><button id="pending-cancel" type="button" class="secondary" title="Stop waiting for this query (it may go on running on the service)" hidden>Cancel</button></p>
          <pre id="pending-sql" class="sql" tabindex="0" aria-label="The query"></pre>
        </div>
      </section>
      <section id="failure" class="state failure" hidden>
        <div>
          <h1 class="state-title">The query failed</h1>
          <pre id="failure-error" class="error-text" role="alert" tabindex="0"></pre>
          <pre id="failure-sql" class="sql" tabindex="0" aria-label="The query"></pre>
        </div>
      </section>
      <section id="success" hidden>
        <header class="toolbar">
          <div id="tabs" role="tablist" aria-label="Result sets" hidden></div>
          <div class="filter">
            <input id="filter" type="search" spellcheck="false" autocomplete="off" placeholder="Filter rows" aria-label="Filter rows: keep the rows where a cell contains this text" aria-describedby="match-count">
            <span id="match-count" class="hint" role="status" aria-live="polite"></span>
          </div>
          <div class="actions" role="toolbar" aria-label="Copy and export">
            <button id="copy-names" type="button" class="secondary" title="Copy the selected cells with their column names, tab-separated (Ctrl+C copies the cells alone)">Copy with Names</button>
            <button id="export-csv" type="button" title="Save every row of this result as CSV (in the current sort; the filter is not applied). Cells that start with =, +, -, @, a tab or a carriage return are written with a leading ' so a spreadsheet opens them as text, not as formulas (negative numbers of numeric columns stay numbers); NULL is an empty field, an empty text is &quot;&quot;.">Export CSV…</button>
            <button id="export-json" type="button" class="secondary" title="Save every row of this result as JSON (in the current sort; the filter is not applied). Numbers of numeric columns are JSON numbers, except integers beyond 2^53 and longer decimals, which stay text so no digit is lost; NULL is null.">Export JSON…</button>
          </div>
        </header>
        <div id="truncation" class="notice" role="note" hidden></div>
        <div id="grid" class="grid" role="grid" tabindex="0" aria-multiselectable="true" aria-readonly="true" aria-label="Query result" aria-describedby="grid-help">
          <div id="viewport" class="viewport">
            <div id="header" class="header" role="rowgroup">
              <div id="header-row" class="row header-row" role="row" aria-rowindex="1"></div>
            </div>
            <div id="body" class="body" role="rowgroup"></div>
          </div>
          <div id="empty" class="empty" hidden></div>
        </div>
        <footer class="statusbar">
          <span id="status" class="status"></span>
          <span id="selection-info" class="hint"></span>
          <span id="notice" class="notice-text" role="status" aria-live="polite"></span>
        </footer>
        <div id="cell-view" class="cell-view" aria-live="off">
          <span id="cell-view-name" class="cell-view-name"></span>
          <span id="cell-view-value" class="cell-view-value" tabindex="0" aria-label="Value of the focused cell"></span>
        </div>
        <p id="grid-help" class="visually-hidden">Arrow keys move between cells, Shift with arrows selects, Ctrl+A selects all, Ctrl+C copies as tab-separated text. Enter shows the whole value of the cell. Arrow up from the first row reaches the column headers: Enter sorts, Shift with arrows resizes. Ctrl+F filters.</p>
      </section>
    </main>`;
