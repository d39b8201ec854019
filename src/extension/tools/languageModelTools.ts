/**
 * The tool catalogue as VS Code language model tools (Copilot agent mode and any chat participant):
 * registered from package.json's list at activation without loading anything (the catalogue loads with
 * the client on first use). Each call uses the window's connection, and jobs a tool starts show in the
 * Agents view and the status bar like any other. Paid and changing tools ask first (prepareInvocation:
 * the jobs, the estimate, what changes) and run only the plan shown; the window's job budget counts what
 * they start. Restricted Mode refuses them as it does the commands.
 */
import * as vscode from 'vscode';
import { toolLimits } from '../configuration';
import type { Connection } from '../connection/connection';
import type { SignedInUser } from '../connection/signedInUser';
import { isWorkspaceTrusted, RESTRICTED_MESSAGE } from '../commands/workspaceTrust';
import { loadCore } from '../lazyCore';
import type { Log } from '../log';
import { showStartedJobs } from '../runs/runner';
import type { Stores } from '../store/stores';
import type { TestPrompts } from '../testing/testPrompts';
import type { AnyTool, JobBudget, ShownPlans, ToolContext } from '../../core/tools';
import { LM_TOOL_PREFIX } from '../../core/tools/toolNames';


export interface ToolHost {
  connection: Connection;
  stores: Stores;
  user: SignedInUser;
  log: Log;
  /** Answers in place of the user (the test build only). */
  prompts: TestPrompts;
}

type Input = Record<string, unknown>;

/** What the tools of a window share: the job budget of the window, and the plans VS Code's dialogs showed. */
interface WindowTools {
  budget: JobBudget;
  shown: ShownPlans;
}

/**
 * What a tool call runs with in this window, whichever host asked (a language model tool, the MCP server
 * offered to the editor): the window's client (throws when signed out), the first workspace folder, and
 * jobs shown in the Agents view and the status bar like any other. Each host adds its own job budget.
 */
export function windowToolContext(host: Omit<ToolHost, 'prompts'>): Omit<ToolContext, 'signal' | 'progress' | 'budget'> {
  const { stores, log } = host;
  return {
    client: host.connection.requireClient(),
    root: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    user: host.user.label ?? 'vscode',
    jobsStarted: (agentId, jobIds, label, inputSets) => {
      const agentName = stores.current?.agent(agentId)?.name ?? label;
      showStartedJobs(stores, log, { agentId, agentName, versionName: label.split(' · ').pop() ?? label, jobIds, inputSets: inputSets ?? [] });
    },
  };
}

/** One catalogue tool behind VS Code's tool API. */
class CatalogueTool implements vscode.LanguageModelTool<Input> {
  constructor(
    private readonly name: string,
    private readonly host: ToolHost,
    /** Shared by every tool of the window (made on first use). */
    private readonly shared: () => WindowTools,
  ) {}

  private tool(): AnyTool {
    const tool = loadCore().toolNamed(this.name);
    if (!tool) throw new Error(`Agent Workbench has no tool ${this.name}.`);
    return tool;
  }

  private context(token: vscode.CancellationToken): ToolContext {
    const controller = new AbortController();
    token.onCancellationRequested(() => controller.abort());
    return { ...windowToolContext(this.host), budget: this.shared().budget, signal: controller.signal };
  }

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<Input>, token: vscode.CancellationToken): Promise<vscode.PreparedToolInvocation> {
    const tool = this.tool();
    const core = loadCore();
    if (tool.kind === 'read') return { invocationMessage: `Agent Workbench: reading ${readsOf(tool, core.parseToolInput, options.input)}` };
    if (tool.needsTrust && !isWorkspaceTrusted()) return { invocationMessage: `${tool.title}: refused in Restricted Mode` };
    try {
      const input = core.parseToolInput(tool, options.input);
      const plan = await core.planTool(tool, input, this.context(token));
      const kind = tool.kind === 'paid' ? 'This starts paid work.' : 'This changes your organization.';
      const message = `${plan?.text ?? tool.title}\n\n${kind}`;
      // A test answers the confirmation (a dialog cannot be clicked from there); a "no" is a refusal VS Code reports.
      const answer = __TEST_HOOKS__ ? this.host.prompts.toolConfirmation : undefined;
      if (answer && !answer(message)) throw new Error('The user declined: nothing was started.');
      // What the dialog shows is what invoke may run (not an error shown instead, nor a plan changed since).
      if (plan) this.shared().shown.note(tool, input, plan);
      if (answer) return { invocationMessage: `${tool.title}…` };
      return { invocationMessage: `${tool.title}…`, confirmationMessages: { title: `Agent Workbench: ${tool.title}`, message: new vscode.MarkdownString(message) } };
    } catch (error) {
      // The call itself answers the problem (bad input, over the limit) as its result; nothing runs.
      this.host.log.info(`${tool.name}: not planned (${core.toolErrorText(error, tool.name)})`);
      return { invocationMessage: `${tool.title}…`, confirmationMessages: { title: `Agent Workbench: ${tool.title}`, message: new vscode.MarkdownString(core.toolErrorText(error, tool.name)) } };
    }
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<Input>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const tool = this.tool();
    if (tool.needsTrust && !isWorkspaceTrusted()) return textResult(RESTRICTED_MESSAGE);
    let ctx: ToolContext;
    try {
      ctx = this.context(token);
    } catch {
      return textResult('Agent Workbench is not connected: sign in or start the local sandbox first (Agent Workbench: Sign In…). Nothing was started.');
    }
    const started = Date.now();
    // VS Code asked the user with the plan prepareInvocation noted (its own dialog, never an input the model
    // writes): this host says so itself, and the plan runs if it is still the one shown.
    const result = await this.shared().shown.call(tool, options.input, ctx, 'vscode');
    this.host.log.info(`Tool ${tool.name}: ${result.isError ? 'failed' : 'done'} in ${Date.now() - started} ms`);
    return textResult(result.text);
  }
}

function readsOf(tool: AnyTool, parse: (tool: AnyTool, raw: unknown) => unknown, input: unknown): string {
  try {
    return tool.reads ? tool.reads(parse(tool, input)) : tool.title.toLowerCase();
  } catch {
    return tool.title.toLowerCase();
  }
}

function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

/** Registers every tool package.json contributes (cheap: nothing of the catalogue loads until a tool is used); none where VS Code has no tool API. */
export function registerLanguageModelTools(context: vscode.ExtensionContext, host: ToolHost): vscode.Disposable[] {
  const lm = vscode.lm as Partial<typeof vscode.lm> | undefined;
  if (typeof lm?.registerTool !== 'function') return [];
  const contributed = ((context.extension.packageJSON as { contributes?: { languageModelTools?: { name: string }[] } }).contributes?.languageModelTools ?? []).map((t) => t.name);
  let made: WindowTools | undefined;
  // Made on first use, with the catalogue: registering loads nothing.
  const shared = (): WindowTools => (made ??= { budget: new (loadCore().JobBudget)(toolLimits), shown: new (loadCore().ShownPlans)() });
  return contributed.filter((name) => name.startsWith(LM_TOOL_PREFIX)).map((name) => lm.registerTool!(name, new CatalogueTool(name.slice(LM_TOOL_PREFIX.length), host, shared)));
}
