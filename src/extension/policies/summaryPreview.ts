import * as vscode from 'vscode';
import type { RenderedSummary as Rendered } from '../../core/summary/preview';
import type { RenderView, WebviewAction } from '../../core/summary/previewProtocol';
import type { AgentsView } from '../agents/agentsView';
import { registerCommand } from '../commands/commandRunner';
import type { Connection } from '../connection/connection';
import { SummaryPreviewIds } from '../constants';
import type { Log } from '../log';
import { Disposable } from '../util/disposable';
import { loadSummaryEngine } from './summaryPreviewEngine';
import { chooseJob } from './summaryPreviewJobs';
import { SummaryPreviewPanel, type SummaryPreviewPanelEvents } from './summaryPreviewPanel';
import { looksLikeTemplateJson, previewSourceOf, type PreviewSource } from './summaryPreviewSource';
import { SummarySamples } from './summaryPreviewSamples';

/** Typing pauses this long before the preview renders again. */
export const RENDER_DEBOUNCE_MS = 250;
const BUILT_FROM_POLICY = 'Built from the policy';
const IDLE_MESSAGE = 'Open a policy version (or a local JSON file with "summary_template.template") to preview its summary here.';

/**
 * *Open Summary Preview*: one webview beside the editor that renders the active policy's summary
 * template (Handlebars, in the extension host) against sample data kept per policy, live from the
 * unsaved text, following whichever policy editor is active. Template errors are also underlined in
 * the editor, inside the JSON string, at the exact character.
 */
export class SummaryPreview extends Disposable {
  private panel: SummaryPreviewPanel | undefined;
  private source: PreviewSource | undefined;
  private rendered: Rendered | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly samples: SummarySamples;
  private readonly diagnostics = this.register(vscode.languages.createDiagnosticCollection('agent-workbench-summary-template'));

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly connection: Connection,
    private readonly agents: AgentsView,
    private readonly log: Log,
  ) {
    super();
    this.samples = new SummarySamples(context.globalState);
    this.register({ dispose: () => clearTimeout(this.timer) });
    this.register(registerCommand(log, SummaryPreviewIds.open, (uri?: unknown) => this.open(uri instanceof vscode.Uri ? uri : undefined)));
    this.register(registerCommand(log, SummaryPreviewIds.fillSampleFromJob, (ids?: { agentId: string; jobId: string }) => this.fillFromJob(ids)));
    this.register(registerCommand(log, SummaryPreviewIds.resetSample, () => this.resetSample()));
    this.register(vscode.window.registerWebviewPanelSerializer(SummaryPreviewIds.viewType, { deserializeWebviewPanel: (panel, state) => this.restore(panel, state) }));
    this.register(vscode.window.onDidChangeActiveTextEditor((editor) => this.activeEditorChanged(editor)));
    this.register(vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === this.source?.document && e.contentChanges.length) this.scheduleRender();
    }));
    this.register(vscode.workspace.onDidCloseTextDocument((document) => this.diagnostics.delete(document.uri)));
    this.updateContextKey(vscode.window.activeTextEditor);
  }

  /** The last render sent to the webview; undefined before the first. */
  get lastRender(): RenderView | undefined {
    return this.panel?.lastRender;
  }

  /** The last render the webview confirmed it shows, with the output text exactly as on screen. */
  get lastShown(): { view: RenderView; text: string } | undefined {
    return this.panel?.lastShown;
  }

  /** The document being previewed. */
  get previewedDocument(): vscode.TextDocument | undefined {
    return this.source?.document;
  }

  /** The sample text of the previewed policy. */
  currentSampleText(): string | undefined {
    return this.source ? this.samples.get(this.source.sampleKey)?.text : undefined;
  }

  /** Opens (or reveals) the preview for a document, by default the active editor's. */
  async open(uri?: vscode.Uri): Promise<void> {
    const document = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
    // From the palette in another kind of editor, an open preview keeps what it shows.
    const source = (document && this.sourceFor(document)) || (this.panel ? this.source : undefined);
    if (!source) throw new Error(`Nothing to preview: ${IDLE_MESSAGE}`);
    if (this.panel) this.panel.reveal();
    else this.attach(SummaryPreviewPanel.create(this.context.extensionUri, this.log, this.panelEvents()));
    await this.follow(source);
  }

  /** Replaces the sample with one built from the policy (and its template) again. */
  async resetSample(): Promise<void> {
    const source = this.requireSource();
    const text = loadSummaryEngine().defaultSampleText(source.document.getText(), source.sampleSource);
    await this.setSample(source, text, BUILT_FROM_POLICY, true);
  }

  /** Fills the sample's `agent` and `job` from a real job (asked for, or given by IDs). */
  async fillFromJob(ids?: { agentId: string; jobId: string }): Promise<void> {
    const source = this.requireSource();
    const { agent, job } = await chooseJob(this.connection.requireClient(), this.agents, ids);
    const engine = loadSummaryEngine();
    const current = this.samples.get(source.sampleKey)?.text ?? '';
    const text = engine.sampleTextWithJob(current, () => engine.defaultSampleText(source.document.getText(), source.sampleSource), agent, job);
    await this.setSample(source, text, `Job ${job.id.slice(0, 8)} of ${agent.name}`, true);
  }

  private requireSource(): PreviewSource {
    if (!this.source || !this.panel) throw new Error('Open the Summary Preview of a policy first.');
    return this.source;
  }

  private sourceFor(document: vscode.TextDocument): PreviewSource | undefined {
    const source = previewSourceOf(document);
    // The quick text check may be fooled by a file that merely mentions the field: the JSON reading decides.
    if (source?.kind === 'file' && !loadSummaryEngine().hasSummaryTemplate(document.getText())) return undefined;
    return source;
  }

  private attach(panel: SummaryPreviewPanel): void {
    this.panel = panel;
    panel.onDidDispose(() => {
      if (this.panel !== panel) return;
      this.panel = undefined;
      this.source = undefined;
      clearTimeout(this.timer);
      this.diagnostics.clear();
    });
  }

  /**
   * Takes over a preview panel VS Code restored after a reload: it shows the active policy editor, else
   * the document the page last showed (its saved state), else says what to open.
   */
  async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    this.panel?.dispose();
    this.attach(SummaryPreviewPanel.revive(panel, this.context.extensionUri, this.log, this.panelEvents()));
    const saved = (state as { sourceUri?: unknown } | undefined)?.sourceUri;
    const active = vscode.window.activeTextEditor?.document;
    let source = active ? this.sourceFor(active) : undefined;
    if (!source && typeof saved === 'string') {
      const document = await Promise.resolve(vscode.workspace.openTextDocument(vscode.Uri.parse(saved))).catch(() => undefined);
      source = document ? this.sourceFor(document) : undefined;
    }
    if (source) await this.follow(source);
    else this.panel?.showIdle(IDLE_MESSAGE);
  }

  private activeEditorChanged(editor: vscode.TextEditor | undefined): void {
    this.updateContextKey(editor);
    if (!editor || !this.panel || editor.document === this.source?.document) return;
    const source = this.sourceFor(editor.document);
    if (source) void this.follow(source);
  }

  private updateContextKey(editor: vscode.TextEditor | undefined): void {
    const hasTemplate = !!editor && editor.document.uri.scheme === 'file' && looksLikeTemplateJson(editor.document);
    void vscode.commands.executeCommand('setContext', SummaryPreviewIds.fileHasTemplate, hasTemplate);
  }

  /** Shows another document: its sample first, then its render. */
  private async follow(source: PreviewSource): Promise<void> {
    if (this.source && this.source.document !== source.document) this.diagnostics.delete(this.source.document.uri);
    this.source = source;
    let sample = this.samples.get(source.sampleKey);
    sample ??= await this.samples.set(source.sampleKey, loadSummaryEngine().defaultSampleText(source.document.getText(), source.sampleSource), BUILT_FROM_POLICY);
    if (this.source !== source) return; // another editor became active meanwhile
    this.panel?.showSample({ key: source.sampleKey, text: sample.text, origin: sample.origin, remembered: sample.remembered });
    this.renderNow();
  }

  private async setSample(source: PreviewSource, text: string, origin: string, showInPage: boolean): Promise<void> {
    const sample = await this.samples.set(source.sampleKey, text, origin);
    if (this.source !== source) return;
    if (showInPage) this.panel?.showSample({ key: source.sampleKey, text: sample.text, origin: sample.origin, remembered: sample.remembered });
    this.renderNow();
  }

  private scheduleRender(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.renderNow(), RENDER_DEBOUNCE_MS);
  }

  /** Renders the previewed document's template with its sample, and places any template error in the editor. */
  private renderNow(): void {
    clearTimeout(this.timer);
    const source = this.source;
    if (!source || !this.panel) return;
    const text = source.document.getText();
    const sample = this.samples.get(source.sampleKey)?.text ?? '';
    let result: Rendered;
    try {
      result = loadSummaryEngine().previewSummary(text, sample);
    } catch (error) {
      // The engine never throws for bad templates or data; this is a bug, so say so plainly and log it.
      this.log.error('Summary Preview: rendering failed', error);
      result = { output: null, truncated: false, templateError: null, dataError: null, notice: 'The preview failed unexpectedly; see the log.', missingFields: [] };
    }
    this.rendered = result;
    this.showDiagnostic(source.document, result);
    this.panel.showRender(toView(source, result));
  }

  private showDiagnostic(document: vscode.TextDocument, result: Rendered): void {
    const error = result.templateError;
    if (!error) {
      this.diagnostics.delete(document.uri);
      return;
    }
    const range = new vscode.Range(document.positionAt(error.documentOffset), document.positionAt(error.documentOffset + error.documentLength));
    const where = error.located ? ` (template line ${error.start.line}, column ${error.start.column})` : '';
    const diagnostic = new vscode.Diagnostic(range, `Summary template: ${error.message}${where}`, vscode.DiagnosticSeverity.Error);
    diagnostic.source = 'Agent Workbench';
    this.diagnostics.set(document.uri, [diagnostic]);
  }

  private panelEvents(): SummaryPreviewPanelEvents {
    return {
      sampleChanged: (key: string, text: string) => {
        // An edit that arrives after the preview moved to another policy belongs to the one it was made for.
        if (this.source?.sampleKey === key) void this.setSample(this.source, text, 'Edited in the preview', false);
        else if (this.samples.get(key)) void this.samples.set(key, text, 'Edited in the preview');
      },
      action: (action: WebviewAction) => void this.runAction(action),
    };
  }

  private async runAction(action: WebviewAction): Promise<void> {
    switch (action) {
      case 'fillFromJob':
        await vscode.commands.executeCommand(SummaryPreviewIds.fillSampleFromJob);
        return;
      case 'resetSample':
        await vscode.commands.executeCommand(SummaryPreviewIds.resetSample);
        return;
      case 'copyOutput':
        if (this.rendered?.output == null) return;
        await vscode.env.clipboard.writeText(this.rendered.output);
        vscode.window.setStatusBarMessage('Summary copied to the clipboard', 3000);
        return;
      case 'showSource':
      case 'revealTemplateError':
        await this.revealSource(action === 'revealTemplateError');
        return;
    }
  }

  /** Focuses the previewed document's editor, with the template error selected when asked. */
  private async revealSource(atError: boolean): Promise<void> {
    const source = this.source;
    if (!source) return;
    const visible = vscode.window.visibleTextEditors.find((e) => e.document === source.document);
    const editor = await vscode.window.showTextDocument(source.document, { viewColumn: visible?.viewColumn ?? vscode.ViewColumn.One, preserveFocus: false });
    const diagnostic = atError ? this.diagnostics.get(source.document.uri)?.[0] : undefined;
    if (!diagnostic) return;
    editor.selection = new vscode.Selection(diagnostic.range.start, diagnostic.range.end);
    editor.revealRange(diagnostic.range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  override dispose(): void {
    this.panel?.dispose();
    super.dispose();
  }
}

/** What the webview shows for a render. */
function toView(source: PreviewSource, result: Rendered): RenderView {
  const templateError = result.templateError && {
    message: result.templateError.message,
    line: result.templateError.located ? result.templateError.start.line : null,
    column: result.templateError.located ? result.templateError.start.column : null,
  };
  const dataError = result.dataError && { message: result.dataError.message, line: result.dataError.start.line, column: result.dataError.start.column };
  return {
    sourceUri: source.document.uri.toString(),
    title: source.title,
    sourceKind: source.kind,
    output: result.output,
    truncated: result.truncated,
    templateError,
    dataError,
    notice: result.notice,
    missingFields: result.missingFields,
  };
}
