import type * as vscode from 'vscode';
import { registerCommand } from '../commands/commandRunner';
import { TreeCommands } from '../constants';
import type { Log } from '../log';
import type { ErrorNode, LoadMoreNode } from './messageNodes';

/** The commands behind the message nodes every tree shares (Retry and Load more). */
export function registerTreeCommands(log: Log): vscode.Disposable[] {
  return [
    registerCommand(log, TreeCommands.retry, (node: ErrorNode) => node.retry()),
    registerCommand(log, TreeCommands.loadMore, (node: LoadMoreNode) => node.loadMore()),
  ];
}
