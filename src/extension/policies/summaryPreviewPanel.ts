import * as vscode from 'vscode';
import {
  isHostMessage,
  parseWebviewMessage,
  type HostMessage,
  type RenderView,
  type SampleView,
  type WebviewAction,
  type WebviewMessage,
} from '../../core/summary/previewProtocol';
import { SummaryPreviewIds } from '../constants';
import type { Log } from '../log';
import { SUMMARY_PREVIEW_BODY } from './summaryPreviewPage';
import { WebviewPanelHost, webviewPanelOptions, type WebviewPanelSpec } from '../webview/webviewPanelHost';

const SPEC: WebviewPanelSpec<WebviewMessage, HostMessage> = {
  viewType: SummaryPreviewIds.viewType,
  title: 'Summary Preview',
  mediaFolder: 'summaryPreview',
  script: 'main.js',
  styles: ['main.css'],
  body: SUMMARY_PREVIEW_BODY,
  parseMessage: parseWebviewMessage,
  isOutgoing: isHostMessage,
};

/** What the panel asks its owner to do. */
export interface SummaryPreviewPanelEvents {
  sampleChanged(key: string, text: string): void;
  action(action: WebviewAction): void;
}

/**
 * The Summary Preview webview: shows a render and the sample, and reports edits and button presses.
 * It keeps the last of each, so a reloaded page gets the whole state back at its `ready`.
 */
export class SummaryPreviewPanel extends WebviewPanelHost<WebviewMessage, HostMessage> {
  private render: RenderView | undefined;
  private sample: SampleView | undefined;
  private idle: string | undefined;
  private seq = 0;
  private sentSeq = -1;
  /** The last render sent to the page (it is ready). */
  lastRender: RenderView | undefined;
  /** The last render the page confirmed it shows, with the text exactly as on screen. */
  lastShown: { view: RenderView; text: string } | undefined;

  private constructor(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, log: Log, private readonly events: SummaryPreviewPanelEvents) {
    super(panel, SPEC, extensionUri, log);
  }

  /** Opens the panel beside the active editor, leaving the focus in the editor. */
  static create(extensionUri: vscode.Uri, log: Log, events: SummaryPreviewPanelEvents): SummaryPreviewPanel {
    const panel = vscode.window.createWebviewPanel(SPEC.viewType, SPEC.title, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, webviewPanelOptions());
    return new SummaryPreviewPanel(panel, extensionUri, log, events);
  }

  /** Takes over a panel VS Code restored after a reload. */
  static revive(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, log: Log, events: SummaryPreviewPanelEvents): SummaryPreviewPanel {
    return new SummaryPreviewPanel(panel, extensionUri, log, events);
  }

  showRender(view: RenderView): void {
    this.render = view;
    this.idle = undefined;
    this.panel.title = `Summary Preview: ${view.title}`;
    this.sendRender();
  }

  showSample(sample: SampleView): void {
    this.sample = sample;
    this.post({ type: 'sample', sample });
  }

  /** Nothing to preview (no policy editor yet); the message says what to do. */
  showIdle(message: string): void {
    this.idle = message;
    this.render = undefined;
    this.panel.title = SPEC.title;
    this.post({ type: 'idle', message });
  }

  reveal(): void {
    this.panel.reveal(undefined, true);
  }

  protected onReady(): void {
    if (this.sample) this.post({ type: 'sample', sample: this.sample });
    if (this.render) this.sendRender();
    else if (this.idle !== undefined) this.post({ type: 'idle', message: this.idle });
  }

  protected onMessage(message: WebviewMessage): void {
    if (message.type === 'shown') {
      // Only the newest render counts: an older acknowledgement may arrive after a newer render was sent.
      if (message.seq === this.sentSeq && this.lastRender) this.lastShown = { view: this.lastRender, text: message.text };
    } else if (message.type === 'sampleChanged') this.events.sampleChanged(message.key, message.text);
    else if (message.type === 'action') this.events.action(message.action);
  }

  private sendRender(): void {
    if (!this.render) return;
    const seq = ++this.seq;
    if (!this.post({ type: 'render', seq, view: this.render })) return;
    this.sentSeq = seq;
    this.lastRender = this.render;
  }
}
