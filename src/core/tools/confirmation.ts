/**
 * One confirmation for paid and changing work, bound to its plan. Where the client can ask the user
 * (MCP elicitation), the user is always asked, and a "no" stands for that plan for a few minutes. Where
 * it cannot, the first call answers the plan with a one-time confirmation id bound to the tool, the exact
 * input and the plan; only a second call with that id and the same input runs it, once, if the plan is
 * still the same. Nothing a model writes into an input (a `confirm: true`, a job's output repeated)
 * replaces either: a model that was told to go ahead still has to show the plan.
 */
import { createHash, randomBytes } from 'node:crypto';
import type * as z from 'zod';
import type { DeclinedAnswerSchema, PlanAnswerSchema } from './answerSchemas';
import { callTool, errorResult, parseToolInput, planTool, type ToolResult } from './catalogue';
import { ToolRefusal, type AnyTool, type ConfirmedPlan, type ToolContext, type ToolPlan } from './toolTypes';

/** The input field of the second call (MCP only; VS Code asks the user itself). */
export const CONFIRMATION_ID = 'confirmation_id';
/** How long a confirmation id may be used. */
export const CONFIRMATION_TTL_MS = 5 * 60_000;
/** How long a declined plan is refused without asking again. */
export const DECLINE_STANDS_MS = 5 * 60_000;
/** Ids and declines kept per session at most (the oldest go first). */
const MAX_KEPT = 200;

/** What the user answered when asked: agreed, said no, or dismissed the question. */
export type UserAnswer = 'accept' | 'decline' | 'cancel';
/** Asks the user about a plan (MCP elicitation). */
export type AskUser = (tool: AnyTool, plan: ToolPlan, signal: AbortSignal) => Promise<UserAnswer>;

interface Issued {
  tool: string;
  input: string;
  plan: string;
  expires: number;
  used: boolean;
}

/** JSON with object keys sorted at every level: the same value always gives the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v));
}

function digest(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('base64url');
}

/** What a confirmation is bound to of a plan: its jobs and data, an estimate by its job count only (its figures move as other jobs finish). */
export function planBinding(plan: ToolPlan): string {
  const { estimate, ...rest } = plan.data;
  const jobs = (estimate as { jobs?: unknown } | undefined)?.jobs;
  return digest({ jobs: plan.jobs, data: estimate === undefined ? rest : { ...rest, estimate: { jobs } } });
}

/** What a confirmation is bound to of a call: the tool and its checked input (the confirmation id left out). */
export function inputBinding(tool: AnyTool, input: unknown): string {
  const { [CONFIRMATION_ID]: _id, ...rest } = (input ?? {}) as Record<string, unknown>;
  return digest({ tool: tool.name, input: rest });
}

/** A tool's MCP input schema with the confirmation id added (paid and changing tools). */
export function withConfirmationId(tool: AnyTool, schema: Record<string, unknown>): Record<string, unknown> {
  if (tool.kind === 'read') return schema;
  const description = `Leave out on the first call: it answers the plan (jobs, estimate, what changes) and a ${CONFIRMATION_ID}. Show the plan to the user; once they agree, call again with the same input and that ${CONFIRMATION_ID} (it runs that plan once, within ${CONFIRMATION_TTL_MS / 60_000} minutes). Not needed where the server asks the user itself.`;
  return { ...schema, properties: { ...(schema.properties as Record<string, unknown> | undefined), [CONFIRMATION_ID]: { type: 'string', maxLength: 100, description } } };
}

/** The confirmation id a call carries, if any (anything but a string is refused). */
function idOf(raw: unknown): string | undefined {
  const id = (raw as Record<string, unknown> | undefined)?.[CONFIRMATION_ID];
  if (id === undefined) return undefined;
  if (typeof id !== 'string' || id.length > 100) throw new ToolRefusal(`\`${CONFIRMATION_ID}\`: expected the id a first call answered. Nothing was started.`);
  return id;
}

/** A call's input without the confirmation id. */
function withoutId(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const { [CONFIRMATION_ID]: _id, ...rest } = raw as Record<string, unknown>;
  return rest;
}

/** The confirmations of one session (one per MCP session): the ids it gave and the plans the user declined. */
export class Confirmations {
  private readonly issued = new Map<string, Issued>();
  private readonly declined = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Calls a tool: reads at once; paid and changing work once the user agreed to its plan — asked through
   * `ask` where the client can be asked, else through a confirmation id.
   */
  async call(tool: AnyTool, raw: unknown, ctx: ToolContext, ask?: AskUser): Promise<ToolResult> {
    if (tool.kind === 'read' || !tool.plan) return callTool(tool, raw, ctx);
    try {
      const id = idOf(raw);
      // The id is the host's field, not the tool's: the tool's own input is checked (strictly) without it.
      const own = withoutId(raw);
      const input = parseToolInput(tool, own);
      const bound = inputBinding(tool, input);
      // Redeemed before any wait: two calls sent at once with the same id cannot both pass.
      const held = ask || id === undefined ? undefined : this.redeem(id, tool, bound);
      const plan = await planTool(tool, input, ctx);
      if (!plan) throw new ToolRefusal(`${tool.name} has no plan to confirm. Nothing was started.`);
      const planKey = planBinding(plan);
      this.refuseDeclined(tool, `${bound}:${planKey}`);
      if (ask) return await this.askFirst(tool, own, ctx, ask, plan, `${bound}:${planKey}`);
      if (!held) return this.issue(tool, bound, planKey, plan);
      if (held.plan !== planKey) throw refusal(tool, `the plan changed since the user was asked; it is now: ${plan.text.replace(/\.$/, '')}`);
      return await callTool(tool, own, ctx, { by: 'confirmation_id', plan });
    } catch (error) {
      return errorResult(error, tool);
    }
  }

  /** Marks an id used and answers what it was given for; refuses an unknown, used, expired or foreign one. */
  private redeem(id: string, tool: AnyTool, input: string): Issued {
    const issued = this.issued.get(id);
    if (!issued) throw refusal(tool, `this ${CONFIRMATION_ID} is not one this session gave`);
    if (issued.used) throw refusal(tool, `this ${CONFIRMATION_ID} was used already (each runs its plan once)`);
    issued.used = true;
    if (issued.expires <= this.now()) throw refusal(tool, `this ${CONFIRMATION_ID} expired (it is valid for ${CONFIRMATION_TTL_MS / 60_000} minutes)`);
    if (issued.tool !== tool.name) throw refusal(tool, `this ${CONFIRMATION_ID} was given for ${issued.tool}, not ${tool.name}`);
    if (issued.input !== input) throw refusal(tool, `the input differs from the call this ${CONFIRMATION_ID} was given for, and the user agreed to that one only`);
    return issued;
  }

  /** The first call's answer: the plan, and an id that runs it once. */
  private issue(tool: AnyTool, input: string, plan: string, shown: ToolPlan): ToolResult {
    this.prune();
    const id = randomBytes(18).toString('base64url');
    const expires = this.now() + CONFIRMATION_TTL_MS;
    this.issued.set(id, { tool: tool.name, input, plan, expires, used: false });
    const minutes = CONFIRMATION_TTL_MS / 60_000;
    return {
      isError: false,
      confirmation: shown,
      text: `Not started yet: ${shown.text}\nAsk the user; if they agree, call ${tool.name} again with the same input and ${CONFIRMATION_ID} "${id}" (it runs this plan once, within ${minutes} minutes).`,
      data: { needs_confirmation: true, plan: shown.data, jobs: shown.jobs, [CONFIRMATION_ID]: id, expires_in_minutes: minutes } satisfies z.input<typeof PlanAnswerSchema>,
    };
  }

  /** Asks the user, runs on a yes; a no (or a dismissed question) stands for this plan. */
  private async askFirst(tool: AnyTool, raw: unknown, ctx: ToolContext, ask: AskUser, plan: ToolPlan, key: string): Promise<ToolResult> {
    let answer: UserAnswer;
    try {
      answer = await ask(tool, plan, ctx.signal);
    } catch (error) {
      throw new ToolRefusal(`The user could not be asked (${error instanceof Error ? error.message : String(error)}). Nothing was started or changed.`);
    }
    if (answer === 'accept') return callTool(tool, raw, ctx, { by: 'elicitation', plan } satisfies ConfirmedPlan);
    this.prune();
    this.declined.set(key, this.now() + DECLINE_STANDS_MS);
    return { isError: false, text: `The user ${answer === 'decline' ? 'declined' : 'dismissed the question'}: nothing was started or changed. Do not call ${tool.name} again for this plan; ask the user what to do instead.`, data: { declined: true } satisfies z.input<typeof DeclinedAnswerSchema> };
  }

  private refuseDeclined(tool: AnyTool, key: string): void {
    const until = this.declined.get(key);
    if (until === undefined) return;
    if (until <= this.now()) {
      this.declined.delete(key);
      return;
    }
    throw new ToolRefusal(`Refused: the user declined this ${tool.name} call (the same input and plan) a moment ago, and it is not asked again for ${DECLINE_STANDS_MS / 60_000} minutes. Nothing was started or changed; ask the user what to do instead.`, { declined: true });
  }

  /** Forgets expired ids and declines, and the oldest beyond the cap. */
  private prune(): void {
    const now = this.now();
    for (const [id, issued] of this.issued) if (issued.expires <= now) this.issued.delete(id);
    for (const [key, until] of this.declined) if (until <= now) this.declined.delete(key);
    for (const map of [this.issued, this.declined] as Map<string, unknown>[]) {
      for (const key of map.keys()) {
        if (map.size < MAX_KEPT) break;
        map.delete(key);
      }
    }
  }
}

/** How long a plan a host's dialog showed may be run: a dialog may wait a while for its click. */
export const SHOWN_PLAN_TTL_MS = 60 * 60_000;

/**
 * The plans a host showed the user in a dialog of its own (VS Code's confirmation of a language model
 * tool): a call runs only when a plan was shown for its exact input and the plan is the same when it runs
 * — not when the dialog showed an error, or the plan changed while it waited for its click.
 */
export class ShownPlans {
  private readonly shown = new Map<string, { plan: string; expires: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Notes the plan a dialog is about to show for this call. */
  note(tool: AnyTool, input: unknown, plan: ToolPlan): void {
    const now = this.now();
    for (const [key, entry] of this.shown) if (entry.expires <= now || this.shown.size >= MAX_KEPT) this.shown.delete(key);
    this.shown.set(inputBinding(tool, input), { plan: planBinding(plan), expires: now + SHOWN_PLAN_TTL_MS });
  }

  /** Calls a tool whose dialog the user answered yes: reads at once, paid and changing work if its plan is the one shown. */
  async call(tool: AnyTool, raw: unknown, ctx: ToolContext, by: ConfirmedPlan['by']): Promise<ToolResult> {
    if (tool.kind === 'read' || !tool.plan) return callTool(tool, raw, ctx);
    try {
      const input = parseToolInput(tool, raw);
      const key = inputBinding(tool, input);
      const shown = this.shown.get(key);
      this.shown.delete(key);
      // Planned first: when the dialog showed a refusal (over the limit, no such agent), the answer says it again.
      const plan = await planTool(tool, input, ctx);
      if (!shown || shown.expires <= this.now()) throw new ToolRefusal(`Refused: no plan of this ${tool.name} call was shown to the user (or it was shown over an hour ago). Call it again to be asked. Nothing was started or changed.`);
      if (!plan || planBinding(plan) !== shown.plan) throw new ToolRefusal(`Refused: the plan changed since the user was asked${plan ? `; it is now: ${plan.text.replace(/\.$/, '')}` : ''}. Call ${tool.name} again to be asked. Nothing was started or changed.`);
      return await callTool(tool, raw, ctx, { by, plan });
    } catch (error) {
      return errorResult(error, tool);
    }
  }
}

function refusal(tool: AnyTool, why: string): ToolRefusal {
  return new ToolRefusal(`Refused: ${why}. Call ${tool.name} without ${CONFIRMATION_ID} to get the plan, and ask the user again. Nothing was started or changed.`);
}
