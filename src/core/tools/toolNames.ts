/** The prefix of the catalogue's tools among VS Code's language model tools (no imports: the activation bundle takes it). */
export const LM_TOOL_PREFIX = 'agentWorkbench_';
