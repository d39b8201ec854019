/**
 * The service's answer to a refused run, placed on the fields it names: field maps
 * (`{"transcript": ["…"]}`, `{"inputs": ["…"]}`) and messages that name an input
 * (`["Missing required input: transcript"]`, `Input "language" is required.`).
 */
import { locateFieldErrors, type JsonProblem } from '../documents/jsonProblems';

/** The parts of a service error that name fields. */
export interface RunErrorFields {
  fieldErrors: Record<string, string[]>;
  nonFieldErrors: readonly string[];
}

/** Problems at the fields a refused run names; empty when it names none that is in the text. */
export function runErrorProblems(text: string, error: RunErrorFields, inputKeys: readonly string[], batch: boolean): JsonProblem[] {
  const keys = new Set(inputKeys);
  const byField: Record<string, string[]> = {};
  const add = (field: string, message: string): void => {
    (byField[field] ??= []).push(message);
  };
  for (const [field, messages] of Object.entries(error.fieldErrors)) {
    const root = field.split('.')[0] ?? field;
    const target = keys.has(root) ? inputField(field, batch) : field;
    for (const message of messages) add(target, message);
  }
  for (const message of error.nonFieldErrors) {
    const key = inputNamedIn(message, keys);
    if (key) add(inputField(key, batch), message);
  }
  return locateFieldErrors(text, byField);
}

/** The input key a message names (`input: key`, `input "key"`, `"key"`), if it is one of the version's. */
export function inputNamedIn(message: string, keys: ReadonlySet<string>): string | undefined {
  const patterns = [/input[s]?\s*:\s*"?([\w.-]+)"?/i, /input[s]?\s+"([^"]+)"/i, /"([^"]+)"/];
  for (const pattern of patterns) {
    const key = pattern.exec(message)?.[1];
    if (key && keys.has(key)) return key;
  }
  return undefined;
}

function inputField(key: string, batch: boolean): string {
  // A batch's answer does not say which input set: the first one carries the mark.
  return batch ? `inputs.0.${key}` : `inputs.${key}`;
}
