/**
 * The metadata a user types for an upload. Apart from uploadPlan.ts because its error sentence needs the
 * JSON parser (jsonc-parser), which activation must not load: the extension reads it through loadCore().
 */
import { jsonSyntaxSentence } from '../documents/jsonSyntax';

/** Optional metadata typed by the user: empty is none; otherwise it must be JSON (an object, as the service expects). */
export function parseMetadata(text: string): { ok: true; value: Record<string, unknown> | undefined } | { ok: false; problem: string } {
  const trimmed = text.trim();
  if (!trimmed) return { ok: true, value: undefined };
  try {
    const value: unknown = JSON.parse(trimmed);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, problem: 'Metadata must be a JSON object, like {"source": "crm"}' };
    return { ok: true, value: value as Record<string, unknown> };
  } catch (error) {
    return { ok: false, problem: `Not valid JSON: ${jsonSyntaxSentence(text) ?? (error as Error).message}` };
  }
}
