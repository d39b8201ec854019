import * as vscode from 'vscode';
import type { JobViewModel } from '../../../core/jobView/model';
import { isJobHostMessage, parseJobPageMessage, type JobHostMessage, type JobPageMessage, type JobRenderReport, type JobViewAction } from '../../../core/jobView/protocol';
import type { Log } from '../../log';
import { WebviewPanelHost, webviewPanelOptions, type WebviewPanelSpec } from '../../webview/webviewPanelHost';
import { JOB_VIEW_BODY, JOB_VIEW_MEDIA, JOB_VIEW_TYPE } from './jobViewPage';

const SPEC: WebviewPanelSpec<JobPageMessage, JobHostMessage> = {
  viewType: JOB_VIEW_TYPE,
  title: 'Job',
  mediaFolder: JOB_VIEW_MEDIA.folder,
  script: JOB_VIEW_MEDIA.script,
  styles: JOB_VIEW_MEDIA.styles,
  body: JOB_VIEW_BODY,
  parseMessage: parseJobPageMessage,
  isOutgoing: isJobHostMessage,
};

/** What the page asks of its owner: one of the view's actions, or to open or save an artifact by key. */
export type JobPanelRequest = JobViewAction | { artifactKey: string; save: boolean };

/** What a panel last sent and was told, for the integration tests. */
export interface JobPanelDebugState {
  model?: JobViewModel;
  report?: JobRenderReport;
  /** The case of a comparison the view labels, as it says it (null: none). */
  labelling?: string | null;
}

/** One job's panel: it shows the model it is given and hands the page's actions to its owner. */
export class JobPanel extends WebviewPanelHost<JobPageMessage, JobHostMessage> {
  private model: JobViewModel | undefined;
  private report: JobRenderReport | undefined;
  private labelled: { text: string | null; canAgree: boolean } = { text: null, canAgree: false };

  private constructor(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    log: Log,
    readonly jobId: string,
    private readonly onAction: (request: JobPanelRequest) => Promise<void>,
  ) {
    super(panel, SPEC, extensionUri, log);
  }

  /** Opens the panel of a job in the active editor group, or adopts the one VS Code restored after a reload. */
  static create(extensionUri: vscode.Uri, log: Log, jobId: string, title: string, onAction: (request: JobPanelRequest) => Promise<void>, restored?: vscode.WebviewPanel, preserveFocus = false): JobPanel {
    const panel = restored ?? vscode.window.createWebviewPanel(SPEC.viewType, title, { viewColumn: vscode.ViewColumn.Active, preserveFocus }, webviewPanelOptions());
    return new JobPanel(panel, extensionUri, log, jobId, onAction);
  }

  /** True while the panel is on screen. */
  get visible(): boolean {
    return this.panel.visible;
  }

  /** Brings the panel forward. */
  reveal(preserveFocus = false): void {
    this.panel.reveal(undefined, preserveFocus);
  }

  /** Shows a new model of the job. */
  show(model: JobViewModel): void {
    this.model = model;
    this.panel.title = model.title;
    this.post({ type: 'job', model });
  }

  /** The case of a comparison this job is a run of (text null: none), and whether its outcome can be agreed with. */
  labelling(text: string | null, canAgree: boolean): void {
    this.labelled = { text, canAgree };
    this.post({ type: 'labelling', ...this.labelled });
  }

  /** A short message under the header (what an action did, or why it failed). */
  notice(text: string, error = false): void {
    this.post({ type: 'notice', text, error });
  }

  /** What the panel last showed, and (test builds only) what its page reported. */
  shownState(): JobPanelDebugState {
    return { model: this.model, report: this.report, labelling: this.labelled.text };
  }

  protected override onReady(): void {
    if (this.model) this.post({ type: 'job', model: this.model });
    if (this.labelled.text !== null) this.post({ type: 'labelling', ...this.labelled });
  }

  protected override async onMessage(message: JobPageMessage): Promise<void> {
    // Render reports: test builds only (every other build refuses them on arrival).
    if (__TEST_HOOKS__ && message.type === 'rendered') {
      this.report = message;
      return;
    }
    if (message.type === 'action' && message.jobId === this.jobId) await this.onAction(message.action);
    // Only a key the model shown names: the page is another process, its messages are input.
    if (message.type === 'artifact' && message.jobId === this.jobId && this.model?.artifacts.some((a) => a.key === message.key)) {
      await this.onAction({ artifactKey: message.key, save: message.save });
    }
  }
}
