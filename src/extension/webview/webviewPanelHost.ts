import * as vscode from 'vscode';
import type { Log } from '../log';
import { Disposable } from '../util/disposable';
import { createNonce, webviewHtml } from './webviewHtml';

/** What a webview panel is: its page under `media/<folder>/`, and how its messages are checked. */
export interface WebviewPanelSpec<In extends { type: string }, Out> {
  viewType: string;
  title: string;
  /** Folder under `media/` holding the page's script and style sheets; the only folder the page can load from. */
  mediaFolder: string;
  script: string;
  styles: readonly string[];
  /** Static markup of the page body. */
  body: string;
  /** Validates a message from the page; undefined means "not ours" (ignored, logged). */
  parseMessage(value: unknown): In | undefined;
  /** Checks a message before it is sent (a failure is a bug of ours, logged and not sent). */
  isOutgoing(value: unknown): value is Out;
}

/** The options a strict panel is created with (its page is discarded while hidden and reloads when shown). */
export function webviewPanelOptions(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return { enableScripts: true, enableForms: false, enableCommandUris: false, enableFindWidget: true, retainContextWhenHidden: false };
}

/**
 * One webview panel done the strict way: scripts only with a per-load nonce, files only from its own
 * `media/` folder, no forms or command links, typed messages validated in both directions, and a ready
 * handshake. The page sends `{type: 'ready'}` each time it loads (also after being hidden, which
 * discards it); only then are messages sent, and `onReady` sends the whole state again.
 */
export abstract class WebviewPanelHost<In extends { type: string }, Out> extends Disposable {
  private ready = false;
  private readonly closed = this.register(new vscode.EventEmitter<void>());
  /** Fires once, when the panel is closed or the owner disposes it. */
  readonly onDidDispose = this.closed.event;

  /** Opens a new panel, or adopts one VS Code restored after a reload (`WebviewPanelSerializer`). */
  protected constructor(
    protected readonly panel: vscode.WebviewPanel,
    private readonly spec: WebviewPanelSpec<In, Out>,
    extensionUri: vscode.Uri,
    protected readonly log: Log,
  ) {
    super();
    const media = vscode.Uri.joinPath(extensionUri, 'media', spec.mediaFolder);
    panel.webview.options = { enableScripts: true, enableForms: false, enableCommandUris: false, localResourceRoots: [media] };
    panel.webview.html = webviewHtml({
      title: spec.title,
      cspSource: panel.webview.cspSource,
      nonce: createNonce(),
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, spec.script)).toString(),
      styleUris: spec.styles.map((style) => panel.webview.asWebviewUri(vscode.Uri.joinPath(media, style)).toString()),
      body: spec.body,
    });
    this.register(panel.webview.onDidReceiveMessage((value: unknown) => this.receive(value)));
    this.register(panel.onDidChangeViewState(() => {
      // A hidden webview is discarded (no retained context); it says "ready" again when shown.
      if (!panel.visible) this.ready = false;
    }));
    this.register(panel.onDidDispose(() => this.dispose()));
  }

  /** Whether the page has loaded and said it is ready for messages. */
  get isReady(): boolean {
    return this.ready && !this.isDisposed;
  }

  /** The page (re)loaded: send it everything it shows. */
  protected abstract onReady(): void;

  /** A validated message from the page, other than `ready`. */
  protected abstract onMessage(message: In): void | Promise<void>;

  /** Sends a message when the page is ready; returns whether it was sent (otherwise `onReady` will cover it). */
  protected post(message: Out): boolean {
    if (!this.isReady) return false;
    if (!this.spec.isOutgoing(message)) {
      this.log.error(`Webview ${this.spec.viewType}: refusing to send a malformed message`, JSON.stringify(message)?.slice(0, 500));
      return false;
    }
    void this.panel.webview.postMessage(message);
    return true;
  }

  private receive(value: unknown): void {
    const message = this.spec.parseMessage(value);
    if (!message) {
      this.log.warn(`Webview ${this.spec.viewType}: ignored a message that is not one of ours: ${JSON.stringify(value)?.slice(0, 200)}`);
      return;
    }
    if (message.type === 'ready') {
      this.ready = true;
      this.onReady();
      return;
    }
    Promise.resolve(this.onMessage(message)).catch((error: unknown) => this.log.error(`Webview ${this.spec.viewType}: handling "${message.type}" failed`, error));
  }

  override dispose(): void {
    if (this.isDisposed) return;
    this.ready = false;
    this.closed.fire();
    super.dispose();
    this.panel.dispose();
  }
}
