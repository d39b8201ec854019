import * as vscode from 'vscode';
import { Schemes } from '../constants';
import { Disposable } from '../util/disposable';
import { AUTO_SAVE_REFUSED, SaveReasons } from './saveReasons';

/** A document that lives in the service: read from it, and saved back to it. */
export interface EditableDocument {
  /** The text the service has (what the editor opens and what "Revert" goes back to). */
  read(): Promise<Uint8Array> | Uint8Array;
  /** Saves: throw to refuse, and the editor keeps the text, still dirty. */
  write(content: Uint8Array): Promise<void>;
  readonly ctime: number;
  readonly mtime: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A document whose text comes from the service (given, or loaded on first read) and whose save is
 * `save(text)`: the text it serves changes only once a save succeeded.
 */
export function serviceDocument(initial: string | (() => Promise<string>), save: (text: string) => Promise<void>): EditableDocument {
  const now = Date.now();
  const state = { text: typeof initial === 'string' ? initial : undefined, mtime: now };
  return {
    ctime: now,
    get mtime() {
      return state.mtime;
    },
    read: async () => {
      if (state.text === undefined && typeof initial === 'function') state.text = await initial();
      return encoder.encode(state.text ?? '');
    },
    write: async (content) => {
      const text = decoder.decode(content);
      await save(text);
      state.text = text;
      state.mtime = Date.now();
    },
  };
}

/** Rebuilds a document from its URI (after a window reload restores the tab), or says the URI is not its kind. */
export type DocumentResolver = (uri: vscode.Uri) => EditableDocument | undefined;

/**
 * The `agent-workbench:` file system: policy versions and agent-version drafts as ordinary editor tabs,
 * where Save writes to the service. Documents register themselves; a resolver may rebuild one from its
 * path after a reload. A document is let go when VS Code closes it (never while an editor holds it,
 * dirty or not), so a long session keeps only what is open; opened again, a resolver rebuilds it.
 */
export class EditableFileSystem extends Disposable implements vscode.FileSystemProvider {
  private readonly changed = this.register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  readonly onDidChangeFile = this.changed.event;
  private readonly documents = new Map<string, EditableDocument>();
  private readonly resolvers: DocumentResolver[] = [];
  private readonly reasons = this.register(new SaveReasons());

  constructor() {
    super();
    this.register(vscode.workspace.registerFileSystemProvider(Schemes.edit, this, { isCaseSensitive: true }));
    this.register(vscode.workspace.onDidCloseTextDocument((document) => this.release(document.uri)));
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

  /** Tells editors that the document at a URI changed in the service (they reload it unless dirty). */
  notifyChanged(uri: vscode.Uri): void {
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
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
    // Every write creates something in the service: auto save must not (the text stays dirty instead).
    if (!this.reasons.isExplicit(uri)) throw vscode.FileSystemError.Unavailable(AUTO_SAVE_REFUSED);
    await this.get(uri).write(content);
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
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
