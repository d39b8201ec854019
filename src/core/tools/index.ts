/** The tool catalogue for coding agents: one set of tools for VS Code's language model tools and the MCP server. */
export { TOOLS, DEFAULT_MAX_JOBS, callTool, planTool, parseToolInput, toolJsonSchema, toolNamed, type ToolResult } from './catalogue';
export { ToolRefusal, type AnyTool, type ToolAnswer, type ToolContext, type ToolKind, type ToolPlan } from './toolTypes';
export { toolErrorText } from './toolErrors';
