import * as vscode from 'vscode';
import type { EngineType, Model } from '../../core/client';
import { agentNameProblem } from '../../core/limits';
import { loadCore } from '../lazyCore';
import { CancelledError } from '../util/errors';
import type { AgentsView } from './agentsView';
import type { VersionDrafts } from './versionDrafts';

/** Answers New Agent… can be given instead of asked (scripts and tests). */
export interface NewAgentAnswers {
  name?: string;
  /** An `engine_class_id` the service lists. */
  engine?: string;
  /** A model id; '' keeps the engine's default. */
  model?: string;
}

type Engine = EngineType & { engine_class_id: string };

/**
 * New Agent…: the engine from the service's engine list (with its description and default config),
 * the model from its model list, a name; then a draft of the agent and its first version opens, with
 * the same schema completion as Create Version. Saving the draft creates the agent.
 */
export async function newAgent(view: AgentsView, drafts: VersionDrafts, answers: NewAgentAnswers = {}): Promise<vscode.Uri> {
  const client = view.client();
  const [engines, models] = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Reading engines and models…' }, () =>
    Promise.all([client.agents.engineTypes(), client.agents.models().then((m) => m.models, () => [] as Model[])]),
  );
  const engine = await chooseEngine(enginesOf(engines), answers.engine);
  const model = answers.model ?? (await chooseModel(models, engine));
  const name = answers.name ?? (await vscode.window.showInputBox({ title: 'New Agent (3/3): name', prompt: 'Name of the agent (1–200 characters)', validateInput: agentNameProblem }));
  if (name === undefined) throw new CancelledError();
  const problem = agentNameProblem(name);
  if (problem) throw new Error(`No agent drafted: ${problem}.`);
  return drafts.openNewAgent(loadCore().newAgentDraft(name.trim(), engine, model || undefined));
}

/** The engines with an id to create agents with: the detailed list, else the bare ids. */
function enginesOf(list: { engine_types: string[]; engines: EngineType[] }): Engine[] {
  const detailed = list.engines.flatMap((e) => {
    const id = e.engine_class_id ?? e.id;
    return id ? [{ ...e, engine_class_id: id }] : [];
  });
  const known = new Set(detailed.map((e) => e.engine_class_id));
  return [...detailed, ...list.engine_types.filter((id) => !known.has(id)).map((id) => ({ engine_class_id: id }))];
}

async function chooseEngine(engines: Engine[], given: string | undefined): Promise<Engine> {
  if (!engines.length) throw new Error('The service lists no engines, so no agent can be created here.');
  if (given !== undefined) {
    const engine = engines.find((e) => e.engine_class_id === given);
    if (!engine) throw new Error(`The service has no engine “${given}”. It has: ${engines.map((e) => e.engine_class_id).join(', ')}.`);
    return engine;
  }
  const pick = await vscode.window.showQuickPick(
    engines.map((engine) => ({ label: engine.name || engine.engine_class_id, description: engine.name ? engine.engine_class_id : '', detail: [engine.description, configText(engine.default_engine_config)].filter(Boolean).join(' — '), engine })),
    { title: 'New Agent (1/3): engine', placeHolder: 'The engine that runs the agent', matchOnDescription: true, matchOnDetail: true },
  );
  if (!pick) throw new CancelledError();
  return pick.engine;
}

async function chooseModel(models: Model[], engine: Engine): Promise<string> {
  const defaults = engine.default_engine_config as { model?: unknown } | undefined;
  const fallback = typeof defaults?.model === 'string' ? defaults.model : undefined;
  const keep = { label: fallback ? `Engine default (${fallback})` : 'No model setting', description: 'keep the engine’s default config', id: '' };
  const items = [keep, ...models.map((m) => ({ label: m.id, description: [m.providers?.join(', '), m.context_window ? `${m.context_window.toLocaleString('en-US')} tokens` : ''].filter(Boolean).join(' · '), id: m.id }))];
  const pick = await vscode.window.showQuickPick(items, { title: 'New Agent (2/3): model', placeHolder: 'The model the engine uses (engine_config.model)', matchOnDescription: true });
  if (!pick) throw new CancelledError();
  return pick.id;
}

/** "default config: model=…, temperature=…" on one line. */
function configText(config: unknown): string {
  if (!config || typeof config !== 'object') return '';
  const pairs = Object.entries(config as Record<string, unknown>).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return pairs.length ? `default config: ${pairs.join(', ').slice(0, 200)}` : '';
}
