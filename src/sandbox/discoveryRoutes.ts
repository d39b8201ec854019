/** Engines, models and the signed-in user (the service's "Discovery and account"). */
import { optionalOrganization } from './access';
import { type Handler, ok } from './context';
import { ENGINES, engineTypeObject } from './engines';
import { HttpError, notFound } from './http/errors';
import type { Router } from './http/router';

interface ModelInfo {
  id: string;
  providers: string[];
  capabilities: string[];
  context_window: number;
  max_output_tokens: number;
  supports_reasoning_effort: boolean;
}

/** The model ids the sandbox accepts in `engine_config.model` (every one reads text). */
export const MODELS: readonly ModelInfo[] = [
  { id: 'gpt-4o', providers: ['openai', 'azure'], capabilities: ['text', 'image'], context_window: 128_000, max_output_tokens: 16_384, supports_reasoning_effort: false },
  { id: 'gpt-4o-mini', providers: ['openai', 'azure'], capabilities: ['text', 'image'], context_window: 128_000, max_output_tokens: 16_384, supports_reasoning_effort: false },
  { id: 'gemini-2.0-flash', providers: ['google'], capabilities: ['text', 'image', 'audio', 'video'], context_window: 1_048_576, max_output_tokens: 8_192, supports_reasoning_effort: false },
  { id: 'claude-3-5-sonnet', providers: ['anthropic', 'bedrock'], capabilities: ['text', 'image'], context_window: 200_000, max_output_tokens: 8_192, supports_reasoning_effort: false },
  { id: 'o3-mini', providers: ['openai'], capabilities: ['text'], context_window: 200_000, max_output_tokens: 100_000, supports_reasoning_effort: true },
];

const CAPABILITIES = ['image', 'audio', 'video'] as const;

/** GET /v1/agents/types/: the engines a new agent may use. */
const engineTypes: Handler = (ctx) => {
  optionalOrganization(ctx);
  return ok({ engine_types: ENGINES.map((e) => e.id), total_count: ENGINES.length, engines: ENGINES.map(engineTypeObject) });
};

/** GET /v1/agents/models/?capability=image|audio|video: text models, narrowed to those that also take that input. */
const models: Handler = (ctx) => {
  optionalOrganization(ctx);
  const capability = ctx.url.searchParams.get('capability');
  if (capability !== null && capability !== '' && !(CAPABILITIES as readonly string[]).includes(capability)) {
    throw new HttpError(400, { capability: [`Select a valid choice. ${capability} is not one of the available choices.`] });
  }
  const list = MODELS.filter((m) => !capability || m.capabilities.includes(capability)).map((m) => ({
    ...m, supports_system_message: true, supports_temperature: !m.supports_reasoning_effort, supports_json_output: true, supports_json_schema: true,
  }));
  return ok({ models: list, total_count: list.length, tenant_scope: 'all_tenants' });
};

interface UserRow {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  is_active: number;
}

/** GET /v1/users/current_user/: who the token belongs to (no organization needed). */
const currentUser: Handler = (ctx) => {
  const user = ctx.app.db.get<UserRow>('SELECT id, email, first_name, last_name, is_active FROM users WHERE id = ?', [ctx.user.id]);
  if (!user) throw notFound();
  // The sandbox keeps no join date: a user joined when the first of their organizations was made.
  const joined = ctx.app.db.get<{ ms: number | null }>(
    'SELECT MIN(o.created_ms) AS ms FROM memberships m JOIN organizations o ON o.id = m.org_id WHERE m.user_id = ?', [user.id]);
  return ok({
    id: user.id, email: user.email, first_name: user.first_name, last_name: user.last_name,
    display_name: `${user.first_name} ${user.last_name}`.trim() || user.email,
    date_joined: new Date(joined?.ms ?? ctx.app.now()).toISOString(),
    is_staff: false, is_superuser: false, is_active: user.is_active === 1,
  });
};

/** Registers the discovery and account routes. */
export function registerDiscoveryRoutes(router: Router<Handler>): void {
  router.add('GET', '/v1/agents/types/', engineTypes).add('GET', '/v1/agents/models/', models).add('GET', '/v1/users/current_user/', currentUser);
}
