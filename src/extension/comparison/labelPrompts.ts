import * as vscode from 'vscode';
import type { ComparisonRecord, Expected } from '../core';
import type { Connection } from '../connection/connection';
import { loadCore } from '../lazyCore';
import { CancelledError } from '../util/errors';

/** How long reading the policy's dispositions may take before Set Expected… offers the outcomes it has. */
const POLICY_MS = 8000;

type Choice = vscode.QuickPickItem & { value?: string; other?: true; clear?: true };

/**
 * Set Expected…: on the outcome, a pick of the policy's dispositions (and the outcomes the targets gave),
 * another value, or no expectation; on another output, its value in an input box. Escape labels nothing.
 */
export async function pickExpected(record: ComparisonRecord, caseIndex: number, target: number, key: number, dispositions: () => Promise<string[]>): Promise<Expected | undefined> {
  const core = loadCore();
  const c = record.cases[caseIndex]!;
  const name = core.caseLabel(c);
  if (key > 0) {
    const output = record.keys[key] ?? `output ${key}`;
    const cell = record.targets[target] ? c.runs[record.targets[target].id]?.outputs?.find((o) => o.key === output)?.value : undefined;
    const value = await vscode.window.showInputBox({ title: `Set Expected: ${name}`, prompt: `The value of ${output} this case should give (empty: expect nothing of it)`, value: c.expected?.outputs?.[output] ?? cell ?? '' });
    if (value === undefined) throw new CancelledError();
    return core.expectedWith(c.expected, record.keys, key, value === '' ? undefined : value);
  }
  const quick = vscode.window.createQuickPick<Choice>();
  quick.title = `Set Expected: ${name}`;
  quick.placeholder = `What ${record.keys[0]} should this case give?`;
  quick.busy = true;
  quick.show();
  const offered = (list: readonly string[]): Choice[] => [
    ...core.dispositionChoices(record, caseIndex, list).map((d): Choice => ({
      label: d.value,
      value: d.value,
      description: [
        d.current ? 'expected now' : '',
        d.givenBy.length ? `given by ${d.givenBy.join(', ')}` : '',
        d.reviewed ? 'a reviewer’s correction' : '',
        d.inPolicy ? '' : 'not one of the policy’s dispositions',
      ].filter(Boolean).join(' · '),
    })),
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    { label: 'Another Value…', other: true },
    ...(c.expected ? [{ label: 'No Expectation', description: 'clear the label', clear: true } as Choice] : []),
  ];
  quick.items = offered([]);
  void dispositions().then((list) => {
    quick.items = offered(list);
    quick.busy = false;
  });
  const picked = await new Promise<Choice | undefined>((resolve) => {
    quick.onDidAccept(() => resolve(quick.selectedItems[0]));
    quick.onDidHide(() => resolve(undefined));
  });
  quick.dispose();
  if (!picked) throw new CancelledError();
  if (picked.clear) return core.expectedWith(c.expected, record.keys, 0, undefined);
  const value = picked.other ? await vscode.window.showInputBox({ title: `Set Expected: ${name}`, prompt: `The ${record.keys[0]} this case should give` }) : picked.value;
  if (value === undefined || value.trim() === '') throw new CancelledError();
  return core.expectedWith(c.expected, record.keys, 0, value.trim());
}

/** The comment of a label (optional): Enter with nothing goes without one, Escape labels nothing. */
export async function askNote(caseName: string): Promise<string> {
  const note = await vscode.window.showInputBox({ title: `Label ${caseName}: comment (optional)`, prompt: 'Why this is the right answer, for whoever reviews the test set (Enter to go without one)' });
  if (note === undefined) throw new CancelledError();
  return note;
}

/**
 * The dispositions of the policies the comparison's agents apply (the agent's, and a trial copy's),
 * bounded in time; none when they cannot be read (Set Expected… then offers the outcomes it has).
 */
export async function readDispositions(connection: Connection, record: ComparisonRecord): Promise<string[]> {
  const core = loadCore();
  const signal = AbortSignal.timeout(POLICY_MS);
  const agents = new Set([record.agentId, ...record.targets.flatMap((t) => (t.kind === 'current' && t.agentId ? [t.agentId] : []))]);
  let client;
  try {
    client = connection.requireClient();
  } catch {
    return [];
  }
  const names: string[] = [];
  for (const agentId of agents) names.push(...((await core.agentDispositions(client, agentId, signal)) ?? []));
  return [...new Set(names)];
}
