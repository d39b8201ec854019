/** An agent engine the sandbox knows by name (the service's catalogue of engine classes). */
export interface EngineInfo {
  id: string;
  name: string;
  supportsEval: boolean;
  /** What a finished job of this engine concludes (kept on the job as `ui_fields.verdict`). */
  verdicts: readonly string[];
}

/**
 * Engines of the demo data. Agents of other `engine_class_id` values are accepted (the interface
 * only bounds its length); their display name is then the id itself and they do not support evaluation.
 */
export const ENGINES: readonly EngineInfo[] = [
  { id: 'llm_conversation_reviewer', name: 'Conversation Reviewer (LLM)', supportsEval: true, verdicts: ['Compliant', 'Needs Review', 'Non-Compliant'] },
  { id: 'document_classifier', name: 'Document Classifier', supportsEval: true, verdicts: ['Invoice', 'Receipt', 'Purchase Order', 'Contract', 'Other'] },
  { id: 'structured_extractor', name: 'Structured Extractor', supportsEval: false, verdicts: ['Extracted', 'Partially Extracted'] },
];

/** The display name of an engine. */
export function engineName(engineClassId: string): string {
  return ENGINES.find((e) => e.id === engineClassId)?.name ?? engineClassId;
}

/** Whether graders can evaluate jobs of this engine. */
export function engineSupportsEval(engineClassId: string): boolean {
  return ENGINES.find((e) => e.id === engineClassId)?.supportsEval ?? false;
}

/** The possible verdicts of jobs of an engine (a generic pair for engines the sandbox does not know). */
export function engineVerdicts(engineClassId: string): readonly string[] {
  return ENGINES.find((e) => e.id === engineClassId)?.verdicts ?? ['Done', 'Needs Review'];
}
