/** Near-valid answers: a real answer with a few of its values deleted, replaced, retyped or added to. */
import fc from 'fast-check';

type Json = unknown;
type Path = (string | number)[];

export type MutationKind = 'delete' | 'replace' | 'retype' | 'null' | 'extra';

/** One change at one place of a JSON value; `at` picks the place among all of them. */
export interface Mutation {
  kind: MutationKind;
  at: number;
  value: Json;
  key: string;
}

/** Mutations of every kind, with arbitrary replacement values and unknown keys. */
export function mutationArb(kinds: readonly MutationKind[] = ['delete', 'replace', 'retype', 'null', 'extra']): fc.Arbitrary<Mutation> {
  return fc.record({
    kind: fc.constantFrom(...kinds),
    at: fc.nat(),
    value: fc.jsonValue({ maxDepth: 3 }),
    key: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('id', 'results', 'next', 'count', 'status', '__proto__', 'constructor', 'toString', 'valueOf')),
  });
}

/** Every place in a value, root first (`[]`), objects and arrays followed into. */
export function pathsOf(value: Json, base: Path = [], out: Path[] = []): Path[] {
  out.push(base);
  if (Array.isArray(value)) value.forEach((item, i) => pathsOf(item, [...base, i], out));
  else if (isObject(value)) for (const key of Object.keys(value)) pathsOf(value[key], [...base, key], out);
  return out;
}

/** Applies the mutations in order to a copy of `value`. */
export function mutate(value: Json, mutations: readonly Mutation[]): Json {
  let root = structuredClone(value);
  for (const m of mutations) root = applyOne(root, m);
  return root;
}

function applyOne(root: Json, m: Mutation): Json {
  const candidates = m.kind === 'extra' ? pathsOf(root).filter((p) => isObject(valueAt(root, p))) : pathsOf(root);
  if (candidates.length === 0) return root;
  const path = candidates[m.at % candidates.length]!;
  const current = valueAt(root, path);
  if (m.kind === 'extra') {
    addField(current as object, unknownKey(m.key), m.value);
    return root;
  }
  const replacement = m.kind === 'replace' ? m.value : m.kind === 'null' ? null : m.kind === 'retype' ? retyped(current) : undefined;
  if (path.length === 0) return replacement === undefined ? null : replacement;
  const parent = valueAt(root, path.slice(0, -1)) as Record<string | number, Json> | Json[];
  const key = path[path.length - 1]!;
  if (replacement !== undefined) (parent as Record<string | number, Json>)[key] = replacement;
  else if (Array.isArray(parent)) parent.splice(key as number, 1);
  else delete (parent as Record<string, Json>)[key];
  return root;
}

/** The same content in another JSON type: the usual ways a server gets a type wrong. */
function retyped(value: Json): Json {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return value !== '' && Number.isFinite(Number(value)) ? Number(value) : value.length;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value === null) return '';
  if (Array.isArray(value)) return Object.fromEntries(value.map((v, i) => [String(i), v]));
  return Object.values(value as object);
}

/** Keys named like Object's own members are kept as they are (the interesting case); others get a prefix no schema uses. */
const OBJECT_MEMBERS = new Set(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']);

/** A field name that is not a field of the answer: unknown to the client. */
export function unknownKey(key: string): string {
  return OBJECT_MEMBERS.has(key) ? key : `x_${key}`;
}

/** Adds a field; `__proto__` becomes a field as JSON.parse makes it, not a prototype. */
export function addField(target: object, key: string, value: Json): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function valueAt(root: Json, path: Path): Json {
  let value = root;
  for (const key of path) value = (value as Record<string | number, Json>)[key];
  return value;
}

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
