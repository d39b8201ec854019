import * as path from 'node:path';
import * as vscode from 'vscode';
import { isRunFilePath } from '../../core/runs/runFilePath';
import type { RunPlan, RunProblem } from '../core';
import { DocumentDiagnostics } from '../documents/diagnostics';
import { loadCore } from '../lazyCore';
import { RunCommands } from '../constants';
import { Disposable } from '../util/disposable';
import { type RunTargets, type ResolvedTarget, UnknownTargetError } from './runTargets';

/** A run file's text with where it lives (an untitled document has an intended path, or none). */
export interface RunSource {
  text: string;
  /** Where problems are shown; none for a run built in memory (Run on Files). */
  uri?: vscode.Uri;
}

/** A run file checked and ready to send. */
export interface CheckedRun {
  plan: RunPlan;
  target: ResolvedTarget;
  problems: RunProblem[];
}

/** Refused before anything was sent: the problems are underlined in the run file. */
export class RunRefusedError extends Error {}

/**
 * Run files in the editor: squiggles for what the JSON schema cannot say (a missing file, an unknown
 * agent, files in a batch), kept current while typing; a CodeLens that runs the file; and the check
 * every run goes through before anything is sent.
 */
export class RunFiles extends Disposable implements vscode.CodeLensProvider {
  readonly diagnostics = this.register(new DocumentDiagnostics('agent-workbench-runs'));
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly lensesChanged = this.register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.lensesChanged.event;

  constructor(private readonly targets: RunTargets) {
    super();
    const selector = [{ scheme: 'file', pattern: '**/*.agentrun.json' }, { scheme: 'untitled', pattern: '**/*.agentrun.json' }];
    this.register(vscode.languages.registerCodeLensProvider(selector, this));
    this.register(vscode.workspace.onDidOpenTextDocument((doc) => this.schedule(doc, 0)));
    this.register(vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document, 400)));
    this.register(vscode.workspace.onDidSaveTextDocument((doc) => this.schedule(doc, 0)));
    this.register(vscode.window.onDidChangeWindowState((state) => {
      // Files on disk may have come or gone meanwhile.
      if (state.focused) this.recheckOpen();
    }));
    this.register({ dispose: () => this.timers.forEach((t) => clearTimeout(t)) });
    this.recheckOpen();
  }

  /** Checks a run file the way a run does; throws {@link RunRefusedError} (with the problems underlined) when it cannot run. */
  async check(source: RunSource, fresh: boolean): Promise<CheckedRun> {
    const core = loadCore();
    const parsed = core.parseRunFile(source.text);
    const file = parsed.file;
    if (!file) this.refuse(source, parsed.problems);
    let target: ResolvedTarget;
    try {
      target = await this.targets.resolve(file.agent, file.version, fresh);
    } catch (error) {
      if (!(error instanceof UnknownTargetError)) throw error;
      this.refuse(source, [this.problemAt(source.text, error.field, error.message)]);
    }
    const checked = await core.checkRun(source.text, file, target.definitions, { baseDir: baseDirOf(source.uri), fileKind });
    const problems = [...checked.problems];
    if (checked.plan?.batch && checked.plan.versionId && checked.plan.versionId !== target.agent.current_version_id) {
      problems.push(this.problemAt(source.text, 'version', `a batch runs the agent's current version: remove "version" to run ${target.agent.name}'s current version, or run the input sets one at a time`));
    }
    this.show(source, problems);
    if (!checked.plan || problems.some((p) => p.severity !== 'warning')) return this.refuse(source, problems, true);
    return { plan: checked.plan, target, problems };
  }

  /** Shows the service's field errors of a refused run at their fields; false when it named none. */
  showServiceErrors(source: RunSource, error: { fieldErrors: Record<string, string[]>; nonFieldErrors: readonly string[] }, run: CheckedRun): boolean {
    if (!source.uri) return false;
    const problems = loadCore().runErrorProblems(source.text, error, run.target.definitions.map((d) => d.key), run.plan.batch);
    if (problems.length) this.diagnostics.set(source.uri, source.text, problems);
    return problems.length > 0;
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const parsed = loadCore().parseRunFile(document.getText());
    const count = Array.isArray(parsed.file?.inputs) ? parsed.file.inputs.length : undefined;
    const title = count === undefined ? '▶ Run' : `▶ Run batch (${count})`;
    const tooltip = count === undefined ? 'Start one job with these inputs' : `Start ${count} jobs with one request`;
    return [new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), { title, tooltip, command: RunCommands.runFile, arguments: [document.uri] })];
  }

  private refuse(source: RunSource, problems: RunProblem[], shown = false): never {
    if (!shown) this.show(source, problems);
    const blocking = problems.filter((p) => p.severity !== 'warning');
    const list = blocking.slice(0, 3).map((p) => p.message).join('; ');
    const more = blocking.length > 3 ? ` (and ${blocking.length - 3} more)` : '';
    const where = source.uri ? ' Fix what is underlined in the run file and run it again.' : '';
    throw new RunRefusedError(`Not run, nothing was sent: ${list}${more}.${where}`);
  }

  /** Our own problems go to our collection; the schema's are the JSON language service's to show. */
  private show(source: RunSource, problems: RunProblem[]): void {
    if (source.uri) this.diagnostics.set(source.uri, source.text, problems.filter((p) => !p.schema));
  }

  private problemAt(text: string, field: 'agent' | 'version', message: string): RunProblem {
    const [located] = loadCore().runErrorProblems(text, { fieldErrors: { [field]: [message] }, nonFieldErrors: [] }, [], false);
    return { ...(located ?? { path: [field], offset: 0, length: 1 }), message };
  }

  private recheckOpen(): void {
    for (const doc of vscode.workspace.textDocuments) this.schedule(doc, 0);
  }

  private schedule(doc: vscode.TextDocument, delayMs: number): void {
    if (!isRunFilePath(doc.uri.path) || (doc.uri.scheme !== 'file' && doc.uri.scheme !== 'untitled')) return;
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(key, setTimeout(() => {
      this.timers.delete(key);
      this.lensesChanged.fire();
      void this.check({ text: doc.getText(), uri: doc.uri }, false).catch(() => undefined);
    }, delayMs));
  }
}

/** The folder relative file paths start from: the run file's workspace folder, else the first one, else its own folder. */
export function baseDirOf(uri: vscode.Uri | undefined): string | undefined {
  const folder = (uri && vscode.workspace.getWorkspaceFolder(uri.with({ scheme: 'file' }))) ?? vscode.workspace.workspaceFolders?.[0];
  if (folder) return folder.uri.fsPath;
  return uri?.scheme === 'file' ? path.dirname(uri.fsPath) : undefined;
}

async function fileKind(absolutePath: string): Promise<'file' | 'folder' | 'missing'> {
  try {
    const stat = await vscode.workspace.fs.stat(vscode.Uri.file(absolutePath));
    return stat.type & vscode.FileType.Directory ? 'folder' : 'file';
  } catch {
    return 'missing';
  }
}
