import * as vscode from 'vscode';
import type { AgentVersion, BaseAgent } from '../../core/client';
import { agentVersionNameProblem } from '../../core/limits';
import { loadCore } from '../lazyCore';
import { CancelledError } from '../util/errors';
import { PICKED_IN, picked, target } from '../util/picked';
import { VersionNode } from './agentNodes';
import { pickAgent, pickVersion } from './agentPickers';
import type { AgentsView } from './agentsView';

/** The version a command acts on: the row it was run on, or an agent and a version the user picks; `how` says which. */
export async function versionOf(view: AgentsView, arg: unknown, title: string, options: { notCurrent?: boolean } = {}): Promise<{ agent: BaseAgent; version: AgentVersion; how: string }> {
  if (arg instanceof VersionNode) return { agent: arg.agent, version: arg.version, how: PICKED_IN.agentsView };
  const agent = await pickAgent(view, `${title}: choose the agent`);
  const current = options.notCurrent ? (agent.current_version_id ?? undefined) : undefined;
  return { agent, version: await pickVersion(view, agent, `${title} of ${agent.name}`, current), how: PICKED_IN.quickPick };
}

/** Rename Version…: the name is checked while typing; the Versions list shows it at once. `how`: where the user picked the version. */
export async function renameVersion(view: AgentsView, agent: BaseAgent, version: AgentVersion, how: string, given?: string): Promise<void> {
  const name =
    given ?? (await vscode.window.showInputBox({ title: `Rename Version ${version.version_name} of ${agent.name}`, value: version.version_name, validateInput: agentVersionNameProblem }));
  if (name === undefined) throw new CancelledError();
  if (name.trim() === version.version_name) return;
  const client = view.client();
  const renamed = await loadCore().renameAgentVersion(client, agent.id, version.id, name, picked(client, target.agent(agent.id), how));
  await view.revealVersion(agent.id, renamed.id);
  vscode.window.setStatusBarMessage(`$(check) Renamed to ${renamed.version_name}`, 4000);
}

/**
 * Delete Version…: never the current version (said before anything is sent); otherwise asks first
 * (modal), then the agent's versions and jobs are read again.
 */
export async function deleteVersion(view: AgentsView, agent: BaseAgent, version: AgentVersion, how: string, confirmed = false): Promise<void> {
  if (agent.current_version_id === version.id) {
    throw new Error(`“${version.version_name}” is the current version of ${agent.name}, which its jobs run: it cannot be deleted. Create or restore another version first.`);
  }
  if (!confirmed) {
    const remove = 'Delete';
    const choice = await vscode.window.showWarningMessage(
      `Delete version “${version.version_name}” of ${agent.name}?`,
      { modal: true, detail: 'The jobs this version ran may be deleted with it. This cannot be undone.' },
      remove,
    );
    if (choice !== remove) throw new CancelledError();
  }
  try {
    const client = view.client();
    const outcome = await loadCore().deleteAgentVersion(client, agent.id, version.id, picked(client, target.agent(agent.id), how));
    if (outcome.warning) void vscode.window.showWarningMessage(outcome.warning);
    else vscode.window.setStatusBarMessage(`$(check) Deleted version ${version.version_name}`, 4000);
  } finally {
    // Deleted, refused or unknown: the list shows what the service now has.
    view.reloadJobs(agent.id);
    await view.revealVersion(agent.id, undefined);
  }
}
