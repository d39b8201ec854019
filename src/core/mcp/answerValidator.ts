/**
 * Checks the answers an MCP client sends back to an elicitation, in place of the SDK's default (Ajv,
 * which would add ~70 KB zipped to every bundle for this one use). Elicitation schemas are flat by the
 * protocol: an object of string, number, integer or boolean fields, some required, strings perhaps an
 * enum. That is all this checks, and a schema outside it is refused, not waved through. No imports: the
 * bundles use it as the SDK's `ajv-provider` module too (esbuild.mjs).
 */

/** The SDK's validator result. */
type Result<T> = { valid: true; data: T; errorMessage: undefined } | { valid: false; data: undefined; errorMessage: string };

interface FieldSchema {
  type?: unknown;
  enum?: unknown;
}

/** The SDK's `jsonSchemaValidator`, for the flat schemas elicitation allows. */
export class ElicitationAnswerValidator {
  getValidator<T>(schema: unknown): (input: unknown) => Result<T> {
    const shape = flatShape(schema);
    return (input) => {
      const problem = typeof shape === 'string' ? shape : answerProblem(shape, input);
      return problem === undefined ? { valid: true, data: input as T, errorMessage: undefined } : { valid: false, data: undefined, errorMessage: problem };
    };
  }
}

/** The SDK's name for its default validator: the bundles take this module in place of the Ajv one. */
export { ElicitationAnswerValidator as AjvJsonSchemaValidator };

interface FlatShape {
  properties: Record<string, FieldSchema>;
  required: string[];
}

/** The schema's fields and required names, or why it is not a flat elicitation schema. */
function flatShape(schema: unknown): FlatShape | string {
  if (!isObject(schema) || schema.type !== 'object') return 'The requested schema is not an object schema.';
  const properties = schema.properties ?? {};
  if (!isObject(properties)) return 'The requested schema’s properties are not an object.';
  const required = schema.required ?? [];
  if (!Array.isArray(required) || !required.every((r) => typeof r === 'string')) return 'The requested schema’s required list is not a list of names.';
  for (const [name, field] of Object.entries(properties)) {
    if (!isObject(field) || !['string', 'number', 'integer', 'boolean'].includes(field.type as string)) return `The requested field ${name} is not a string, number, integer or boolean.`;
  }
  return { properties: properties as Record<string, FieldSchema>, required: required };
}

/** Why an answer does not fit the shape, or undefined. */
function answerProblem(shape: FlatShape, input: unknown): string | undefined {
  if (!isObject(input)) return 'The answer is not an object.';
  for (const name of shape.required) if (!(name in input)) return `The answer has no ${name}.`;
  for (const [name, value] of Object.entries(input)) {
    const field = shape.properties[name];
    if (!field) continue;
    if (!fits(field.type, value)) return `The answer's ${name} is not ${field.type === 'integer' ? 'an' : 'a'} ${String(field.type)}.`;
    if (Array.isArray(field.enum) && !field.enum.includes(value)) return `The answer's ${name} is not one of the values offered.`;
  }
  return undefined;
}

function fits(type: unknown, value: unknown): boolean {
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value);
  return typeof value === type;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
