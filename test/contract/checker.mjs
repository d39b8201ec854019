// The contract checker that the sandbox's checking mode loads (AGENT_WORKBENCH_CONTRACT_CHECK names
// this file). It validates every request the client sends and every answer the sandbox gives against
// the project's contract: contract/live-contract.json (derived from the live description) with the
// overlay contract/live-overlay.jsonc, and contract/interface-contract.jsonc for the operations the
// live description lacks. Plain JavaScript so that the bundled sandbox (integration, e2e) loads it too.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse as parseJsonc } from 'jsonc-parser';

const addFormats = addFormatsModule.default ?? addFormatsModule;
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const STATE_KEY = Symbol.for('agent-workbench.contract-check');

/** The counts and violations of this process (shared by every sandbox the process starts). */
export function contractState() {
  globalThis[STATE_KEY] ??= { checked: 0, requests: 0, violations: [], byOperation: {}, loaded: undefined };
  return globalThis[STATE_KEY];
}

/** Loads the contract files (of the repository, or of `root`) and compiles their schemas, once per process. */
export function loadContract(root = repoRoot) {
  const state = contractState();
  state.loaded ??= {};
  state.loaded[root] ??= compileContract(root);
  return state.loaded[root];
}

function compileContract(root) {
  const read = (name) => fs.readFileSync(path.join(root, 'contract', name), 'utf8');
  const live = JSON.parse(read('live-contract.json'));
  const overlay = parseJsonc(read('live-overlay.jsonc'));
  const iface = parseJsonc(read('interface-contract.jsonc'));
  const operations = { ...applyOverlay(live.operations, overlay), ...iface.operations };
  const ajv = new Ajv2020({ allErrors: false, strict: false, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat('double', true);
  ajv.addKeyword('x-component');
  ajv.addSchema({ $id: 'interface', $defs: iface.$defs ?? {} });
  const routes = Object.entries(operations).map(([name, op]) => compileOperation(ajv, name, op, overlay.errorBody));
  // A literal segment wins over a parameter: /v1/agents/jobs/statuses/ is not /v1/agents/{agent_id}/...
  routes.sort((a, b) => b.literals - a.literals);
  return { operations, routes, find: (method, urlPath) => routes.find((r) => r.method === method && r.pattern.test(urlPath)) };
}

/**
 * The overlay widens the derived schemas, never edits the file: each patch adds `allow` as one more
 * accepted shape (anyOf) where a component (with an optional property path) or an operation's status
 * answer appears.
 */
export function applyOverlay(operations, overlay) {
  const out = structuredClone(operations);
  for (const patch of overlay.patches ?? []) {
    let hits = 0;
    for (const [name, op] of Object.entries(out)) {
      if (patch.operation && patch.operation !== name) continue;
      const whole = patch.operation || (!patch.component && patch.status && patch.status in op.responses);
      const targets = whole ? [[op.responses, patch.status ?? '200']] : [];
      if (patch.component) {
        collectComponent(op.request, patch.component, targets, op, 'request');
        for (const status of Object.keys(op.responses)) collectComponent(op.responses[status], patch.component, targets, op.responses, status);
      }
      for (const [holder, key] of targets) {
        const at = patch.property ? descend(holder, key, patch.property) : [holder, key];
        if (!at) continue;
        const [parent, prop] = at;
        parent[prop] = parent[prop] === null || parent[prop] === undefined ? patch.allow : { anyOf: [parent[prop], patch.allow] };
        hits++;
      }
    }
    if (hits === 0) throw new Error(`An overlay patch applies nowhere: ${JSON.stringify(patch)}`);
  }
  return out;
}

function collectComponent(schema, component, targets, parent = undefined, key = undefined) {
  if (!schema || typeof schema !== 'object') return;
  if (schema['x-component'] === component && parent) targets.push([parent, key]);
  for (const [k, v] of Object.entries(schema)) {
    if (v && typeof v === 'object') collectComponent(v, component, targets, schema, k);
  }
}

function descend(holder, key, property) {
  let parent = holder;
  let prop = key;
  for (const name of property.split('.')) {
    const schema = parent[prop];
    const props = schema?.properties ?? schema?.allOf?.find((s) => s.properties?.[name])?.properties;
    if (!props || !(name in props)) return undefined;
    parent = props;
    prop = name;
  }
  return [parent, prop];
}

function compileOperation(ajv, name, op, errorBody) {
  const segments = op.path.split('/').filter(Boolean);
  const pattern = new RegExp(`^/${segments.map((s) => (s.startsWith('{') ? '[^/]+' : escape(s))).join('/')}/?$`);
  const responses = {};
  for (const [status, schema] of Object.entries(op.responses)) responses[status] = schema ? ajv.compile(schema) : null;
  return {
    name, method: op.method, path: op.path, pattern, literals: segments.filter((s) => !s.startsWith('{')).length,
    request: op.request ? ajv.compile(op.request) : null, requestRequired: op.requestRequired === true,
    requestTypes: op.requestTypes ?? [], responses, errorBody: ajv.compile(errorBody ?? {}),
  };
}

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Checks one exchange. `request`: `{method, path, contentType, body, hasBody}` (body: parsed JSON or undefined);
 * `fromClient`: whether the project's client sent it (only its requests must keep the contract: tests
 * send bad requests on purpose). Answers the violations found (also recorded in {@link contractState}).
 */
export function checkExchange(contract, request, response) {
  const { method, path: urlPath, fromClient } = request;
  const state = contractState();
  const route = contract.find(method, urlPath);
  if (!route) return [];
  const found = [];
  const add = (direction, pointer, rule) => found.push({ operation: route.name, method, path: urlPath, status: response?.status, direction, pointer: pointer || '/', rule });
  // A request the sandbox refused as malformed (400, 413, 415) was sent so on purpose by the test, or
  // its test fails on that answer: only the requests the service takes are held to the contract.
  if (fromClient && response !== undefined && ![400, 413, 415].includes(response.status)) {
    state.requests++;
    checkRequest(route, request, add);
  }
  if (response !== undefined) {
    state.checked++;
    state.byOperation[route.name] = (state.byOperation[route.name] ?? 0) + 1;
    checkResponse(route, response, add);
  }
  state.violations.push(...found);
  return found;
}

function checkRequest(route, { contentType, body, hasBody }, add) {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (route.requestTypes.length === 0) {
    if (hasBody || body !== undefined) add('request', '', 'no body: the operation declares no request body');
    return;
  }
  if (body === undefined && !hasBody) {
    if (route.requestRequired) add('request', '', 'required: the operation requires a request body');
    return;
  }
  if (type !== 'application/json' || !route.request || body === undefined) return;
  validate(route.request, body, 'request', add);
}

function checkResponse(route, { status, body }, add) {
  const key = String(status);
  if (!(key in route.responses)) {
    if (status >= 200 && status < 300) add('response', '', `status: ${status} is not an answer of this operation (${Object.keys(route.responses).join(', ')})`);
    else if (body !== undefined) validate(route.errorBody, body, 'response', add);
    return;
  }
  const schema = route.responses[key];
  if (schema === null) {
    if (body !== undefined && status < 400) add('response', '', `no body: a ${status} of this operation has no body`);
    return;
  }
  validate(schema, body, 'response', add);
}

function validate(check, value, direction, add) {
  if (check(value)) return;
  for (const error of check.errors ?? []) {
    add(direction, error.instancePath, `${error.keyword}: ${error.message}${error.params && Object.keys(error.params).length > 0 ? ` ${JSON.stringify(error.params)}` : ''} (${error.schemaPath})`);
  }
}

/** One line per violation: operation, direction, JSON path, rule. */
export function describeViolation(v) {
  return `${v.operation} (${v.method} ${v.path} → ${v.status ?? '-'}) ${v.direction} at ${v.pointer}: ${v.rule}`;
}

/** Writes this process's counts to `dir` (the harness reads them after integration and e2e runs). */
export function writeReport(dir) {
  const state = contractState();
  fs.mkdirSync(dir, { recursive: true });
  const { loaded: _loaded, ...counts } = state;
  fs.writeFileSync(path.join(dir, `contract-${process.pid}.json`), JSON.stringify(counts));
}
