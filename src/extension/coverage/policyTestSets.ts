import * as vscode from 'vscode';
import { StateKeys } from '../constants';
import type { Connection } from '../connection/connection';
import { offerTestSet } from '../comparison/testSetFiles';
import { loadCore } from '../lazyCore';
import type { Log } from '../log';
import type { TestPrompts } from '../testing/testPrompts';
import { CancelledError } from '../util/errors';
import { coveragePrompts, type TestSetChoice } from './coveragePrompts';

const TEST_SET_GLOB = '**/*.{testset.jsonl,testset.csv}';
/** The most comparison files read to tell which agents each test set ran on, and the largest one read. */
const MAX_COMPARISONS = 200;
const MAX_COMPARISON_BYTES = 16 * 1024 * 1024;

/**
 * The test set whose rule coverage a policy's editors show: chosen once per policy (test sets run on an
 * agent that applies the policy first, then every other), remembered in the workspace's state by policy
 * id, changed from the editor's header.
 */
export class PolicyTestSets implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<string>();
  /** The test set of a policy (its id) was chosen or changed. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly state: vscode.Memento,
    private readonly connection: Connection,
    private readonly answers: TestPrompts,
    private readonly log: Log,
  ) {}

  /** The test set chosen for a policy, if any. */
  get(policyId: string): vscode.Uri | undefined {
    const chosen = this.state.get<Record<string, string>>(StateKeys.coverageTestSets, {})[policyId];
    return typeof chosen === 'string' ? vscode.Uri.parse(chosen) : undefined;
  }

  /** Remembers a policy's test set. */
  async set(policyId: string, testSet: vscode.Uri): Promise<void> {
    const all = { ...this.state.get<Record<string, string>>(StateKeys.coverageTestSets, {}), [policyId]: testSet.toString() };
    await this.state.update(StateKeys.coverageTestSets, all);
    this.changed.fire(policyId);
  }

  /** Asks which test set a policy's coverage is read from, remembers the answer and returns it. */
  async choose(policyId: string, policyName: string): Promise<vscode.Uri> {
    const choices = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Finding the test sets of this policy…' }, () => this.choices(policyId));
    if (!choices.length) return offerTestSet('Rule coverage', this.connection.state.kind === 'connected' && this.connection.state.info.isSandbox);
    const picked = await coveragePrompts(this.answers).testSet(choices, `Rule coverage of “${policyName}”: which test set?`);
    if (!picked) throw new CancelledError();
    await this.set(policyId, picked);
    return picked;
  }

  /** The workspace's test sets, each said with the agents its comparisons (or its header) name; those that apply the policy first. */
  private async choices(policyId: string): Promise<TestSetChoice[]> {
    const core = loadCore();
    const files = await vscode.workspace.findFiles(TEST_SET_GLOB, '**/node_modules/**', 500);
    const ranOn = await this.agentsOfTestSets();
    const applying = await this.applying(policyId);
    const choices = await Promise.all(files.map(async (uri): Promise<TestSetChoice> => {
      const agents = new Map(ranOn.get(uri.toString()) ?? []);
      const header = core.testSetAgentId(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
      if (header && !agents.has(header)) agents.set(header, applying?.get(header) ?? header);
      const theirs = [...agents.keys()].filter((id) => applying?.has(id)).map((id) => applying!.get(id)!);
      const named = [...agents.values()];
      const description = theirs.length ? `run on ${theirs.join(', ')}` : named.length ? `for ${named.join(', ')}` : 'names no agent';
      return { label: uri.path.split('/').pop() ?? '', description, detail: vscode.workspace.asRelativePath(uri), uri, ours: theirs.length > 0 };
    }));
    return choices.sort((a, b) => Number(b.ours) - Number(a.ours) || a.detail.localeCompare(b.detail));
  }

  /** Agent ids (with names) each test set's comparisons ran on, by the test set's URI. */
  private async agentsOfTestSets(): Promise<Map<string, Map<string, string>>> {
    const core = loadCore();
    const ranOn = new Map<string, Map<string, string>>();
    for (const uri of await vscode.workspace.findFiles('**/*.comparison.json', '**/node_modules/**', MAX_COMPARISONS)) {
      try {
        if ((await vscode.workspace.fs.stat(uri)).size > MAX_COMPARISON_BYTES) continue;
        const record = core.parseComparison(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
        const testSet = vscode.Uri.joinPath(uri, '..', record.testSet).toString();
        const agents = ranOn.get(testSet) ?? new Map<string, string>();
        agents.set(record.agentId, record.agentName ?? record.agentId);
        ranOn.set(testSet, agents);
      } catch {
        // Not a comparison this window can read: it names no agent.
      }
    }
    return ranOn;
  }

  /** The agents applying the policy, by id, when connected (offline every test set is offered alike). */
  private async applying(policyId: string): Promise<Map<string, string> | undefined> {
    if (this.connection.state.kind !== 'connected') return undefined;
    try {
      const found = await loadCore().agentsApplying(this.connection.requireClient(), policyId, AbortSignal.timeout(20_000));
      return new Map(found.map((a) => [a.agent.id, a.agent.name]));
    } catch (error) {
      this.log.warn(`Rule coverage: the agents applying ${policyId} could not be read: ${String(error)}`);
      return undefined;
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}
