/**
 * What agent drafts and run files complete from the service. The run-file JSON schema is built from
 * the input definitions of the agents run files name and served by the extension at `RUN_SCHEMA_URI`
 * (the static schema file the manifest names points at it with `$ref`, because a manifest's schema URL
 * must be a file of the extension). An agent draft's policy and model come from the service's lists.
 */
import { getLocation } from 'jsonc-parser';

/** The run-file JSON schema, generated from the input definitions of the agents run files name. */
export const RUN_SCHEMA_URI = 'agent-workbench-schema:/agent-run.schema.json';

/** The engine-config fields of an agent draft whose values come from a list of the service. */
export type DraftChoiceField = 'policy_id' | 'model';

/**
 * The engine-config field whose value is at `offset` of an agent draft (inside its string or where
 * the value is to be typed), or undefined anywhere else.
 */
export function draftChoiceAt(text: string, offset: number): DraftChoiceField | undefined {
  const location = getLocation(text, offset);
  if (location.isAtPropertyKey) return undefined;
  const [parent, field, ...rest] = location.path;
  if (parent !== 'engine_config' || rest.length) return undefined;
  return field === 'policy_id' || field === 'model' ? field : undefined;
}
