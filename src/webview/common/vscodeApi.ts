// The one declaration of what VS Code gives a webview page.

/** A page's link to the extension: messages out, and the state VS Code keeps while the page is hidden. */
export interface VsCodeApi<Message> {
  postMessage(message: Message): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi<unknown>;

/** The page's handle on VS Code; VS Code hands it out once per page, so each page calls this once. */
export function vscodeApi<Message>(): VsCodeApi<Message> {
  return acquireVsCodeApi();
}
