import * as z from 'zod/mini';
import { AgentVersionDraftSchema } from './agentVersionDraft';

/** The JSON schema files the editor uses (`contributes.jsonValidation`), generated at build time from the zod definitions. */
export function jsonSchemaFiles(): Record<string, unknown> {
  return {
    'agent-version-draft.schema.json': z.toJSONSchema(AgentVersionDraftSchema, { target: 'draft-7', io: 'input' }),
  };
}
