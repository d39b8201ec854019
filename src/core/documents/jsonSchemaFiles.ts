import * as z from 'zod/mini';
import { AgentVersionDraftSchema } from './agentVersionDraft';
import { NewAgentDraftSchema } from './newAgentDraft';
import { PolicyContentSchema } from './policyContent';
import { RUN_SCHEMA_URI } from './runtimeSchemas';
import { TrialSchema } from '../trial/trialRecord';

/**
 * The JSON schema files the editor uses (`contributes.jsonValidation`), generated at build time from the
 * zod definitions. The run-file schema depends on the service: it is referenced, served at run time.
 */
export function jsonSchemaFiles(): Record<string, unknown> {
  return {
    'agent-version-draft.schema.json': z.toJSONSchema(AgentVersionDraftSchema, { target: 'draft-7', io: 'input' }),
    'new-agent-draft.schema.json': z.toJSONSchema(NewAgentDraftSchema, { target: 'draft-7', io: 'input' }),
    'policy-content.schema.json': z.toJSONSchema(PolicyContentSchema, { target: 'draft-7', io: 'input' }),
    'agent-run.schema.json': { $ref: RUN_SCHEMA_URI },
    'trial.schema.json': z.toJSONSchema(TrialSchema, { target: 'draft-7', io: 'input' }),
  };
}
