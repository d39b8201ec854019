/** New run files: prefilled from the input definitions' examples, or from given inputs (Run Again, Run on File). */
import type { InputDefinition } from '../client';
import type { RunFile } from './runFile';
import { exampleInputs } from './runFileSchema';

/** What a new run file is made from. */
export interface RunTemplate {
  agentId: string;
  agentName: string;
  /** Given: the run file names this version; else the agent's current version runs. */
  version?: { id: string; name: string };
  definitions: readonly InputDefinition[];
  /** Values that replace the examples (by key); an array makes a batch. */
  inputs?: Record<string, unknown> | Array<Record<string, unknown>>;
  metadata?: Record<string, unknown>;
}

/** The text of a new run file, pretty-printed with a final newline. */
export function runFileText(template: RunTemplate): string {
  const examples = exampleInputs(template.definitions);
  const inputs = Array.isArray(template.inputs) ? template.inputs.map((set) => ({ ...examples, ...set })) : { ...examples, ...template.inputs };
  const file: RunFile = {
    agent: template.agentId,
    agentName: template.agentName,
    ...(template.version ? { version: template.version.id, versionName: template.version.name } : {}),
    inputs,
    metadata: template.metadata ?? {},
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}
