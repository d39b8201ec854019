// Helpers of the integration suite: the extension's test API, a sandbox per suite, and waiting.
import * as assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentWorkbenchApi } from '../../../src/extension/extension';
import { ServiceClient } from '../../../src/core/client';
import { FaultAdminClient } from '../../../src/sandbox/faults/adminClient';
import type { TreeNode } from '../../../src/extension/tree/treeNode';
import type { AgentNode, VersionNode, VersionsNode } from '../../../src/extension/agents/agentNodes';
import type { JobNode, JobsNode } from '../../../src/extension/agents/jobNodes';
import type { DatasetFileNode, DatasetNode } from '../../../src/extension/datasets/datasetNodes';
import type { ColumnNode, TableNode } from '../../../src/extension/tables/tableNodes';
import type { PolicyNode, PolicyVersionNode } from '../../../src/extension/policies/policyNodes';
import type { EmptyNode, ErrorNode, LoadMoreNode } from '../../../src/extension/tree/messageNodes';

export const EXTENSION_ID = 'agent-workbench.agent-workbench';

/** The activated extension's parts (the harness sets AGENT_WORKBENCH_TEST_API=1). */
export async function workbench(): Promise<AgentWorkbenchApi> {
  const extension = vscode.extensions.getExtension<AgentWorkbenchApi | undefined>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not installed`);
  const api = await extension.activate();
  assert.ok(api, 'the extension did not return its test API: is AGENT_WORKBENCH_TEST_API=1 set in the extension host?');
  return api;
}

export interface TestSandbox {
  baseUrl: string;
  organizationId: string;
  token: string;
  process: ChildProcess;
  /** Switches the sandbox's fault mode (through its admin endpoint). */
  faults: FaultAdminClient;
  /**
   * A client of the sandbox without the write gate (made once, closed with the sandbox): what another
   * person or program did, for a test's own set-up and checks. The extension's client writes only what
   * the user picked, so a test never sets data up through it.
   */
  client(): ServiceClient;
  stop(): Promise<void>;
}

/** Starts the extension's own bundled sandbox (dist/sandbox.js) in memory, with fast job steps. */
export async function startSandbox(extraArgs: string[] = []): Promise<TestSandbox> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension);
  const script = path.join(extension.extensionPath, 'dist', 'sandbox.js');
  const child = fork(script, ['--port', '0', '--memory', '--seed', 'demo', '--job-step-ms', '300', ...extraArgs], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const ready = await new Promise<{ baseUrl: string; organizationId: string; token: string; adminSecret: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sandbox not ready in 30 s: ${stderr}`)), 30_000);
    child.on('message', (m: { type?: string; baseUrl: string; organizationId: string; token: string; adminSecret: string }) => {
      if (m?.type !== 'ready') return;
      clearTimeout(timer);
      resolve(m);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited (${code}): ${stderr}`));
    });
  });
  let seed: ServiceClient | undefined;
  return {
    ...ready,
    faults: new FaultAdminClient(ready.baseUrl, ready.adminSecret),
    process: child,
    client: () => (seed ??= new ServiceClient({ baseUrl: ready.baseUrl, token: ready.token, organizationId: ready.organizationId })),
    stop: async () => {
      await seed?.close();
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    },
  };
}

/**
 * Closes every editor, reverting the ones with unsaved changes first: closing a changed editor asks
 * whether to save it, and in a test window nobody answers, so an after hook would wait forever.
 */
export async function closeAllEditors(): Promise<void> {
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      if (!tab.isDirty || !(tab.input instanceof vscode.TabInputText)) continue;
      await vscode.window.showTextDocument(tab.input.uri, { viewColumn: group.viewColumn, preserveFocus: false, preview: false });
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/**
 * For a suite: a demo sandbox started and signed in to before its tests, every editor closed and the
 * sandbox stopped after them. Returns a getter for the sandbox.
 */
export function useConnectedSandbox(): () => TestSandbox {
  let sandbox: TestSandbox | undefined;
  before(async () => {
    sandbox = await startSandbox();
    await connect(sandbox);
  });
  after(async () => {
    await closeAllEditors();
    await sandbox?.stop();
  });
  return () => {
    assert.ok(sandbox, 'the sandbox has not started');
    return sandbox;
  };
}

/** Signs the extension in to a sandbox the way a script would (same checks as the Sign In command). */
export async function connect(sandbox: { baseUrl: string; organizationId: string; token: string }): Promise<void> {
  await vscode.commands.executeCommand('agentWorkbench.signIn', { baseUrl: sandbox.baseUrl, organizationId: sandbox.organizationId, token: sandbox.token });
  const api = await workbench();
  await waitFor(() => api.connection.state.kind === 'connected' && api.connection.state.info.baseUrl === sandbox.baseUrl, 'the connection');
}

/** The children of a node of the Agents view (the root when none), exactly as VS Code asks for them. */
export async function agentChildren(node?: TreeNode): Promise<TreeNode[]> {
  const api = await workbench();
  return (await api.agents.provider.getChildren(node)) ?? [];
}

/** The label and description VS Code shows for a node. */
export function itemText(node: TreeNode): { label: string; description: string; contextValue: string; icon: string } {
  const item = node.getTreeItem();
  const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
  const icon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : '';
  return { label, description: String(item.description ?? ''), contextValue: item.contextValue ?? '', icon };
}

/** The errors the extension logs while `act` runs (each message as logged). */
export async function errorsLogged(act: () => Thenable<unknown>): Promise<string[]> {
  const api = await workbench();
  const errors: string[] = [];
  const log = api.log;
  const original = log.error.bind(log);
  log.error = (message: string, error?: unknown) => {
    errors.push(message);
    original(message, error);
  };
  try {
    await act();
  } finally {
    delete (log as Partial<typeof log>).error;
  }
  return errors;
}

/** Polls until `check` returns something truthy (bounded); fails with what it was waiting for. */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 15_000): Promise<Exclude<T, false | 0 | '' | null | undefined>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as Exclude<T, false | 0 | '' | null | undefined>;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}${last ? ` (last error: ${last instanceof Error ? last.message : JSON.stringify(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Sets a setting of ours for the test and returns a function that puts it back. */
export async function withSetting(key: string, value: unknown): Promise<() => Promise<void>> {
  const config = vscode.workspace.getConfiguration('agentWorkbench');
  const before = config.inspect(key)?.globalValue;
  await config.update(key, value, vscode.ConfigurationTarget.Global);
  return () => Promise.resolve(vscode.workspace.getConfiguration('agentWorkbench').update(key, before, vscode.ConfigurationTarget.Global));
}

/** Node kinds of our trees. Tests compare `kind`, not classes: the test bundle has its own copies of the classes. */
interface NodeKinds {
  agent: AgentNode;
  agentVersions: VersionsNode;
  agentVersion: VersionNode;
  agentJobs: JobsNode;
  job: JobNode;
  error: ErrorNode;
  empty: EmptyNode;
  loadMore: LoadMoreNode;
  policy: PolicyNode;
  policyVersion: PolicyVersionNode;
  dataset: DatasetNode;
  datasetFile: DatasetFileNode;
  table: TableNode;
  tableColumn: ColumnNode;
}

/** True when a tree node is of the given kind. */
export function is<K extends keyof NodeKinds>(node: unknown, kind: K): node is NodeKinds[K] {
  return (node as TreeNode | undefined)?.kind === kind;
}
