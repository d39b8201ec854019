/** The tool catalogue for coding agents: one set of tools for VS Code's language model tools and the MCP server. */
export { TOOLS, DEFAULT_MAX_JOBS, DEFAULT_MAX_SESSION_JOBS, callTool, planTool, parseToolInput, toolJsonSchema, toolNamed, toolOutputJsonSchema, type ToolResult } from './catalogue';
export { ToolRefusal, type AnyTool, type ConfirmedPlan, type ToolAnswer, type ToolContext, type ToolKind, type ToolPlan } from './toolTypes';
export { Confirmations, ShownPlans, withConfirmationId, CONFIRMATION_ID, type AskUser, type UserAnswer } from './confirmation';
export { JobBudget, type JobLimits } from './jobBudget';
export { toolErrorText } from './toolErrors';
