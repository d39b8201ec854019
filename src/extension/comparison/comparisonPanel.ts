import type * as vscode from 'vscode';
import { isComparisonHostMessage, parseComparisonPageMessage, type ComparisonHostMessage, type ComparisonPageMessage } from '../../core/comparison/viewProtocol';
import { nextComparisonMessage, type ComparisonContent } from '../../core/comparison/viewDelta';
import type { Log } from '../log';
import { WebviewPanelHost, type WebviewPanelSpec } from '../webview/webviewPanelHost';
import { COMPARISON_MEDIA, COMPARISON_PAGE_BODY, COMPARISON_VIEW_TYPE } from './comparisonPage';

const SPEC: WebviewPanelSpec<ComparisonPageMessage, ComparisonHostMessage> = {
  viewType: COMPARISON_VIEW_TYPE,
  title: 'Comparison',
  mediaFolder: COMPARISON_MEDIA.folder,
  script: COMPARISON_MEDIA.script,
  styles: COMPARISON_MEDIA.styles,
  body: COMPARISON_PAGE_BODY,
  parseMessage: parseComparisonPageMessage,
  isOutgoing: isComparisonHostMessage,
};

type Shown = Extract<ComparisonHostMessage, { type: 'comparison' }>;

/**
 * The comparison page in a custom editor's webview. It keeps the last comparison it was given, so a
 * page that reloads (hidden and shown again) gets it back at its `ready`; page messages of an older
 * load are dropped, as they refer to rows that may have moved.
 */
export class ComparisonPanel extends WebviewPanelHost<ComparisonPageMessage, ComparisonHostMessage> {
  private shown: Shown | undefined;

  constructor(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    log: Log,
    private readonly onPageMessage: (message: Exclude<ComparisonPageMessage, { type: 'ready' }>) => Promise<void>,
  ) {
    super(panel, SPEC, extensionUri, log);
  }

  /**
   * Shows a comparison (the page sorts and filters itself): the whole of it the first time and when its
   * shape changes, else only the rows that changed, the summaries when they changed and the progress line.
   */
  show(view: ComparisonContent, newLoad = false): void {
    const next = nextComparisonMessage(this.shown, view, newLoad);
    this.shown = next.shown;
    if (next.message) this.post(next.message);
  }

  /** The comparison as the page was last sent it (tests read it). */
  lastShown(): Shown | undefined {
    return this.shown;
  }

  /** The labelling pass's answers: the dispositions a number picks, or a case's inputs. */
  passAnswer(answer: { type: 'dispositions'; values: string[] } | { type: 'inputs'; index: number; inputs: [string, string][] } | { type: 'startPass' }): void {
    if (this.shown) this.post({ ...answer, load: this.shown.load });
  }

  /** A sentence under the table (an export written, an error). */
  notice(text: string, error = false): void {
    this.post({ type: 'notice', text, error });
  }

  protected onReady(): void {
    if (this.shown) this.post(this.shown);
  }

  protected async onMessage(message: ComparisonPageMessage): Promise<void> {
    if (message.type === 'ready') return;
    if (message.load !== this.shown?.load) return;
    await this.onPageMessage(message);
  }
}
