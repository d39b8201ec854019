/** A minimal typed event emitter (the core cannot use vscode.EventEmitter). */
import type { Subscription } from './types';

/** Listeners called in subscription order; a throwing listener never stops the others or the caller. */
export class Emitter<Args extends unknown[]> {
  // Stryker disable next-line ArrayDeclaration: a stray item would throw when called, and fire() swallows a listener's throw.
  private listeners: ((...args: Args) => void)[] = [];

  /** Adds a listener; dispose the result to remove it. */
  on(listener: (...args: Args) => void): Subscription {
    // Wrapped so the same function subscribed twice is removed once per dispose.
    const entry = (...args: Args): void => listener(...args);
    this.listeners.push(entry);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== entry)) };
  }

  /** Calls every listener with the arguments. */
  fire(...args: Args): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(...args);
      } catch {
        // A UI listener's bug must not stop polling or the other listeners.
      }
    }
  }

  /** Drops every listener. */
  clear(): void {
    // Stryker disable next-line ArrayDeclaration: as above, a stray item's throw is swallowed by fire().
    this.listeners = [];
  }
}
