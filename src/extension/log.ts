import * as vscode from 'vscode';
import { redact } from '../core/redact';

/**
 * The extension's log (a LogOutputChannel, so the user picks the level). Every line passes through
 * `redact`, so a token that reached a message by accident is still never written.
 */
export class Log implements vscode.Disposable {
  private readonly channel = vscode.window.createOutputChannel('Agent Workbench', { log: true });
  private readonly secrets = new Set<string>();

  /** Remembers a secret so that it is masked wherever it would appear in the log. */
  addSecret(secret: string | undefined): void {
    if (secret) this.secrets.add(secret);
  }

  info(message: string): void {
    this.channel.info(this.clean(message));
  }
  warn(message: string): void {
    this.channel.warn(this.clean(message));
  }
  error(message: string, error?: unknown): void {
    const detail = error instanceof Error ? `${error.message}${error.stack ? `\n${error.stack}` : ''}` : error === undefined ? '' : thrownText(error);
    this.channel.error(this.clean(detail ? `${message}: ${detail}` : message));
  }
  debug(message: string): void {
    this.channel.debug(this.clean(message));
  }
  trace(message: string): void {
    this.channel.trace(this.clean(message));
  }

  /** The text with every known secret masked (for anything shown to people). */
  redact(text: string): string {
    return this.clean(text);
  }

  show(): void {
    this.channel.show(true);
  }

  private clean(text: string): string {
    return redact(text, this.secrets);
  }

  dispose(): void {
    this.channel.dispose();
  }
}

/** Text of a thrown value that is not an Error (a string, a plain object…), never "[object Object]". */
function thrownText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value; // a bigint or a cycle
  }
}
