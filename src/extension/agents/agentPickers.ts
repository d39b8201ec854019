import * as vscode from 'vscode';
import type { AgentVersion, BaseAgent } from '../../core/client';
import { relativeTime } from '../../core/format';
import { CancelledError, messageOf } from '../util/errors';
import type { AgentsView } from './agentsView';

/**
 * A quick pick of agents for commands run from the palette: the loaded agents at once, and the
 * service's search as the user types (so agents beyond the first page can be found too).
 */
export async function pickAgent(view: AgentsView, title: string): Promise<BaseAgent> {
  type Item = vscode.QuickPickItem & { agent?: BaseAgent; retry?: true };
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = title;
  const placeholder = 'Type to search all agents';
  qp.placeholder = placeholder;
  qp.matchOnDescription = true;
  const toItems = (agents: readonly BaseAgent[]): Item[] => agents.map((agent) => ({ label: agent.name, description: agent.engine_name ?? agent.engine_class_id, detail: agent.id, agent }));
  qp.busy = true;
  let search = 0;
  const load = async (text: string): Promise<void> => {
    const mine = ++search;
    qp.busy = true;
    try {
      const agents = text ? (await view.client().agents.list({ search: text, page_size: 50, include_job_stats: false })).results : await view.ensureAgents();
      if (mine !== search) return;
      qp.items = agents.length ? toItems(agents) : [{ label: text ? `No agent matches “${text}”` : 'No agents in this organization yet', alwaysShow: true }];
      qp.placeholder = placeholder;
    } catch (error) {
      // Never an empty list with no word: say why, and offer to read again.
      if (mine !== search) return;
      qp.placeholder = `The agents could not be read: ${messageOf(error)}`;
      qp.items = [{ label: '$(refresh) Retry', description: 'read the agents again', detail: messageOf(error), alwaysShow: true, retry: true }];
    } finally {
      if (mine === search) qp.busy = false;
    }
  };
  let timer: NodeJS.Timeout | undefined;
  qp.onDidChangeValue((text) => {
    clearTimeout(timer);
    timer = setTimeout(() => void load(text.trim()), 250);
  });
  void load('');
  return new Promise<BaseAgent>((resolve, reject) => {
    qp.onDidAccept(() => {
      const item = qp.selectedItems[0];
      if (item?.retry) void load(qp.value.trim());
      if (!item?.agent) return;
      resolve(item.agent);
      qp.hide();
    });
    qp.onDidHide(() => {
      clearTimeout(timer);
      qp.dispose();
      reject(new CancelledError());
    });
    qp.show();
  });
}

/** A quick pick of one agent's versions, newest first, the current one marked. */
export async function pickVersion(view: AgentsView, agent: BaseAgent, title: string, exclude?: string): Promise<AgentVersion> {
  const versions = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Loading versions…' }, () => view.client().agents.listVersions(agent.id));
  const items = [...versions]
    .filter((v) => v.id !== exclude)
    .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))
    .map((v) => ({ label: v.version_name, description: [v.id === agent.current_version_id ? 'current' : '', relativeTime(v.created_at)].filter(Boolean).join(' · '), detail: v.description ?? undefined, version: v }));
  if (!items.length) throw new Error(`${agent.name} has no ${exclude ? 'other ' : ''}versions.`);
  const pick = await vscode.window.showQuickPick(items, { title, matchOnDescription: true, matchOnDetail: true });
  if (!pick) throw new CancelledError();
  return pick.version;
}
