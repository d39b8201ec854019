/**
 * What package.json contributes for the catalogue: each tool as a language model tool (name, reference
 * name, descriptions, input schema), and the tool set. Generated from the catalogue; a unit test fails
 * when package.json differs (`node --import tsx test/harness/toolManifest.ts` writes it).
 */
import { TOOLS, toolJsonSchema } from './catalogue';
import { LM_TOOL_PREFIX } from './toolNames';
import type { AnyTool } from './toolTypes';


const ICONS: Record<AnyTool['kind'], string> = { read: '$(search)', paid: '$(play)', change: '$(warning)' };

/** `find_agents` → `findAgents` (what a user types after `#`). */
export function referenceName(name: string): string {
  return name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/** The first sentence of a tool's description: what people read in the tool picker. */
function userDescription(tool: AnyTool): string {
  const first = /^(.*?[.:])(\s|$)/.exec(tool.description)?.[1] ?? tool.description;
  return first.replace(/:$/, '.');
}

/** `contributes.languageModelTools`. */
export function languageModelToolsManifest(): Record<string, unknown>[] {
  return TOOLS.map((tool) => ({
    name: `${LM_TOOL_PREFIX}${tool.name}`,
    toolReferenceName: referenceName(tool.name),
    displayName: tool.title,
    userDescription: userDescription(tool),
    modelDescription: tool.description,
    canBeReferencedInPrompt: true,
    icon: ICONS[tool.kind],
    tags: ['agent-workbench', tool.kind],
    inputSchema: toolJsonSchema(tool),
  }));
}

/** `contributes.languageModelToolSets`: every tool, to pick them together in agent mode. */
export function languageModelToolSetsManifest(): Record<string, unknown>[] {
  return [{ name: 'agentWorkbench', referenceName: 'agentWorkbench', description: 'Agent Workbench: find agents, read jobs and policies, run agents, try and publish policy edits and agent version drafts.', icon: '$(beaker)', tools: TOOLS.map((t) => `${LM_TOOL_PREFIX}${t.name}`) }];
}
