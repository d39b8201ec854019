// The one way a page talks to the extension: typed messages out, every message in checked on arrival
// before the page sees it, the state VS Code keeps while the page is hidden, and the ready handshake
// (sent once the page listens, so the extension's first message cannot be missed).
import { vscodeApi, type VsCodeApi } from './vscodeApi';

/** A page's link to the extension (one per page: VS Code hands out its API once). */
export class PageLink<In, Out> {
  private readonly api: VsCodeApi<Out> = vscodeApi<Out>();

  /** `isMessage` checks what arrives; `name` says whose page ignored a stranger's message. */
  constructor(
    private readonly isMessage: (value: unknown) => value is In,
    private readonly name: string,
  ) {}

  /** Sends a message to the extension (which checks it on arrival). */
  send(message: Out): void {
    this.api.postMessage(message);
  }

  /** What VS Code kept for the page while it was hidden (unchecked: the page validates it). */
  getState(): unknown {
    return this.api.getState();
  }

  setState(state: unknown): void {
    this.api.setState(state);
  }

  /** Hands every checked message to `onMessage`, then tells the extension the page is `ready`. */
  start(onMessage: (message: In) => void, ready: Out): void {
    window.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (this.isMessage(event.data)) onMessage(event.data);
      else console.warn(`${this.name}: ignored a message that is not one of ours`);
    });
    this.send(ready);
  }
}
