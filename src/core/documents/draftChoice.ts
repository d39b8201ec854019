/** Where an agent draft completes a value from a list of the service: its policy and its model. */
import { getLocation } from 'jsonc-parser';

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
