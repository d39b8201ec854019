// SQL completion as VS Code runs it: the extension's completion provider through
// vscode.executeCompletionItemProvider on a .sql document, with the catalog read from the service.
import * as vscode from 'vscode';
import type { SqlCompletionArgs, SqlCompletionSample } from '../protocol';
import { workbenchApi } from '../workbench';

/** Opens the text as a SQL document and times each completion request at each offset. */
export async function timeSqlCompletion(args: SqlCompletionArgs): Promise<SqlCompletionSample> {
  const api = await workbenchApi();
  // The tables were made just before: read the list again, and wait for it.
  api.tables.reload();
  const catalog = await api.tables.catalog.sqlCatalog();
  if (!catalog) throw new Error('The extension has no table catalog: is it connected?');
  // Never shown in an editor: an untitled document with text would ask to be saved when editors close.
  const document = await vscode.workspace.openTextDocument({ language: 'sql', content: args.text });
  const samples: number[][] = args.offsets.map(() => []);
  const items: number[] = [];
  for (let run = 0; run < args.warmUp + args.runs; run++) {
    for (const [i, offset] of args.offsets.entries()) {
      const started = performance.now();
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, document.positionAt(offset));
      const took = performance.now() - started;
      if (run >= args.warmUp) samples[i]!.push(took);
      if (run === 0) items.push(list.items.length);
    }
  }
  return { samples, items, tables: catalog.size };
}
