import * as vscode from 'vscode';
import type { BaseAgent } from '../../core/client';
import { AGENT_ORDERINGS, orderingLabel, type AgentFilter } from '../../core/filters/agentFilter';
import { CancelledError } from '../util/errors';
import type { AgentsView } from './agentsView';

/** Search: the service's `search` (name, ID, engine, creator, tags, version IDs; case-insensitive). */
export async function searchAgents(view: AgentsView): Promise<void> {
  const value = await vscode.window.showInputBox({
    title: 'Search Agents',
    prompt: 'Matches name, ID, engine, creator, tags or version IDs (case-insensitive). Leave empty to show all.',
    value: view.filter.search ?? '',
  });
  if (value === undefined) throw new CancelledError();
  await view.setFilter({ ...view.filter, search: value.trim() || undefined });
}

type MenuItem = vscode.QuickPickItem & { run: () => Promise<AgentFilter | undefined> };

/** The filter menu: engines to include or exclude, tags, ordering, job statistics, clear. */
export async function filterAgents(view: AgentsView): Promise<void> {
  const agents = await view.ensureAgents();
  const f = view.filter;
  const items: MenuItem[] = [
    { label: '$(search) Search…', description: f.search ?? '', run: async () => {
      await searchAgents(view);
      return undefined;
    } },
    { label: '$(server-process) Engine…', description: f.engines?.join(', ') ?? 'any', run: async () => ({ ...f, engines: await pickEngines(agents, f.engines, 'Show only agents of these engines') }) },
    { label: '$(exclude) Exclude Engine…', description: f.excludeEngines?.join(', ') ?? 'none', run: async () => ({ ...f, excludeEngines: await pickEngines(agents, f.excludeEngines, 'Hide agents of this engine', false) }) },
    { label: '$(tag) Tags…', description: f.tags?.map((t) => t.name).join(', ') ?? 'any', run: async () => ({ ...f, tags: await pickTags(agents, f.tags) }) },
    { label: '$(list-ordered) Sort By…', description: f.ordering ? orderingLabel(f.ordering) : 'service default', run: async () => ({ ...f, ordering: await pickOrdering(f.ordering) }) },
    {
      label: f.skipJobStats ? '$(graph) Show Job Statistics' : '$(zap) Skip Job Statistics (faster)',
      description: f.skipJobStats ? 'job count and last job are hidden' : 'job count and last job are shown',
      run: () => Promise.resolve({ ...f, skipJobStats: !f.skipJobStats }),
    },
    {
      label: f.hideTrials ? '$(beaker) Show Trial Agents' : '$(beaker) Hide Trial Agents',
      description: f.hideTrials ? 'trial copies (Try This Edit, Try This Draft) are hidden' : 'trial copies (Try This Edit, Try This Draft) are shown, marked “trial”',
      run: () => Promise.resolve({ ...f, hideTrials: !f.hideTrials }),
    },
    { label: '$(clear-all) Clear Filter', run: () => Promise.resolve({}) },
  ];
  const pick = await vscode.window.showQuickPick(items, { title: 'Filter Agents', placeHolder: 'Choose what to change' });
  if (!pick) throw new CancelledError();
  const next = await pick.run();
  if (next) await view.setFilter(clean(next));
}

function clean(f: AgentFilter): AgentFilter {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0)));
}

async function pickEngines(agents: readonly BaseAgent[], current: string[] | undefined, title: string, many = true): Promise<string[] | undefined> {
  const engines = new Map<string, string>();
  for (const a of agents) engines.set(a.engine_class_id, a.engine_name ?? a.engine_class_id);
  for (const id of current ?? []) if (!engines.has(id)) engines.set(id, id);
  const other = { label: '$(edit) Other engine ID…', id: '' };
  const items = [...engines].map(([id, name]) => ({ label: name, description: id, id, picked: current?.includes(id) ?? false }));
  if (many) {
    const picked = await vscode.window.showQuickPick([...items, other], { title, canPickMany: true, placeHolder: 'Engines seen in the loaded agents; none = any' });
    if (!picked) throw new CancelledError();
    const ids = picked.filter((p) => p.id).map((p) => p.id);
    if (picked.includes(other)) ids.push(await askEngineId());
    return ids.length ? ids : undefined;
  }
  const none = { label: '$(close) No exclusion', id: '' };
  const picked = await vscode.window.showQuickPick([none, ...items, other], { title });
  if (!picked) throw new CancelledError();
  if (picked === other) return [await askEngineId()];
  return picked.id ? [picked.id] : undefined;
}

async function askEngineId(): Promise<string> {
  const id = await vscode.window.showInputBox({
    title: 'Engine ID',
    prompt: 'The engine class ID (at most 200 characters)',
    validateInput: (v) => (!v.trim() ? 'Enter an engine ID' : v.length > 200 ? 'At most 200 characters' : undefined),
  });
  if (id === undefined) throw new CancelledError();
  return id.trim();
}

async function pickTags(agents: readonly BaseAgent[], current: AgentFilter['tags']): Promise<AgentFilter['tags']> {
  const tags = new Map<string, string>();
  for (const a of agents) for (const t of tagEntries(a.tags)) tags.set(t.id, t.name);
  for (const t of current ?? []) tags.set(t.id, t.name);
  const items = [...tags].map(([id, name]) => ({ label: name, description: id === name ? '' : id, id, picked: current?.some((t) => t.id === id) ?? false }));
  if (!items.length) {
    void vscode.window.showInformationMessage('None of the loaded agents has tags.');
    throw new CancelledError();
  }
  const picked = await vscode.window.showQuickPick(items, { title: 'Show only agents with these tags', canPickMany: true });
  if (!picked) throw new CancelledError();
  return picked.length ? picked.map((p) => ({ id: p.id, name: p.label })) : undefined;
}

/** Tags in any of the three forms the service sends, as id + name. */
function tagEntries(tags: BaseAgent['tags']): { id: string; name: string }[] {
  if (!tags) return [];
  if (typeof tags === 'string') return tags.split(',').map((t) => t.trim()).filter(Boolean).map((t) => ({ id: t, name: t }));
  return tags.map((t) => (typeof t === 'string' ? { id: t, name: t } : { id: String(t.id ?? t.name), name: String(t.name ?? t.id) }));
}

async function pickOrdering(current: string | undefined): Promise<string | undefined> {
  const items = [{ label: 'Service default', value: '' }, ...AGENT_ORDERINGS.flatMap((o) => [o, `-${o}`]).map((o) => ({ label: orderingLabel(o), description: o, value: o, picked: o === current }))];
  const picked = await vscode.window.showQuickPick(items, { title: 'Sort Agents By' });
  if (!picked) throw new CancelledError();
  return picked.value || undefined;
}
