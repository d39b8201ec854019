import * as vscode from 'vscode';
import type { DatasetFile } from '../../core/client';
import { bytes, endSentence } from '../../core/format';
import { describeLocalFile, localFileErrorIn } from '../../core/uploads/localFile';
import { checkFiles, confirmationQuestion, uploadSummary, type CandidateFile, type UploadOutcome } from '../../core/uploads/uploadPlan';
import { loadCore } from '../lazyCore';
import { Settings, StateKeys } from '../constants';
import type { Log } from '../log';
import type { TestPrompts } from '../testing/testPrompts';
import { CancelledError, isCancellation, messageOf } from '../util/errors';
import { PICKED_IN, picked, target as written } from '../util/picked';
import type { DatasetTarget, DatasetsView } from './datasetsView';

/** The questions an upload may ask (test builds let tests answer them: see testPrompts). */
export interface UploadPrompts {
  pickDataset(targets: DatasetTarget[], recent: string[]): Thenable<DatasetTarget | undefined>;
  metadata(): Thenable<string | undefined>;
  confirm(question: string): Thenable<boolean>;
  refused(message: string, canGoOn: boolean): Thenable<boolean>;
}

const RECENT_LIMIT = 5;
/** The least time between two redraws of an upload's progress notification. */
const PROGRESS_REDRAW_MS = 250;

/**
 * Uploads files from disk to a dataset: checks first (nothing is sent for a folder, an over-long name,
 * a size the service cannot record), asks once before a large batch, streams each file with progress
 * and Cancel, goes on after a failed file, and sums up which files went and which did not, and why.
 */
export class Uploads {
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly view: DatasetsView,
    private readonly log: Log,
    private readonly answers: TestPrompts,
  ) {}

  private get prompts(): UploadPrompts {
    return (__TEST_HOOKS__ && this.answers.uploads) || userPrompts;
  }

  /** Uploads files (file: URIs) to the given dataset (the one the user chose in the Datasets view), or to one the user picks. */
  async upload(uris: readonly vscode.Uri[], target?: DatasetTarget, metadataText?: string, signal?: AbortSignal): Promise<UploadOutcome[]> {
    const local = uris.filter((u) => u.scheme === 'file');
    if (local.length < uris.length) throw new Error('Only files on this machine can be uploaded (some of the chosen items are not local files).');
    if (!local.length) throw new Error('Choose one or more files to upload.');
    const { accepted, refused } = checkFiles(await Promise.all(local.map((uri) => describeLocalFile(uri.fsPath))));
    if (refused.length) {
      const message = `Not uploaded (nothing sent): ${endSentence(refused.map((r) => `${r.name.length > 60 ? `${r.name.slice(0, 57)}…` : r.name} — ${r.reason}`).join('; '))}`;
      if (!(await this.prompts.refused(message, accepted.length > 0)) || !accepted.length) return refused.map((r) => ({ name: r.name, ok: false, reason: r.reason }));
    }
    const dataset = target ?? (await this.prompts.pickDataset(await this.view.targets(), this.recent()));
    if (!dataset) throw new CancelledError();
    const how = target ? PICKED_IN.datasetsView : PICKED_IN.quickPick;
    const metadataAnswer = metadataText ?? (await this.prompts.metadata());
    if (metadataAnswer === undefined) throw new CancelledError();
    const metadata = loadCore().parseMetadata(metadataAnswer);
    if (!metadata.ok) throw new Error(`Not uploaded (nothing sent): the metadata is not valid. ${metadata.problem}.`);
    const question = confirmationQuestion(accepted, this.limits(), dataset.dataset.name);
    if (question && !(await this.prompts.confirm(question))) throw new CancelledError();
    await this.remember(dataset.dataset.id);
    const { outcomes, uploaded, cancelled } = await this.send(accepted, dataset, how, metadata.value, signal);
    const summary = uploadSummary([...refused.map((r) => ({ name: r.name, ok: false, reason: r.reason })), ...outcomes], dataset.dataset.name, cancelled);
    this.log.info(summary);
    if (outcomes.every((o) => o.ok) && !refused.length && !cancelled) void vscode.window.showInformationMessage(summary);
    else void vscode.window.showWarningMessage(summary, 'Show Log').then((c) => c && this.log.show());
    if (uploaded.length) void this.view.showUploaded(dataset, uploaded);
    return [...refused.map((r) => ({ name: r.name, ok: false, reason: r.reason })), ...outcomes];
  }

  /** Sends each file to the dataset the user picked (`how`: where). */
  private async send(files: CandidateFile[], target: DatasetTarget, how: string, metadata: unknown, signal?: AbortSignal): Promise<{ outcomes: UploadOutcome[]; uploaded: DatasetFile[]; cancelled: boolean }> {
    const total = files.reduce((s, f) => s + f.size, 0) || 1;
    const outcomes: UploadOutcome[] = [];
    const uploaded: DatasetFile[] = [];
    let cancelled = false;
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Uploading to ${target.dataset.name}`, cancellable: true },
      async (progress, progressToken) => {
        // Cancel from the notification, or from the caller's signal (scripts and tests).
        const source = new vscode.CancellationTokenSource();
        const subs = [progressToken.onCancellationRequested(() => source.cancel())];
        if (signal) {
          // Taken off again at the end: a caller's signal may outlive many batches.
          const onAbort = (): void => source.cancel();
          signal.addEventListener('abort', onAbort, { once: true });
          subs.push({ dispose: () => signal.removeEventListener('abort', onAbort) });
        }
        if (signal?.aborted) source.cancel();
        const token = source.token;
        let doneBytes = 0;
        let reported = 0;
        for (const [i, file] of files.entries()) {
          if (token.isCancellationRequested) {
            cancelled = true;
            outcomes.push({ name: file.name, ok: false, reason: 'cancelled before it started' });
            continue;
          }
          const controller = new AbortController();
          const sub = token.onCancellationRequested(() => controller.abort());
          const prefix = files.length > 1 ? `(${i + 1}/${files.length}) ` : '';
          let shownAt = 0;
          const onProgress = (sent: number, size: number): void => {
            const fileBytes = Math.min(file.size, Math.round((sent / Math.max(size, 1)) * file.size));
            const overall = ((doneBytes + fileBytes) / total) * 100;
            // Each report redraws the notification in the window: a few a second say as much as hundreds,
            // and cost the window far less CPU (which the upload itself needs on a small machine).
            const now = performance.now();
            if (sent > 0 && sent < size && now - shownAt < PROGRESS_REDRAW_MS) return;
            shownAt = now;
            progress.report({ message: `${prefix}${file.name} — ${bytes(fileBytes)} of ${bytes(file.size)} (${Math.floor((fileBytes / Math.max(file.size, 1)) * 100)}%)`, increment: overall - reported });
            reported = overall;
          };
          try {
            onProgress(0, 1);
            const client = this.view.client();
            const ground = picked(client, written.dataset(target.dataset.id), how);
            const result = await client.datasets.upload({ filePath: file.path, fileName: file.name, datasetId: target.dataset.id, personal: target.personal, metadata, onProgress }, { signal: controller.signal, ground });
            uploaded.push(result);
            outcomes.push({ name: file.name, ok: true });
          } catch (error) {
            if (token.isCancellationRequested || isCancellation(error)) cancelled = true;
            outcomes.push({ name: file.name, ok: false, reason: cancelled ? 'cancelled' : (localFileErrorIn(error)?.reason ?? messageOf(error)) });
            this.log.error(`Upload of ${file.path} to ${target.dataset.name} failed`, error);
          } finally {
            sub.dispose();
            doneBytes += file.size;
          }
        }
        for (const s of subs) s.dispose();
        source.dispose();
      },
    );
    return { outcomes, uploaded, cancelled };
  }

  private limits(): { maxCount: number; maxBytes: number } {
    const config = vscode.workspace.getConfiguration(Settings.section);
    return {
      maxCount: config.get<number>(Settings.confirmFileCount, 20),
      maxBytes: config.get<number>(Settings.confirmTotalMegabytes, 100) * 1024 * 1024,
    };
  }

  private recent(): string[] {
    return this.context.globalState.get<string[]>(StateKeys.recentDatasets) ?? [];
  }

  private remember(datasetId: string): Thenable<void> {
    return this.context.globalState.update(StateKeys.recentDatasets, [datasetId, ...this.recent().filter((id) => id !== datasetId)].slice(0, RECENT_LIMIT));
  }
}


const userPrompts: UploadPrompts = {
  async pickDataset(targets, recent) {
    type Item = vscode.QuickPickItem & { target?: DatasetTarget };
    const byRecency = (t: DatasetTarget): number => {
      const i = recent.indexOf(t.dataset.id);
      return i < 0 ? Number.MAX_SAFE_INTEGER : i;
    };
    const recentOnes = targets.filter((t) => recent.includes(t.dataset.id)).sort((a, b) => byRecency(a) - byRecency(b));
    const others = targets.filter((t) => !recent.includes(t.dataset.id));
    const item = (t: DatasetTarget): Item => ({ label: `${t.personal ? '$(account)' : '$(database)'} ${t.dataset.name}`, description: t.personal ? 'personal dataset' : '', target: t });
    const items: Item[] = [];
    if (recentOnes.length) items.push({ label: 'recently used', kind: vscode.QuickPickItemKind.Separator }, ...recentOnes.map(item));
    if (others.length) items.push({ label: 'datasets', kind: vscode.QuickPickItemKind.Separator }, ...others.map(item));
    const pick = await vscode.window.showQuickPick(items, { title: 'Upload to Dataset', placeHolder: 'Choose the dataset' });
    return pick?.target;
  },
  metadata: () =>
    vscode.window.showInputBox({
      title: 'Upload to Dataset: metadata (optional)',
      prompt: 'Metadata for the files, as a JSON object. Press Enter with nothing to upload without metadata.',
      placeHolder: '{"source": "crm", "batch": 12}',
      validateInput: (v) => {
        const r = loadCore().parseMetadata(v);
        return r.ok ? undefined : r.problem;
      },
    }),
  confirm: async (question) => (await vscode.window.showWarningMessage(question, { modal: true, detail: 'You can change when this is asked in the settings (Uploads).' }, 'Upload')) === 'Upload',
  refused: async (message, canGoOn) => {
    if (!canGoOn) {
      void vscode.window.showErrorMessage(message);
      return false;
    }
    return (await vscode.window.showWarningMessage(message, { modal: true }, 'Upload the Others')) === 'Upload the Others';
  },
};
