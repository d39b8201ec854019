import type * as vscode from 'vscode';

/** Owns disposables: everything registered here is disposed with the owner, newest first. */
export class Disposable implements vscode.Disposable {
  private readonly owned: vscode.Disposable[] = [];
  private disposed = false;

  protected register<T extends vscode.Disposable>(value: T): T {
    if (this.disposed) value.dispose();
    else this.owned.push(value);
    return value;
  }

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    while (this.owned.length) {
      try {
        this.owned.pop()?.dispose();
      } catch {
        // One failing dispose must not keep the rest alive.
      }
    }
  }
}
