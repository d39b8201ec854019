import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import { LIVE_CHECK_MAX_CHARS } from '../../core/documents/checkBudget';
import { isRunFilePath } from '../../core/runs/runFilePath';
import { runLensTitle } from '../../core/runs/runLens';
import { isInsideFolder } from '../../core/runs/workspacePath';
import type { RunPlan, RunProblem } from '../core';
import { LiveChecker } from '../documents/liveChecker';
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
  readonly diagnostics = this.register(new LiveChecker('runs'));
  private readonly lensesChanged = this.register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.lensesChanged.event;

  constructor(private readonly targets: RunTargets) {
    super();
    const selector = [{ scheme: 'file', pattern: '**/*.agentrun.json' }, { scheme: 'untitled', pattern: '**/*.agentrun.json' }];
    this.register(vscode.languages.registerCodeLensProvider(selector, this));
    this.register(
      this.diagnostics.watch({
        matches: (doc) => isRunFilePath(doc.uri.path) && (doc.uri.scheme === 'file' || doc.uri.scheme === 'untitled'),
        check: async (text, doc, token) => {
          this.lensesChanged.fire();
          const { problems } = await this.problemsOf({ text, uri: doc.uri }, false).catch(() => ({ problems: undefined }));
          // The agent is read now: the lens names it.
          this.lensesChanged.fire();
          return token.isCancellationRequested ? undefined : problems?.filter((p) => !p.schema);
        },
        maxChars: LIVE_CHECK_MAX_CHARS.runs,
        delayMs: 400,
      }),
    );
    this.register(vscode.window.onDidChangeWindowState((state) => {
      // Files on disk may have come or gone meanwhile.
      if (state.focused) this.diagnostics.recheckAll();
    }));
  }

  /** Checks a run file the way a run does; throws {@link RunRefusedError} (with the problems underlined) when it cannot run. */
  async check(source: RunSource, fresh: boolean): Promise<CheckedRun> {
    const { problems, plan, target } = await this.problemsOf(source, fresh);
    this.show(source, problems);
    if (!plan || !target || problems.some((p) => p.severity !== 'warning')) return this.refuse(source, problems, true);
    return { plan, target, problems };
  }

  /** Every problem of a run file, and what it would send when none blocks it. */
  private async problemsOf(source: RunSource, fresh: boolean): Promise<{ problems: RunProblem[]; plan?: RunPlan; target?: ResolvedTarget }> {
    const core = loadCore();
    const parsed = core.parseRunFile(source.text);
    const file = parsed.file;
    if (!file) return { problems: parsed.problems };
    let target: ResolvedTarget;
    try {
      target = await this.targets.resolve(file.agent, file.version, fresh);
    } catch (error) {
      if (!(error instanceof UnknownTargetError)) throw error;
      return { problems: [this.problemAt(source.text, error.field, error.message)] };
    }
    const checked = await core.checkRun(source.text, file, target.definitions, { baseDir: baseDirOf(source.uri), fileKind });
    const problems = [...checked.problems];
    if (checked.plan?.batch && checked.plan.versionId && checked.plan.versionId !== target.agent.current_version_id) {
      problems.push(this.problemAt(source.text, 'version', `a batch runs the agent's current version: remove "version" to run ${target.agent.name}'s current version, or run the input sets one at a time`));
    }
    return { problems, plan: checked.plan, target };
  }

  /** Shows the service's field errors of a refused run at their fields; false when it named none. */
  showServiceErrors(source: RunSource, error: { fieldErrors: Record<string, string[]>; nonFieldErrors: readonly string[] }, run: CheckedRun): boolean {
    if (!source.uri) return false;
    const problems = loadCore().runErrorProblems(source.text, error, run.target.definitions.map((d) => d.key), run.plan.batch);
    if (problems.length) this.diagnostics.set(source.uri, source.text, problems);
    return problems.length > 0;
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    // Too large to read while typing: the lens runs it all the same, without counting its input sets.
    const parsed = this.diagnostics.overBudget(document) ? { file: undefined } : loadCore().parseRunFile(document.getText());
    const count = Array.isArray(parsed.file?.inputs) ? parsed.file.inputs.length : undefined;
    // The click picks the agent the jobs start on: the lens names it as the service does (once read).
    const known = parsed.file ? this.targets.cached(parsed.file.agent, parsed.file.version) : undefined;
    const agent = known && !(known instanceof UnknownTargetError) ? known.agent : undefined;
    const title = runLensTitle(agent?.name, count);
    const on = agent ? ` of ${agent.name} (${agent.id})` : '';
    const tooltip = count === undefined ? `Start one job${on} with these inputs` : `Start ${count} jobs${on} with one request`;
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
}

/** The folder relative file paths start from: the run file's workspace folder, else the first one; none without a workspace (nothing can be sent then). */
export function baseDirOf(uri: vscode.Uri | undefined): string | undefined {
  const folder = (uri && vscode.workspace.getWorkspaceFolder(uri.with({ scheme: 'file' }))) ?? vscode.workspace.workspaceFolders?.[0];
  return folder?.uri.fsPath;
}

/** What a path names on disk; `outside` when, symlinks followed, it is in no workspace folder. */
async function fileKind(absolutePath: string): Promise<'file' | 'folder' | 'missing' | 'outside'> {
  let real: string;
  try {
    real = await fs.realpath(absolutePath);
  } catch {
    return 'missing';
  }
  const folders = await Promise.all((vscode.workspace.workspaceFolders ?? []).map((f) => fs.realpath(f.uri.fsPath).catch(() => f.uri.fsPath)));
  if (!folders.some((folder) => isInsideFolder(folder, real))) return 'outside';
  const stat = await fs.stat(real);
  return stat.isDirectory() ? 'folder' : 'file';
}
