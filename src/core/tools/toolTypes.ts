/**
 * The tool catalogue's shared definitions: what a tool is (name, description for a model, input schema,
 * kind, handler over the service client), what it is given to run (the context a host builds) and what
 * it answers (concise text for a model, with a structured form beside it).
 */
import type * as z from 'zod';
import type { ServiceClient } from '../client';
import type { Grounds } from '../writeGate/grounds';
import type { WriteTarget } from '../writeGate/writeGate';
import type { JobBudget } from './jobBudget';

/** Reads only; starts paid work (jobs); changes or deletes something in the organization. */
export type ToolKind = 'read' | 'paid' | 'change';

/** What a host gives a tool to run. */
export interface ToolContext {
  client: ServiceClient;
  /** The folder paths a tool is given must stay in (the workspace, or the MCP server's `--root`); none: paths are refused. */
  root: string | undefined;
  /** The jobs this session may still start (a minute's and the session's; the host's settings or `--max-jobs`). */
  budget: JobBudget;
  signal: AbortSignal;
  /** Who trial copies are named after. */
  user: string;
  /** How often long tools poll job statuses (tests pass a short one). */
  pollMs?: number;
  /** Long tools report how far they are. */
  progress?(done: number, total: number | undefined, message: string): void;
  /** Jobs a tool started, so that a host shows them (the Agents view, the status bar). */
  jobsStarted?(agentId: string, jobIds: readonly string[], label: string, inputSets?: readonly Record<string, unknown>[]): void;
  /**
   * The grounds of the writes a confirmed plan named (its `targets`): issued by the write gate when the
   * user confirmed, for exactly those targets. Set by the catalogue for `run` only; empty otherwise.
   */
  grounds?: Grounds;
}

/** A tool's answer: a few lines a model can act on, and the same as data (of the tool's `output` schema). */
export interface ToolAnswer<D = Record<string, unknown>> {
  text: string;
  data: D;
}

/** What a paid or changing tool would do, said before it does it (the confirmation). */
export interface ToolPlan {
  /** One or two sentences: the jobs, the estimate, what changes. */
  text: string;
  /** Jobs the call would start (checked against the limit). */
  jobs: number;
  /**
   * What the user agrees to; a confirmation is bound to it (compared when the work starts). An `estimate`
   * here is a forecast that moves as other jobs finish: only its job count is bound, not its figures.
   */
  data: Record<string, unknown>;
  /** What the call would write on the service that exists already (agents run, jobs cancelled, the policy or agent published): the confirmation grants exactly these. */
  targets?: WriteTarget[];
}

/** How the user agreed to a plan, and the plan they agreed to: what a paid or changing run is given. */
export interface ConfirmedPlan {
  plan: ToolPlan;
  /** Who asked: MCP elicitation, the confirmation id a first call answered, or VS Code's own confirmation dialog. */
  by: 'elicitation' | 'confirmation_id' | 'vscode';
}

/** One tool of the catalogue. */
export interface ToolDefinition<S extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** snake_case, unique: the MCP name, and the base of the VS Code tool's name. */
  name: string;
  /** A short title for people (confirmation dialogs, tool pickers). */
  title: string;
  /** For a model: what it is for, what it returns, what it costs. */
  description: string;
  kind: ToolKind;
  /** Needs a trusted workspace in VS Code (every paid or changing tool does; a read that runs something on the service too). */
  needsTrust?: boolean;
  input: S;
  /**
   * What `run` answers as data, every key of it: MCP lists it as the tool's output schema and clients check
   * the structured content against it. (Paid and changing tools may also answer a plan or a decline:
   * answerSchemas.ts.)
   */
  output: O;
  /** Paid and changing tools: what the call would start or change, read before anything happens. */
  plan?(input: z.infer<S>, ctx: ToolContext): Promise<ToolPlan>;
  /** Reads: what the call will read, in one sentence (VS Code says it while the tool runs). */
  reads?(input: z.infer<S>): string;
  /** Does it; a paid or changing tool runs only with the plan the user agreed to (`confirmed`), reads without. */
  run(input: z.infer<S>, ctx: ToolContext, confirmed?: ConfirmedPlan): Promise<ToolAnswer<z.input<O>>>;
}

/** A tool of any input (the registry's view). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the registry holds tools of different inputs; each checks its own
export type AnyTool = ToolDefinition<any, any>;

/** Declares a tool with its input and answer types inferred from its schemas. */
export function defineTool<S extends z.ZodType, O extends z.ZodType>(tool: ToolDefinition<S, O>): ToolDefinition<S, O> {
  return tool;
}

/** A refusal a model can act on (bad input, no such thing, over a limit): said as the tool's answer, never a stack trace. */
export class ToolRefusal extends Error {
  constructor(
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ToolRefusal';
  }
}
