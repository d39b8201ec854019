import Handlebars from 'handlebars/dist/cjs/handlebars';

/**
 * What a template reads from its data, worked out from its syntax tree: `{{#each evidence}}` reads a
 * list, `{{#if amount}}` a condition, `{{this.rule}}` inside it a field of each item. Used to pre-fill a
 * sample with every field a template prints, and to say which ones a sample lacks.
 */
export type FieldShape =
  | { kind: 'unknown' | 'value' | 'flag' }
  | { kind: 'object'; fields: Map<string, FieldShape> }
  | { kind: 'array'; item: FieldShape };

type Node = hbs.AST.Node;
type Path = hbs.AST.PathExpression;
interface Scope {
  shape: FieldShape;
  params: Map<string, FieldShape>;
  parent: Scope | undefined;
}

const RANK = { unknown: 0, flag: 1, value: 2, object: 3, array: 3 } as const;

/** The fields a template reads, as a tree of shapes; undefined when the template does not parse. */
export function templateFields(template: string): FieldShape | undefined {
  let program: hbs.AST.Program;
  try {
    program = Handlebars.parse(template);
  } catch {
    return undefined;
  }
  const root: FieldShape = { kind: 'object', fields: new Map() };
  walkProgram(program, { shape: root, params: new Map(), parent: undefined });
  return root;
}

function walkProgram(program: hbs.AST.Program | undefined, scope: Scope): void {
  for (const statement of program?.body ?? []) walkStatement(statement, scope);
}

function walkStatement(node: Node, scope: Scope): void {
  if (node.type === 'MustacheStatement') {
    const m = node as hbs.AST.MustacheStatement;
    if (!m.params.length && !m.hash?.pairs.length) use(m.path, scope, 'value');
    else walkArguments(m, scope);
  } else if (node.type === 'BlockStatement') {
    walkBlock(node as hbs.AST.BlockStatement, scope);
  }
}

/** Arguments of a helper call are read as values; the helper's own name is not data. */
function walkArguments(call: { params: hbs.AST.Expression[]; hash?: hbs.AST.Hash }, scope: Scope): void {
  const args = [...call.params, ...(call.hash?.pairs.map((p) => p.value) ?? [])];
  for (const arg of args) {
    if (arg.type === 'SubExpression') walkArguments(arg as hbs.AST.SubExpression, scope);
    else use(arg, scope, 'value');
  }
}

function walkBlock(block: hbs.AST.BlockStatement, scope: Scope): void {
  const helper = block.path.original;
  const subject = block.params[0];
  const inner = (shape: FieldShape, names: string[]): Scope => ({ shape, params: new Map(names.map((n, i) => [n, i === 0 ? shape : { kind: 'value' }])), parent: scope });
  const blockParams = block.program?.blockParams ?? [];
  if ((helper === 'if' || helper === 'unless') && subject) {
    use(subject, scope, 'flag');
    walkProgram(block.program, scope);
  } else if (helper === 'each' && subject) {
    const item = use(subject, scope, 'array');
    walkProgram(block.program, item ? inner(item, blockParams) : scope);
  } else if (helper === 'with' && subject) {
    const value = use(subject, scope, 'object');
    walkProgram(block.program, value ? inner(value, blockParams) : scope);
  } else if (!block.params.length && !block.hash?.pairs.length) {
    // `{{#section}}…{{/section}}` without a helper: Handlebars enters `section` like `with`.
    const value = use(block.path, scope, 'object');
    walkProgram(block.program, value ? inner(value, blockParams) : scope);
  } else {
    walkArguments(block, scope);
    walkProgram(block.program, scope);
  }
  walkProgram(block.inverse, scope);
}

/** Marks the field a path names as read in a given way; returns the list item (`array`) or the field. */
function use(expression: hbs.AST.Expression | hbs.AST.Literal, scope: Scope, as: 'value' | 'flag' | 'array' | 'object'): FieldShape | undefined {
  if (expression.type !== 'PathExpression') return undefined;
  const target = resolve(expression as Path, scope);
  if (!target) return undefined;
  const { holder, key } = target;
  const current = key === undefined ? holder : child(holder, key);
  if (!current) return undefined;
  if (as === 'array') {
    if (current.kind === 'array') return current.item;
    // `{{#each}}` over an object walks its values, whose fields nothing here can name.
    if (current.kind === 'object') return { kind: 'unknown' };
    return replace(holder, key, { kind: 'array', item: { kind: 'unknown' } }).item;
  }
  if (as === 'object') {
    if (current.kind === 'object' || current.kind === 'array') return current.kind === 'array' ? current.item : current;
    return replace(holder, key, { kind: 'object', fields: new Map() });
  }
  if (RANK[current.kind] < RANK[as]) replace(holder, key, { kind: as });
  return current;
}

/** Finds the shape a path starts from (scopes, `../`, `@root`, block params) and its last key. */
function resolve(path: Path, scope: Scope): { holder: FieldShape; key: string | undefined } | undefined {
  let parts = [...path.parts];
  let from: FieldShape;
  if (path.data) {
    if (parts[0] !== 'root') return undefined; // @index, @key, @first…: not data
    let top = scope;
    while (top.parent) top = top.parent;
    from = top.shape;
    parts = parts.slice(1);
  } else {
    let s: Scope = scope;
    for (let d = 0; d < path.depth && s.parent; d++) s = s.parent;
    const bound = parts[0] === undefined ? undefined : findParam(s, parts[0]);
    from = bound ?? s.shape;
    if (bound) parts = parts.slice(1);
  }
  for (const part of parts.slice(0, -1)) {
    const next = child(from, part);
    if (!next) return undefined;
    from = next;
  }
  return { holder: from, key: parts.at(-1) };
}

function findParam(scope: Scope, name: string): FieldShape | undefined {
  for (let s: Scope | undefined = scope; s; s = s.parent) {
    const bound = s.params.get(name);
    if (bound) return bound;
  }
  return undefined;
}

/** A field of an object shape (turning a plain value into an object); `length` of a list is not a field. */
function child(shape: FieldShape, key: string): FieldShape | undefined {
  if (key === 'length' && shape.kind !== 'object') {
    // `{{#if violations.length}}`: a list, whose length is a condition, not a field.
    if (shape.kind !== 'array') replace(shape, undefined, { kind: 'array', item: { kind: 'unknown' } });
    return { kind: 'flag' };
  }
  if (shape.kind === 'array') return /^\d+$/.test(key) ? shape.item : undefined;
  if (shape.kind !== 'object') {
    const fields = new Map<string, FieldShape>();
    Object.assign(shape, { kind: 'object', fields });
  }
  const fields = (shape as { fields: Map<string, FieldShape> }).fields;
  let field = fields.get(key);
  if (!field) fields.set(key, (field = { kind: 'unknown' }));
  return field;
}

/** Changes a shape in place, so every reference to it (scopes, block params) sees the change. */
function replace<T extends FieldShape>(holder: FieldShape, key: string | undefined, next: T): T {
  const target = key === undefined ? holder : child(holder, key);
  if (!target) return next;
  for (const k of Object.keys(target)) delete (target as Record<string, unknown>)[k];
  return Object.assign(target, next);
}

/** A sample value for every field a template reads: text like "‹amount›", `true` for conditions, one-item lists. */
export function sampleOfFields(shape: FieldShape, name = 'value'): unknown {
  switch (shape.kind) {
    case 'object':
      return Object.fromEntries([...shape.fields].map(([key, field]) => [key, sampleOfFields(field, key)]));
    case 'array':
      return [sampleOfFields(shape.item, singular(name))];
    case 'flag':
      return true;
    default:
      return `‹${name}›`;
  }
}

/** Adds what `extra` has and `base` lacks, recursively (into every object of a list too); `base` wins. */
export function fillMissing(base: unknown, extra: unknown): unknown {
  if (Array.isArray(base)) {
    const item: unknown = Array.isArray(extra) ? extra[0] : undefined;
    return item === undefined ? base : base.map((element) => fillMissing(element, item));
  }
  if (!isPlainObject(base) || !isPlainObject(extra)) return base === undefined ? extra : base;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(extra)) out[key] = key in base ? fillMissing(base[key], value) : value;
  return out;
}

/**
 * Fields the template prints that the data lacks (`amount`, `red_flags[].severity`): those come out
 * empty in the preview. Conditions (`{{#if route}}`) are left out: being absent is a normal case for them.
 */
export function missingFields(shape: FieldShape, data: unknown, path = ''): string[] {
  if (shape.kind === 'object') {
    if (data !== undefined && data !== null && typeof data !== 'object') return [];
    const record = (data ?? {}) as Record<string, unknown>;
    return [...shape.fields].flatMap(([key, field]) => {
      const where = path ? `${path}.${key}` : key;
      return key in record ? missingFields(field, record[key], where) : field.kind === 'flag' ? [] : [where];
    });
  }
  if (shape.kind === 'array' && Array.isArray(data)) {
    return [...new Set(data.flatMap((item) => missingFields(shape.item, item, `${path}[]`)))];
  }
  return [];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function singular(name: string): string {
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`;
  return name.endsWith('s') && !name.endsWith('ss') ? name.slice(0, -1) : name;
}
