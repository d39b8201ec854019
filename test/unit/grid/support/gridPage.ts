// The results grid page in headless Chromium, outside VS Code (see ../../support/webviewPage.ts).
import type { GridHostMessage, GridPageMessage } from '../../../../src/core/grid/protocol';
import { RESULTS_PAGE_BODY } from '../../../../src/extension/queries/resultsPanelPage';
import { openWebviewPage, type WebviewTestPage } from '../../support/webviewPage';

export type GridPage = WebviewTestPage<GridHostMessage, GridPageMessage>;

/** Opens the grid page in a fresh headless Chromium, served from 127.0.0.1 on a free port. */
export function openGridPage(viewport = { width: 1200, height: 800 }): Promise<GridPage> {
  return openWebviewPage<GridHostMessage, GridPageMessage>({ entry: 'src/webview/resultsGrid/main.ts', css: 'media/resultsGrid/resultsGrid.css', body: RESULTS_PAGE_BODY, title: 'Query Result' }, viewport);
}
