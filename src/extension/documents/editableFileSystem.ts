import * as vscode from 'vscode';
import { Schemes } from '../constants';
import { Disposable } from '../util/disposable';
import type { SaveOutcome } from './newVersionSave';
import { AUTO_SAVE_REFUSED, SaveReasons } from './saveReasons';
import type { Log } from '../log';
import { UnsavedStatus } from './unsavedStatus';

/** A document that lives in the service: read from it, and saved to it as a new version. */
export interface EditableDocument {
  /** The text of the version in the service (what the editor opens, what "Revert" goes back to). It never changes. */
  read(): Promise<Uint8Array> | Uint8Array;
  /** Saves the text through the new-version flow and says what happened. */
  save(text: string): Promise<SaveOutcome>;
  readonly ctime: number;
  /** Moves when editors must read the document again (after a save wrote other text over it). */
  mtime: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A document whose text comes from the service (given, or loaded on first read) and whose save is
 * `save(text)`. What it serves is the version's own text, before and after any save: a save creates
 * another version, it never changes this one.
 */
export function serviceDocument(initial: string | (() => Promise<string>), save: (text: string) => Promise<SaveOutcome>): EditableDocument {
  const now = Date.now();
  let text = typeof initial === 'string' ? initial : undefined;
  return {
    ctime: now,
    mtime: now,
    read: async () => {
      if (text === undefined && typeof initial === 'function') text = await initial();
      return encoder.encode(text ?? '');
    },
    save,
  };
}

/** Rebuilds a document from its URI (after a window reload restores the tab), or says the URI is not its kind. */
export type DocumentResolver = (uri: vscode.Uri) => EditableDocument | undefined;

/**
 * The `agent-workbench:` file system: policy versions and agent-version drafts as ordinary editor tabs,
 * where an explicit save creates a version in the service. Documents register themselves; a resolver
 * may rebuild one from its path after a reload.
 *
 * Saving goes one of two ways. Ctrl+S runs {@link saveExplicitly}: the new-version flow first (a
 * cancelled question is silent, a failure is our own sentence), then VS Code's save, which this file
 * system only acknowledges. Any other save (the File menu, the API) reaches `writeFile`, which runs the
 * same flow and can only refuse by throwing.
 *
 * A document is let go when VS Code closes it (never while an editor holds it, dirty or not), so a
 * long session keeps only what is open; opened again, a resolver rebuilds it.
 */
/** The language of policy and draft documents (schema, auto save off). */
export const SERVICE_JSON_LANGUAGE = 'agent-workbench-json';

export class EditableFileSystem extends Disposable implements vscode.FileSystemProvider {
  private readonly changed = this.register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  readonly onDidChangeFile = this.changed.event;
  private readonly documents = new Map<string, EditableDocument>();
  private readonly resolvers: DocumentResolver[] = [];
  private readonly reasons = this.register(new SaveReasons());
  /** Texts the flow already saved, waiting for VS Code's write of the same text. */
  private readonly acknowledged = new Map<string, string>();
  /** Versions saved over, to be read again once VS Code has finished saving them. */
  private readonly savedOver = new Set<string>();
  /** Documents whose tab moves to what their save created, once VS Code has finished saving them. */
  private readonly movesAfterSave = new Map<string, vscode.Uri>();
  private toldLanguage = false;

  constructor(private readonly log?: Log) {
    super();
    this.register(vscode.workspace.registerFileSystemProvider(Schemes.edit, this, { isCaseSensitive: true }));
    this.register(new UnsavedStatus());
    // VS Code now holds the saved text under this version's URI, but the version itself did not change:
    // once VS Code has finished the save, every editor of it (split copies, diffs, a tab opened again)
    // reads the version's own text again.
    this.register(vscode.workspace.onDidSaveTextDocument((doc) => {
      if (this.savedOver.delete(doc.uri.path)) this.notifyChanged(doc.uri);
      const next = this.movesAfterSave.get(doc.uri.toString());
      this.movesAfterSave.delete(doc.uri.toString());
      if (next) void replaceTab(doc.uri, next, (line) => this.log?.debug(line));
    }));
    this.register(vscode.workspace.onDidCloseTextDocument((document) => this.release(document.uri)));
    this.register(vscode.workspace.onDidOpenTextDocument((document) => void this.keepLanguage(document)));
  }

  /**
   * A policy or draft switched to another language (Change Language Mode → JSON) would lose its schema
   * and get the user's auto save, whose every attempt VS Code reports as a failed save: it goes back to
   * its own language, and says why once.
   */
  private async keepLanguage(document: vscode.TextDocument): Promise<void> {
    if (document.uri.scheme !== Schemes.edit || document.languageId === SERVICE_JSON_LANGUAGE || !document.uri.path.endsWith('.json')) return;
    await vscode.languages.setTextDocumentLanguage(document, SERVICE_JSON_LANGUAGE).then(undefined, () => undefined);
    if (this.toldLanguage) return;
    this.toldLanguage = true;
    void vscode.window.showInformationMessage('Policies and drafts keep the language “Agent Workbench JSON”: it carries their schema and keeps auto save from creating versions. Its highlighting is JSON’s.');
  }

  /** How many documents are held (open ones, and any no resolver could rebuild). */
  get size(): number {
    return this.documents.size;
  }

  /** Adds a way to rebuild documents of one kind from their URIs. */
  addResolver(resolver: DocumentResolver): void {
    this.resolvers.push(resolver);
  }

  /** Makes a document available at a URI (replacing what was there). */
  set(uri: vscode.Uri, document: EditableDocument): void {
    this.documents.set(uri.path, document);
  }

  /** Tells editors that the document at a URI changed (they read it again unless dirty). */
  notifyChanged(uri: vscode.Uri): void {
    const doc = this.documents.get(uri.path);
    if (doc) doc.mtime = Math.max(Date.now(), doc.mtime + 1);
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  /** Once VS Code has saved the document at `saved`, its tab shows `created` instead (the version the save made). */
  showAfterSave(saved: vscode.Uri, created: vscode.Uri): void {
    this.movesAfterSave.set(saved.toString(), created);
  }

  /** A document whose text the service now holds as `created` (a trial published): VS Code marks it saved and its tab moves there. */
  async settleAs(document: vscode.TextDocument, created: vscode.Uri): Promise<void> {
    this.acknowledged.set(document.uri.path, document.getText());
    this.showAfterSave(document.uri, created);
    await document.save();
  }

  /**
   * Saves an open document as a new version (Ctrl+S): runs the flow, and when it saved (or nothing
   * changed) lets VS Code mark the text saved. Says nothing when the user cancelled.
   */
  async saveExplicitly(document: vscode.TextDocument): Promise<SaveOutcome> {
    const text = document.getText();
    const outcome = await this.get(document.uri).save(text);
    if (outcome.kind !== 'saved' && outcome.kind !== 'unchanged') return outcome;
    if (document.getText() !== text) return outcome; // typed on during the questions: the rest stays unsaved
    this.acknowledged.set(document.uri.path, text);
    await document.save();
    return outcome;
  }

  /** Lets go of a closed document's text, when a resolver can rebuild it should it be opened again. */
  private release(uri: vscode.Uri): void {
    if (uri.scheme !== Schemes.edit || !this.documents.has(uri.path)) return;
    if (this.resolvers.some((resolve) => resolve(uri) !== undefined)) this.documents.delete(uri.path);
  }

  private get(uri: vscode.Uri): EditableDocument {
    let doc = this.documents.get(uri.path);
    if (!doc) {
      for (const resolve of this.resolvers) if ((doc = resolve(uri))) break;
      if (doc) this.documents.set(uri.path, doc);
    }
    if (!doc) throw vscode.FileSystemError.FileNotFound(uri);
    return doc;
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    if (uri.path === '/' || !uri.path.endsWith('.json')) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const doc = this.get(uri);
    return { type: vscode.FileType.File, ctime: doc.ctime, mtime: doc.mtime, size: 0 };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return this.get(uri).read();
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const text = decoder.decode(content);
    const acknowledged = this.acknowledged.get(uri.path);
    this.acknowledged.delete(uri.path);
    const explicit = this.reasons.isExplicit(uri);
    if (acknowledged !== text) {
      // Every write creates something in the service: auto save must not (the text stays dirty instead).
      if (!explicit) throw vscode.FileSystemError.Unavailable(AUTO_SAVE_REFUSED);
      const outcome = await this.get(uri).save(text);
      // Resolving would mark the editor saved although nothing was created (a close or revert would then lose
      // the edit): the provider can only refuse by throwing, so what VS Code shows is one sentence of ours.
      if (outcome.kind === 'cancelled') throw new Error(cancelledSaveMessage(outcome.reason));
      if (outcome.kind === 'notSaved') throw new Error(outcome.message);
    }
    this.savedOver.add(uri.path);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  watch(): vscode.Disposable {
    // Changes come from our own writes and refreshes, which fire onDidChangeFile themselves.
    return new vscode.Disposable(() => undefined);
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
}

/**
 * Opens `next` where the tab of `previous` is, then closes that tab unless it has new edits. With the
 * document in several panes (a split), the pane it was saved from is the active one: that tab is replaced.
 */
async function replaceTab(previous: vscode.Uri, next: vscode.Uri, log: (line: string) => void): Promise<void> {
  const holds = (group: vscode.TabGroup | undefined): vscode.Tab | undefined =>
    group?.tabs.find((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === previous.toString());
  const groups = vscode.window.tabGroups;
  try {
    const column = (holds(groups.activeTabGroup) ?? groups.all.map(holds).find((tab) => tab !== undefined))?.group.viewColumn;
    await vscode.window.showTextDocument(next, { viewColumn: column, preview: false });
    // Looked up again: the groups and their tabs are read as they are now, not as they were before the new tab opened.
    const old = holds(groups.all.find((group) => group.viewColumn === column)) ?? groups.all.map(holds).find((tab) => tab !== undefined);
    if (old && !old.isDirty) await groups.close(old);
    else if (old) log(`Kept the tab of ${previous.path}: it has edits made after the save`);
  } catch (error) {
    // The tab went away meanwhile (closed by the user): the new document is open, nothing else to do.
    log(`Could not replace the tab of ${previous.path}: ${String(error)}`);
  }
}

/** What a save the user stopped says in VS Code's "Failed to save" message: why, and that the edit is kept. */
export function cancelledSaveMessage(reason: string | undefined): string {
  return `Not saved: ${reason ?? 'the save was cancelled'} — your edit is kept; save again to create the version`;
}
