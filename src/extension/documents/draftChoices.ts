import * as vscode from 'vscode';
import type { Model, Policy } from '../../core/client';
import type { Connection } from '../connection/connection';
import { loadCore } from '../lazyCore';
import { Disposable } from '../util/disposable';

/** How many policies the completion lists (a first page's worth; the rest are found in the Policies view). */
const POLICY_LIMIT = 200;

/**
 * Completion of an agent draft's `engine_config.policy_id` (the organization's policies by name,
 * inserting the id) and `engine_config.model` (the service's model list). The lists are read when
 * first asked for, and again after a connection change.
 */
export class DraftChoices extends Disposable implements vscode.CompletionItemProvider {
  private lists: Promise<{ policies: Policy[]; models: Model[] }> | undefined;

  constructor(private readonly connection: Connection, isDraft: (uri: vscode.Uri) => boolean) {
    super();
    this.register(connection.onDidChange(() => (this.lists = undefined)));
    this.register(vscode.languages.registerCompletionItemProvider({ language: 'agent-workbench-json' }, {
      provideCompletionItems: (document, position) => (isDraft(document.uri) ? this.provideCompletionItems(document, position) : undefined),
    }, '"'));
  }

  async provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionItem[] | undefined> {
    const text = document.getText();
    const field = loadCore().draftChoiceAt(text, document.offsetAt(position));
    if (!field) return undefined;
    const lists = await this.read();
    const range = valueRange(document, position);
    const items = field === 'policy_id'
      ? lists.policies.map((p) => item(p.name || p.id, p.id, p.description ?? undefined, range))
      : lists.models.map((m) => item(m.id, m.id, m.providers?.join(', '), range));
    return items;
  }

  private read(): Promise<{ policies: Policy[]; models: Model[] }> {
    this.lists ??= (async () => {
      const client = this.connection.requireClient();
      const [policies, models] = await Promise.all([
        client.policies.list({ page_size: POLICY_LIMIT }).then((page) => page.results, () => [] as Policy[]),
        client.agents.models().then((list) => list.models, () => [] as Model[]),
      ]);
      return { policies, models };
    })().catch((error: unknown) => {
      this.lists = undefined; // not connected: asked again next time
      throw error;
    });
    return this.lists;
  }
}

/** A choice: shown by name, inserting the value as a JSON string (replacing the string being typed). */
function item(label: string, value: string, detail: string | undefined, range: vscode.Range | undefined): vscode.CompletionItem {
  const completion = new vscode.CompletionItem({ label, description: label === value ? undefined : value }, vscode.CompletionItemKind.Value);
  completion.insertText = JSON.stringify(value);
  completion.filterText = `"${label} ${value}"`;
  if (detail) completion.detail = detail;
  if (range) completion.range = range;
  return completion;
}

/** The string value around the cursor, quotes included, when the cursor is in one. */
function valueRange(document: vscode.TextDocument, position: vscode.Position): vscode.Range | undefined {
  const line = document.lineAt(position.line).text;
  const before = line.lastIndexOf('"', position.character - 1);
  const after = line.indexOf('"', position.character);
  if (before < 0 || after < 0 || line.slice(0, before).trimEnd().at(-1) !== ':') return undefined;
  return new vscode.Range(position.line, before, position.line, after + 1);
}
