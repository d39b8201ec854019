import * as vscode from 'vscode';
import type { ComparisonPageMessage, ExportFormat } from '../../core/comparison/viewProtocol';
import { AgentCommands } from '../constants';
import { loadCore } from '../lazyCore';
import { Disposable } from '../util/disposable';
import { messageOf } from '../util/errors';
import { caseOutputsUri, CaseOutputs } from './caseOutputs';
import { labelCase, labelRequestOf, type LabelAction } from './caseLabels';
import type { JobLabelling } from '../jobs/jobView/jobViews';
import { readDispositions } from './labelPrompts';
import { activeTestSet } from './testSetFiles';
import { COMPARISON_VIEW_TYPE } from './comparisonPage';
import type { ComparisonPanel } from './comparisonPanel';
import { loadPanels } from '../lazyPanels';
import { askToStart, requireTrust } from './comparisonPrompts';
import type { ComparisonSession, ActOptions, SessionDeps } from './comparisonSession';
import type { ComparisonRecord, Grounds } from '../core';

/** How long the checks before a new comparison's question may take. */
const CHECK_MS = 30_000;

const EXTENSIONS: Record<ExportFormat, string> = { csv: 'csv', json: 'json', markdown: 'md' };

/**
 * The comparison view: a custom editor of `*.comparison.json` files. The file is the comparison, so it
 * reopens offline and VS Code restores it after a reload. Opening is never acting: a comparison with
 * work left is shown with Resume, and nothing is started, cancelled or uploaded until the user says so.
 */
export class ComparisonEditors extends Disposable implements vscode.CustomTextEditorProvider {
  private readonly sessions = new Map<string, ComparisonSession>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly deps: SessionDeps,
  ) {
    super();
    this.register(new CaseOutputs((uri) => this.sessions.get(uri)?.record));
    this.register(vscode.window.registerCustomEditorProvider(COMPARISON_VIEW_TYPE, this, { webviewOptions: { enableFindWidget: true } }));
  }

  /** The open comparison of a file (for commands and tests). */
  session(uri: vscode.Uri): ComparisonSession | undefined {
    return this.sessions.get(uri.toString());
  }

  /**
   * This Is Right / Set Expected… from a cell's context menu (the cell's context names the case and
   * target; the comparison is the active one) or a test (which names the comparison). Answers whether a
   * label was written.
   */
  async label(arg: unknown, action: LabelAction): Promise<boolean> {
    const request = labelRequestOf(arg, action);
    if (!request) throw new Error('Choose a case’s cell in a comparison to label it.');
    const uri = request.comparison ?? activeComparison();
    const session = uri && this.session(uri);
    if (!session) throw new Error('Open the comparison of the case to label it.');
    return labelCase(session, request, this.deps.connection);
  }

  /**
   * Label Cases…: the labelling pass in the comparison view — of the comparison given or active, or of the
   * newest comparison of the test set given (or open in the editor). Answers the comparison's session.
   */
  async labelCases(arg: unknown): Promise<ComparisonSession> {
    const given = arg instanceof vscode.Uri ? arg : undefined;
    const testSet = given && /\.testset\.(jsonl|csv)$/i.test(given.path) ? given : !given ? activeTestSet() : undefined;
    const comparison = testSet ? await newestComparisonOf(testSet) : (given ?? activeComparison());
    if (!comparison) throw new Error(testSet ? `${vscode.workspace.asRelativePath(testSet)} has no comparison yet: run one (Run Comparison of a Test Set…), then label its cases beside the outputs.` : 'Open a comparison, or a test set that has one, to label its cases.');
    const session = this.session(comparison) ?? (await this.open(comparison));
    if (!session) throw new Error(`${vscode.workspace.asRelativePath(comparison)} is not open as a comparison.`);
    session.passAnswer({ type: 'startPass' });
    return session;
  }

  /** Labelling a case from the view of its job on a target (the same two actions as its cell), for as long as the comparison is open. */
  jobLabelling(comparison: vscode.Uri, caseIndex: number, target: number): JobLabelling {
    return {
      describe: () => {
        const session = this.session(comparison);
        const c = session?.record.cases[caseIndex];
        if (!session || !c) return undefined;
        const core = loadCore();
        const text = `Case “${core.caseLabel(c)}” of ${vscode.workspace.asRelativePath(comparison)}: ${c.expected ? `expected ${core.expectedText(c.expected)}` : 'nothing expected yet'}`;
        return { text, canAgree: core.expectedFromCell(session.record, caseIndex, target) !== undefined };
      },
      label: (action) => this.label({ comparison, caseIndex, target }, action),
    };
  }

  /** Opens a comparison file in the comparison view; answers its session once the view is up. */
  async open(uri: vscode.Uri): Promise<ComparisonSession | undefined> {
    await vscode.commands.executeCommand('vscode.openWith', uri, COMPARISON_VIEW_TYPE, { preview: false });
    return this.session(uri);
  }

  resolveCustomTextEditor(document: vscode.TextDocument, webviewPanel: vscode.WebviewPanel): void {
    const key = document.uri.toString();
    const panel = new (loadPanels().ComparisonPanel)(webviewPanel, this.context.extensionUri, this.deps.log, (message) => this.onMessage(key, message));
    let record;
    try {
      record = loadCore().parseComparison(document.getText());
    } catch (error) {
      this.showProblem(document, panel, messageOf(error));
      return;
    }
    const session = new (loadPanels().ComparisonSession)(document, record, panel, this.deps, this.context.globalStorageUri.fsPath);
    this.sessions.get(key)?.dispose();
    this.sessions.set(key, session);
    panel.onDidDispose(() => {
      session.dispose();
      if (this.sessions.get(key) === session) this.sessions.delete(key);
    });
  }

  /** A file that is not a valid comparison: its problem (with its line) in the view, and a way to open it as text. */
  private showProblem(document: vscode.TextDocument, panel: ComparisonPanel, problem: string): void {
    const name = vscode.workspace.asRelativePath(document.uri);
    this.deps.log.warn(`${name}: ${problem}`);
    panel.show({ title: name, subtitle: problem, keys: [], targets: [], summaries: [], rows: [], progress: null });
    panel.notice(`${problem} Open the file as text to correct it.`, true);
    void vscode.window.showErrorMessage(`${name}: ${problem}`, 'Reopen as Text').then((choice) => {
      if (choice === 'Reopen as Text') void vscode.commands.executeCommand('vscode.openWith', document.uri, 'default');
    });
  }

  /**
   * Asks before a new comparison starts, before its file exists: the same checks and question as Resume.
   * A yes answers what it granted (the agents it runs on); a "no" (undefined) leaves nothing behind (no
   * file, no job).
   */
  async confirmNew(record: ComparisonRecord): Promise<Grounds | undefined> {
    requireTrust('Running a comparison');
    return askToStart(record, this.deps.connection.requireClient(), AbortSignal.timeout(CHECK_MS), false);
  }

  /** Resumes the comparison of a file (the page's Resume, after its confirmation; tests pass what the dialogs would answer). */
  async resume(uri: vscode.Uri, options?: ActOptions): Promise<void> {
    const session = this.session(uri) ?? (await this.open(uri));
    if (!session) throw new Error(`${vscode.workspace.asRelativePath(uri)} is not open as a comparison.`);
    await session.resume(options);
  }

  /**
   * Opens a case of a comparison file the way its page does: the comparison view, then the case's outputs
   * on the first target and on `targetId` (default the last) side by side.
   */
  async openCase(uri: vscode.Uri, index: number, targetId?: string): Promise<void> {
    const session = this.session(uri) ?? (await this.open(uri));
    if (!session) throw new Error(`${vscode.workspace.asRelativePath(uri)} is not open as a comparison.`);
    const { targets, cases } = session.record;
    if (!cases[index]) throw new Error(`${vscode.workspace.asRelativePath(uri)} has no case ${index + 1} any more: run the test set again.`);
    const found = targets.findIndex((t) => t.id === targetId);
    await showCase(session, index, 0, found > 0 ? found : targets.length - 1);
  }

  /** Writes a comparison as CSV, JSON or Markdown; asks where unless `target` is given. Answers the file written. */
  async export(uri: vscode.Uri, format: ExportFormat, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const session = this.session(uri);
    if (!session) throw new Error(`${vscode.workspace.asRelativePath(uri)} is not open as a comparison.`);
    const base = uri.path.replace(/\.comparison\.json$/i, '').replace(/\.json$/i, '');
    const where =
      target ??
      (await vscode.window.showSaveDialog({
        defaultUri: uri.with({ path: `${base}.${EXTENSIONS[format]}` }),
        filters: { [format.toUpperCase()]: [EXTENSIONS[format]] },
        title: `Export Comparison as ${format === 'markdown' ? 'Markdown' : format.toUpperCase()}`,
      }));
    if (!where) return undefined;
    const core = loadCore();
    const text = format === 'csv' ? core.comparisonCsv(session.record) : format === 'json' ? core.comparisonJson(session.record) : core.comparisonMarkdown(session.record);
    await vscode.workspace.fs.writeFile(where, new TextEncoder().encode(text));
    return where;
  }

  private async onMessage(key: string, message: Exclude<ComparisonPageMessage, { type: 'ready' }>): Promise<void> {
    const session = this.sessions.get(key);
    if (!session) return;
    try {
      await this.handle(session, message);
    } catch (error) {
      this.deps.log.error(`Comparison: "${message.type}" failed`, error);
      void vscode.window.showErrorMessage(messageOf(error));
    }
  }

  private async handle(session: ComparisonSession, message: Exclude<ComparisonPageMessage, { type: 'ready' }>): Promise<void> {
    const record = session.record;
    switch (message.type) {
      case 'openCase':
        await showCase(session, message.index, message.left, message.right);
        return;
      case 'openJob': {
        const target = record.targets[message.target];
        const run = target ? record.cases[message.index]?.runs[target.id] : undefined;
        if (run) await vscode.commands.executeCommand(AgentCommands.openJob, { agentId: record.agentId, jobId: run.jobId, labelling: this.jobLabelling(session.document.uri, message.index, message.target) });
        return;
      }
      case 'cancel':
        await session.cancel();
        return;
      case 'resume':
        await session.resume();
        return;
      case 'dropTarget':
        await session.dropTarget(message.target);
        return;
      case 'label':
        await labelCase(session, { caseIndex: message.index, target: message.target, key: message.key, action: message.action }, this.deps.connection);
        return;
      case 'labelMode':
        session.passAnswer({ type: 'dispositions', values: loadCore().passDispositions(record, await readDispositions(this.deps.connection, record)) });
        return;
      case 'labelAs': {
        const c = record.cases[message.index];
        if (!c) return;
        const expected = loadCore().expectedWith(c.expected, record.keys, 0, message.value.trim());
        await labelCase(session, { caseIndex: message.index, target: 0, action: 'set', expected: expected ?? null, note: '' }, this.deps.connection);
        return;
      }
      case 'inputs':
        session.passAnswer({ type: 'inputs', index: message.index, inputs: loadCore().inputTexts(record, message.index) });
        return;
      case 'export': {
        const written = await this.export(session.document.uri, message.format);
        if (written) {
          const open = 'Open';
          void vscode.window.showInformationMessage(`Saved ${vscode.workspace.asRelativePath(written)}.`, open).then((choice) => {
            if (choice === open) void vscode.window.showTextDocument(written);
          });
        }
        return;
      }
    }
  }

  override dispose(): void {
    for (const session of this.sessions.values()) session.dispose();
    this.sessions.clear();
    super.dispose();
  }
}

/** A case's outputs on two targets side by side (VS Code's diff editor). */
async function showCase(session: ComparisonSession, index: number, leftIndex: number, rightIndex: number): Promise<void> {
  const record = session.record;
  const c = record.cases[index];
  const left = record.targets[leftIndex];
  const right = record.targets[rightIndex];
  if (!c || !left || !right) return;
  await vscode.commands.executeCommand(
    'vscode.diff',
    caseOutputsUri(session.document.uri, index, leftIndex, left.label),
    caseOutputsUri(session.document.uri, index, rightIndex, right.label),
    `${loadCore().caseLabel(c)}: ${left.label} ↔ ${right.label}`,
    { preview: true },
  );
}

/** The newest comparison (by its creation time) beside a test set whose test set it is. */
async function newestComparisonOf(testSet: vscode.Uri): Promise<vscode.Uri | undefined> {
  const folder = vscode.Uri.joinPath(testSet, '..');
  const name = testSet.path.split('/').pop()!;
  const files = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, '*.comparison.json'), undefined, 200);
  const read: { file: string; uri: vscode.Uri; record: ComparisonRecord }[] = [];
  for (const uri of files) {
    try {
      read.push({ file: uri.path, uri, record: loadCore().parseComparison(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri))) });
    } catch {
      // Not a comparison this window can read: not one to label from.
    }
  }
  return loadCore().newestComparisonOf(read, name)?.uri;
}

/** The comparison of the active editor tab (a cell's context menu belongs to it). */
function activeComparison(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputCustom && input.viewType === COMPARISON_VIEW_TYPE ? input.uri : undefined;
}
