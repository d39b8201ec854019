#!/usr/bin/env node
// Derives the project's contract (contract/live-contract.json) from the live service's OpenAPI
// description: for each operation the project uses (contract/operations.json, decision "used"), the
// request body's schema and each response status's schema, as JSON Schema with every $ref inlined and
// no description text. What the live service does beyond its description is NOT written here: it is
// the overlay (contract/live-overlay.jsonc), applied when the contract is loaded.
//
//   node scripts/derive-contract.mjs <openapi.yml> [--out contract/live-contract.json] [--date YYYY-MM-DD]
//
// The same input always gives the same file (keys in a fixed order), so a re-derivation shows as a diff.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** Keywords that only explain: they never change what is valid, and the contract carries no prose. */
const PROSE = new Set(['description', 'summary', 'title', 'example', 'examples', 'externalDocs', 'deprecated', 'discriminator', 'xml']);

function main(argv) {
  const args = parseArgs(argv);
  const description = yaml.load(fs.readFileSync(args.input, 'utf8'));
  const decisions = JSON.parse(fs.readFileSync(path.join(repoRoot, 'contract', 'operations.json'), 'utf8'));
  const used = new Set(decisions.operations.filter((o) => o.decision === 'used').map((o) => `${o.method} ${o.path}`));
  const operations = {};
  const seen = new Set();
  for (const [template, item] of Object.entries(description.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const key = `${method.toUpperCase()} ${template}`;
      seen.add(key);
      if (!used.has(key)) continue;
      operations[op.operationId] = deriveOperation(description, method, template, op);
    }
  }
  const missing = [...used].filter((key) => !seen.has(key));
  if (missing.length > 0) throw new Error(`contract/operations.json names operations the description lacks: ${missing.join(', ')}`);
  const unlisted = [...seen].filter((key) => !decisions.operations.some((o) => `${o.method} ${o.path}` === key));
  if (unlisted.length > 0) throw new Error(`Operations of the description without a decision in contract/operations.json: ${unlisted.join(', ')}`);
  const contract = {
    source: { title: description.info?.title, version: description.info?.version, openapi: description.openapi, derived: args.date, operationCount: seen.size },
    operations: sortKeys(operations),
  };
  fs.mkdirSync(path.dirname(args.out), { recursive: true });
  fs.writeFileSync(args.out, `${JSON.stringify(contract, null, 1)}\n`);
  process.stdout.write(`${Object.keys(operations).length} of ${seen.size} operations written to ${path.relative(process.cwd(), args.out)}\n`);
}

function parseArgs(argv) {
  const args = { input: undefined, out: path.join(repoRoot, 'contract', 'live-contract.json'), date: new Date().toISOString().slice(0, 10) };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') args.out = path.resolve(argv[++i]);
    else if (argv[i] === '--date') args.date = argv[++i];
    else args.input = argv[i];
  }
  if (!args.input) {
    process.stderr.write('usage: node scripts/derive-contract.mjs <openapi.yml> [--out FILE] [--date YYYY-MM-DD]\n');
    process.exit(2);
  }
  return args;
}

/** One operation: its method and path template, its JSON request body's schema, and a schema per response status. */
function deriveOperation(doc, method, template, op) {
  const body = op.requestBody?.content ?? {};
  const json = body['application/json'];
  const responses = {};
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    const resolved = resolveRef(doc, response);
    const content = resolved.content?.['application/json'];
    responses[status] = content?.schema ? toJsonSchema(doc, content.schema, 'response') : null;
  }
  return {
    method: method.toUpperCase(),
    path: template,
    request: json?.schema ? toJsonSchema(doc, json.schema, 'request') : null,
    requestRequired: op.requestBody?.required === true,
    requestTypes: Object.keys(body).sort(),
    responses,
  };
}

function resolveRef(doc, node) {
  if (!node || typeof node.$ref !== 'string') return node;
  const parts = node.$ref.replace(/^#\//, '').split('/');
  return parts.reduce((at, part) => at?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}

/**
 * An OpenAPI 3.1 schema as plain JSON Schema: $refs inlined (marked with `x-component`, the name the
 * overlay patches by), `nullable: true` (3.0 style, still in the description) as a null type, no prose.
 * In a request, read-only properties are left out (the server writes them); in a response, write-only ones.
 */
function toJsonSchema(doc, schema, direction, stack = []) {
  if (Array.isArray(schema)) return schema.map((s) => toJsonSchema(doc, s, direction, stack));
  if (!schema || typeof schema !== 'object') return schema;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop();
    if (stack.includes(name)) throw new Error(`A recursive schema cannot be inlined: ${[...stack, name].join(' > ')}`);
    return { 'x-component': name, ...toJsonSchema(doc, resolveRef(doc, schema), direction, [...stack, name]) };
  }
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (PROSE.has(key) || key === 'nullable' || key === 'readOnly' || key === 'writeOnly') continue;
    out[key] = key === 'properties' ? mapProperties(doc, value, direction, stack) : key === 'enum' || key === 'required' || key === 'type' ? value : toJsonSchema(doc, value, direction, stack);
  }
  if (out.properties && Array.isArray(out.required)) out.required = out.required.filter((name) => name in out.properties || !(name in (schema.properties ?? {})));
  if (schema.nullable === true) return nullable(out);
  return out;
}

function mapProperties(doc, properties, direction, stack) {
  const out = {};
  for (const [name, property] of Object.entries(properties)) {
    const resolved = resolveRef(doc, property) ?? {};
    if (direction === 'request' && (property.readOnly || resolved.readOnly)) continue;
    if (direction === 'response' && (property.writeOnly || resolved.writeOnly)) continue;
    out[name] = toJsonSchema(doc, property, direction, stack);
  }
  return out;
}

function nullable(schema) {
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'], ...(schema.enum ? { enum: [...schema.enum, null] } : {}) };
  if (Array.isArray(schema.type)) return { ...schema, type: [...new Set([...schema.type, 'null'])] };
  return { anyOf: [schema, { type: 'null' }] };
}

function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys(value[key])]));
}

main(process.argv.slice(2));
