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
  // The reference: the same request on the same text as plain text, where only VS Code's own providers answer.
  const reference = await vscode.workspace.openTextDocument({ language: 'plaintext', content: args.text });
  const samples: number[][] = args.offsets.map(() => []);
  const referenceSamples: number[][] = args.offsets.map(() => []);
  const items: number[] = [];
  const time = async (doc: vscode.TextDocument, offset: number): Promise<{ ms: number; items: number }> => {
    const started = performance.now();
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, doc.positionAt(offset));
    return { ms: performance.now() - started, items: list.items.length };
  };
  for (let run = 0; run < args.warmUp + args.runs; run++) {
    for (const [i, offset] of args.offsets.entries()) {
      // Alternating which goes first keeps a drift of the machine from favouring one side.
      let ours: { ms: number; items: number };
      let plain: { ms: number; items: number };
      if (run % 2 === 0) {
        ours = await time(document, offset);
        plain = await time(reference, offset);
      } else {
        plain = await time(reference, offset);
        ours = await time(document, offset);
      }
      if (run >= args.warmUp) {
        samples[i]!.push(ours.ms);
        referenceSamples[i]!.push(plain.ms);
      }
      if (run === 0) items.push(ours.items);
    }
  }
  return { samples, referenceSamples, items, tables: catalog.size };
}
