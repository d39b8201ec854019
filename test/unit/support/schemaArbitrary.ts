/**
 * fast-check arbitraries from JSON Schema (the subset the contract uses: type, enum, const, properties,
 * required, additionalProperties, items, min/max bounds, anyOf/oneOf/allOf, formats). The values lean
 * to the edges the contract allows: optional fields left out, nulls where nullable, unknown extra
 * fields, empty and long arrays, every enum value, odd but valid strings. Callers filter the values
 * through a validator of the same schema, so a branch this generator reads loosely never yields a
 * value the contract forbids.
 */
import fc from 'fast-check';

/** A JSON Schema as the contract writes it. */
export type JsonSchema = boolean | { [keyword: string]: unknown };

interface Options {
  /** Deeper than this, arrays are empty and objects carry only their required fields. */
  maxDepth: number;
  /** The longest array generated near the top. */
  maxItems: number;
}

const ODD_STRINGS = ['', ' ', 'ü', 'Ünïcödé ✓', '🎉🎉', 'a\nb', '<b>x</b>', '"quoted"', '\\', '\u200b', 'null', '0', 'Robert\'); DROP TABLE agents;--'];
const FORMATS: Record<string, () => fc.Arbitrary<string>> = {
  uuid: () => fc.uuid(),
  'date-time': () => fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2999-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  email: () => fc.emailAddress(),
  uri: () => fc.webUrl(),
};

/** An arbitrary of values of `schema`. */
export function arbitraryOf(schema: JsonSchema, options: Partial<Options> = {}): fc.Arbitrary<unknown> {
  return build(schema, { maxDepth: options.maxDepth ?? 6, maxItems: options.maxItems ?? 40 }, 0);
}

function build(schema: JsonSchema, o: Options, depth: number): fc.Arbitrary<unknown> {
  if (schema === true || (typeof schema === 'object' && Object.keys(schema).filter((k) => k !== 'x-component').length === 0)) return anyJson(depth);
  if (schema === false) return fc.constant(undefined);
  const s = schema;
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const branches = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (branches) return fc.oneof(...branches.map((b) => build(b, o, depth)));
  if (Array.isArray(s.allOf)) return build(mergeAll(s.allOf as JsonSchema[]), o, depth);
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : guessTypes(s);
  return fc.oneof(...types.map((type) => ofType(type, s, o, depth)));
}

function ofType(type: string, s: Record<string, unknown>, o: Options, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: bound(s.minimum, -2_147_483_648), max: bound(s.maximum, 2_147_483_647) });
    case 'number':
      return fc.oneof(fc.double({ min: bound(s.minimum, -1e12), max: bound(s.maximum, 1e12), noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, 0.5, 1e-7));
    case 'string':
      return stringOf(s);
    case 'array':
      return arrayOf(s, o, depth);
    default:
      return objectOf(s, o, depth);
  }
}

function stringOf(s: Record<string, unknown>): fc.Arbitrary<string> {
  const format = typeof s.format === 'string' ? FORMATS[s.format] : undefined;
  if (format) return format();
  const min = bound(s.minLength, 0);
  const max = bound(s.maxLength, 2000);
  const odd = ODD_STRINGS.filter((text) => [...text].length >= min && [...text].length <= max);
  const long = fc.constant('x'.repeat(Math.min(max, 2000))).filter((text) => text.length >= min);
  return fc.oneof(fc.string({ minLength: min, maxLength: Math.min(max, 40), unit: 'grapheme' }), ...(odd.length > 0 ? [fc.constantFrom(...odd)] : []), long);
}

function arrayOf(s: Record<string, unknown>, o: Options, depth: number): fc.Arbitrary<unknown[]> {
  const min = bound(s.minItems, 0);
  const max = Math.max(min, Math.min(bound(s.maxItems, o.maxItems), depth >= o.maxDepth ? min : depth > 2 ? 3 : o.maxItems));
  const items = build((s.items as JsonSchema | undefined) ?? true, o, depth + 1);
  // Empty (or shortest), short, and long up to the bound.
  return fc.oneof(fc.array(items, { minLength: min, maxLength: min }), fc.array(items, { minLength: min, maxLength: Math.min(max, min + 3) }), fc.array(items, { minLength: min, maxLength: max }));
}

function objectOf(s: Record<string, unknown>, o: Options, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((s.required ?? []) as string[]);
  const deep = depth >= o.maxDepth;
  const entries = Object.entries(properties).filter(([name]) => !deep || required.has(name));
  const known = fc.record(Object.fromEntries(entries.map(([name, p]) => [name, build(p, o, depth + 1)])), { requiredKeys: entries.map(([name]) => name).filter((n) => required.has(n)) });
  const extra = s.additionalProperties;
  const extraValues = extra === false ? undefined : build(typeof extra === 'object' ? (extra as JsonSchema) : true, o, depth + 1);
  if (!extraValues) return known;
  // Unknown fields: names the schema does not declare (so they cannot clash with a known field).
  const unknownKey = fc.string({ minLength: 1, maxLength: 12 }).map((k) => `x_${k}`).filter((k) => !(k in properties));
  const extras = fc.dictionary(unknownKey, extraValues, { maxKeys: deep ? 0 : 3 });
  return fc.tuple(known, extras).map(([k, x]) => ({ ...x, ...k }));
}

function anyJson(depth: number): fc.Arbitrary<unknown> {
  return fc.jsonValue({ maxDepth: Math.max(0, 3 - depth) });
}

function guessTypes(s: Record<string, unknown>): string[] {
  if (s.properties || s.additionalProperties) return ['object'];
  if (s.items) return ['array'];
  return ['null', 'boolean', 'integer', 'string', 'object'];
}

function mergeAll(schemas: JsonSchema[]): JsonSchema {
  const out: Record<string, unknown> = {};
  for (const part of schemas) {
    if (typeof part !== 'object') continue;
    for (const [key, value] of Object.entries(part)) {
      if (key === 'properties') out.properties = { ...(out.properties as object), ...(value as object) };
      else if (key === 'required') out.required = [...((out.required as string[]) ?? []), ...(value as string[])];
      else out[key] = value;
    }
  }
  return out;
}

function bound(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}
