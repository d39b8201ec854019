/** An agent engine the sandbox knows by name (the service's catalogue of engine classes). */
export interface EngineInfo {
  id: string;
  name: string;
  supportsEval: boolean;
  /** What a finished job of this engine concludes (kept on the job as `ui_fields.verdict`). */
  verdicts: readonly string[];
  description: string;
  /** The inputs a new agent of this engine usually takes (as input definitions). */
  inputs: readonly { key: string; data_type: string; description: string }[];
  /** The `engine_config` a new agent starts from. */
  defaultConfig: Readonly<Record<string, string>>;
}

/**
 * Engines of the demo data. Agents of other `engine_class_id` values are accepted (the interface
 * only bounds its length); their display name is then the id itself and they do not support evaluation.
 */
export const ENGINES: readonly EngineInfo[] = [
  {
    id: 'llm_conversation_reviewer', name: 'Conversation Reviewer (LLM)', supportsEval: true, verdicts: ['Compliant', 'Needs Review', 'Non-Compliant'],
    description: 'Reviews a call or chat transcript against a policy and answers a disposition with evidence and a summary.',
    inputs: [{ key: 'transcript', data_type: 'text/plain', description: 'The call or chat transcript, one line per turn.' }],
    defaultConfig: { model: 'gpt-4o-mini', temperature: '0.2', system_prompt: 'Review the transcript against the policy.', policy_id: '' },
  },
  {
    id: 'document_classifier', name: 'Document Classifier', supportsEval: true, verdicts: ['Invoice', 'Receipt', 'Purchase Order', 'Contract', 'Other'],
    description: 'Sorts an incoming document into one of the policy’s classes.',
    inputs: [{ key: 'document', data_type: 'application/pdf', description: 'The scanned document.' }],
    defaultConfig: { model: 'gpt-4o-mini', policy_id: '' },
  },
  {
    id: 'structured_extractor', name: 'Structured Extractor', supportsEval: false, verdicts: ['Extracted', 'Partially Extracted'],
    description: 'Extracts the fields of a JSON schema from a text.',
    inputs: [
      { key: 'ticket_text', data_type: 'text/plain', description: 'The text to extract from.' },
      { key: 'schema', data_type: 'application/json', description: 'JSON Schema of the fields to extract.' },
    ],
    defaultConfig: { model: 'gpt-4o-mini', temperature: '0' },
  },
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

/** An engine as `GET /v1/agents/types/` describes it. */
export function engineTypeObject(engine: EngineInfo): Record<string, unknown> {
  return {
    id: engine.id,
    engine_class_id: engine.id,
    name: engine.name,
    description: engine.description,
    supports_eval: engine.supportsEval,
    input_schema: {
      type: 'object',
      required: engine.inputs.map((i) => i.key),
      properties: Object.fromEntries(engine.inputs.map((i) => [i.key, { type: 'string', description: i.description, 'x-data-type': i.data_type }])),
    },
    input_definitions: engine.inputs.map((i) => ({ ...i, example: '', accepts_multiple_files: false })),
    default_engine_config: { ...engine.defaultConfig },
  };
}
