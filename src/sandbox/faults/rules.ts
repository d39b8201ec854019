/**
 * Fault rules: what the sandbox's fault mode can do to a request, and which requests it does it to.
 * Off by default (no rules). Rules come from `startSandbox({ faults })`, `RunningSandbox.setFaults`,
 * the CLI's `--fault RULE_JSON`, or `PUT /__admin/faults`; all of them are checked by {@link readFaultRules}.
 *
 * How a request meets the rules: every matching `latency` rule adds its delay; then the first other
 * rule that matches (in order, after its `rate` and `count`) applies. Kinds fall into three groups:
 * - answered instead of the service (`status`, `html`, `reset` when `response`): by default the
 *   operation does not run; with `after: true` it runs first (a write really happens) and only its
 *   answer is replaced or cut, which is how "outcome unknown" and "no duplicates" are tested;
 * - cut during the upload (`reset` when `upload`): the operation sees its body end abruptly;
 * - shaping a success (`truncate`, `malformed`, `wrongTypes`, `huge`, `foreignNext`, `insert`): the operation
 *   runs, and its answer is changed only when it is a 2xx with a JSON body (for `foreignNext`: a page
 *   with a link; for `insert`: a page). Any other answer goes out unchanged and the rule neither counts it as a hit nor
 *   spends one of its `count`.
 */

/** Which requests a rule applies to, and how often. */
export interface FaultScope {
  /**
   * The request path, without the query string. A glob: `*` stands for one path segment or part of
   * one, `**` for any number of segments; the trailing slash is optional on both sides, e.g.
   * `/v1/policies/*\/versions/`. A pattern starting with `^` is a regular expression over the raw path.
   */
  path: string;
  /** The HTTP method, any case; every method when absent. */
  method?: string;
  /** The share of matching requests the rule applies to, 0 to 1 (default 1). */
  rate?: number;
  /** Makes `rate` pick the same requests on every run (default: a new random seed per rule). */
  seed?: number;
  /** Applies to the next `count` matching requests only, then is spent (default: no end). */
  count?: number;
  /**
   * Only requests bearing this token (`Authorization: Bearer <token>`). With `status: 401` it revokes
   * one user's token while the others keep working, as a service does when a token expires.
   */
  token?: string;
}

/** Waits `ms` before the operation runs. Latency rules add up, and combine with one other rule. */
export interface LatencyFault extends FaultScope {
  kind: 'latency';
  /** 0 to 600000. */
  ms: number;
}

/**
 * Answers `status` (400-599): 502, 503 and 504 with a proxy's HTML page, 429 with `Retry-After`, any
 * other with a JSON `{"detail": ...}` (or `body`).
 */
export interface StatusFault extends FaultScope {
  kind: 'status';
  status: number;
  /** Seconds for `Retry-After`; sent with 429 (default 1) and, when given, with any other status. */
  retryAfter?: number;
  /** A JSON body instead of the default one (ignored for 502/503/504, which are HTML). */
  body?: unknown;
  /** Run the operation first, then answer `status` instead of its answer. */
  after?: boolean;
}

/**
 * Cuts the connection. `response`: without `after`, once the request has been read and before the
 * operation runs, without a byte of answer; with `after: true`, the operation runs, and its headers
 * and the first `bytes` of its body (default: half) go out before the cut. `upload`: after `bytes`
 * (default 0) of the request body were read, and always before its last byte, so the operation never
 * sees a complete body.
 */
export interface ResetFault extends FaultScope {
  kind: 'reset';
  /** Default `response`. */
  when?: 'response' | 'upload';
  /** `response` only. */
  after?: boolean;
  bytes?: number;
}

/** A 2xx whose JSON body is cut in half; the HTTP message itself is complete (Content-Length matches). */
export interface TruncateFault extends FaultScope {
  kind: 'truncate';
}

/** A 2xx whose body is not JSON: double quotes become single quotes, as if a Python dict were printed. */
export interface MalformedFault extends FaultScope {
  kind: 'malformed';
}

/**
 * A 2xx with valid JSON of the wrong shape: every number and boolean becomes a string, the field
 * `remove` (default `id`) is removed from every object, and a bare string answer becomes a number.
 */
export interface WrongTypesFault extends FaultScope {
  kind: 'wrongTypes';
  remove?: string;
}

/** A 2xx whose object (or first list item) has `field` (default `name`) set to a string of `bytes` (default 5 MiB, at most 100 MiB). */
export interface HugeFault extends FaultScope {
  kind: 'huge';
  field?: string;
  bytes?: number;
}

/** An HTML page (a proxy's sign-in page) with `status` (default 200) instead of the service's answer. */
export interface HtmlFault extends FaultScope {
  kind: 'html';
  status?: number;
  /** Run the operation first, then answer the page. */
  after?: boolean;
}

/**
 * A page whose `next` and `previous` links name `origin` (default `http://proxy.invalid:8443`) instead
 * of the sandbox, keeping path and query, as a service behind a proxy writes them.
 */
export interface ForeignNextFault extends FaultScope {
  kind: 'foreignNext';
  origin?: string;
}

/**
 * A page with one more item in its `results`, as a live service sends when a list shifts while it is
 * paged or one object belongs to two lists: `item` (any JSON), or without it a copy of the page's item
 * at index `copy` (default 0: the first), put at index `at` (default: the end). `count` is unchanged.
 */
export interface InsertFault extends FaultScope {
  kind: 'insert';
  item?: unknown;
  copy?: number;
  at?: number;
}

/** One rule of the fault mode. */
export type FaultRule =
  | LatencyFault | StatusFault | ResetFault | TruncateFault | MalformedFault | WrongTypesFault | HugeFault | HtmlFault | ForeignNextFault | InsertFault;

export type FaultKind = FaultRule['kind'];

/** The largest `huge` string; more would only test the machine's memory. */
export const MAX_HUGE_BYTES = 100 * 1024 * 1024;
const MAX_LATENCY_MS = 600_000;

const SCOPE_KEYS = ['path', 'method', 'rate', 'seed', 'count', 'token', 'kind'];
const KIND_KEYS: Record<FaultKind, string[]> = {
  latency: ['ms'],
  status: ['status', 'retryAfter', 'body', 'after'],
  reset: ['when', 'after', 'bytes'],
  truncate: [],
  malformed: [],
  wrongTypes: ['remove'],
  huge: ['field', 'bytes'],
  html: ['status', 'after'],
  foreignNext: ['origin'],
  insert: ['item', 'copy', 'at'],
};

/** Checks rules from JSON (an array, or one rule); throws an Error naming the first problem, e.g. `faults[1].rate: ...`. */
export function readFaultRules(value: unknown, where = 'faults'): FaultRule[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((item, i) => readFaultRule(item, Array.isArray(value) ? `${where}[${i}]` : where));
}

/** Checks one rule; see {@link readFaultRules}. */
export function readFaultRule(value: unknown, where = 'fault'): FaultRule {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${where}: expected an object with "path" and "kind".`);
  const rule = value as Record<string, unknown>;
  const kind = rule.kind;
  if (typeof kind !== 'string' || !Object.hasOwn(KIND_KEYS, kind)) {
    throw new Error(`${where}.kind: expected one of ${Object.keys(KIND_KEYS).join(', ')}, got ${JSON.stringify(kind)}.`);
  }
  const allowed = new Set([...SCOPE_KEYS, ...KIND_KEYS[kind as FaultKind]]);
  const unknown = Object.keys(rule).find((key) => !allowed.has(key));
  if (unknown !== undefined) throw new Error(`${where}.${unknown}: not an option of a "${kind}" fault.`);
  const check = new RuleChecker(rule, where);
  check.scope();
  check.kindOptions(kind as FaultKind);
  // A copy made of checked values only, so later changes to the caller's object change nothing here.
  return JSON.parse(JSON.stringify(rule)) as FaultRule;
}

/** The checks of one rule's fields, each throwing with the field's place in the message. */
class RuleChecker {
  constructor(
    private readonly rule: Record<string, unknown>,
    private readonly where: string,
  ) {}

  scope(): void {
    const path = this.rule.path;
    if (typeof path !== 'string' || path === '') throw this.problem('path', 'expected a path pattern such as "/v1/agents/*/"');
    if (path.startsWith('^')) {
      try {
        new RegExp(path);
      } catch (error) {
        throw this.problem('path', `not a valid regular expression (${(error as Error).message})`);
      }
    } else if (!path.startsWith('/')) {
      throw this.problem('path', 'a glob starts with "/", a regular expression with "^"');
    }
    this.optionalString('method', /^[A-Za-z]+$/);
    this.number('rate', 0, 1);
    this.number('seed', 0, 2 ** 32 - 1, true);
    this.number('count', 1, Number.MAX_SAFE_INTEGER, true);
    this.optionalString('token', /^\S+$/);
  }

  kindOptions(kind: FaultKind): void {
    switch (kind) {
      case 'latency':
        this.required('ms');
        return this.number('ms', 0, MAX_LATENCY_MS);
      case 'status':
        this.required('status');
        this.number('status', 400, 599, true);
        this.number('retryAfter', 0, 86_400, true);
        return this.boolean('after');
      case 'reset':
        this.optionalString('when', /^(response|upload)$/);
        if (this.rule.when === 'upload' && this.rule.after !== undefined) throw this.problem('after', 'an upload is cut before the operation can finish');
        this.boolean('after');
        return this.number('bytes', 0, Number.MAX_SAFE_INTEGER, true);
      case 'wrongTypes':
        return this.optionalString('remove', /^.+$/);
      case 'huge':
        this.optionalString('field', /^.+$/);
        return this.number('bytes', 1, MAX_HUGE_BYTES, true);
      case 'html':
        this.number('status', 200, 599, true);
        return this.boolean('after');
      case 'foreignNext':
        return this.origin();
      case 'insert':
        if (this.rule.item !== undefined && this.rule.copy !== undefined) throw this.problem('copy', 'give either "item" or "copy", not both');
        this.number('copy', 0, 10_000, true);
        return this.number('at', 0, 10_000, true);
      default:
        return undefined;
    }
  }

  private origin(): void {
    const origin = this.rule.origin;
    if (origin === undefined) return;
    let url: URL | undefined;
    try {
      url = typeof origin === 'string' ? new URL(origin) : undefined;
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || typeof origin !== 'string' || url.origin !== origin.replace(/\/$/, '')) {
      throw this.problem('origin', 'expected an origin such as "http://proxy.example:8443"');
    }
  }

  private required(key: string): void {
    if (this.rule[key] === undefined) throw this.problem(key, 'required');
  }

  private number(key: string, min: number, max: number, integer = false): void {
    const value = this.rule[key];
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
      throw this.problem(key, `expected ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, got ${JSON.stringify(value)}`);
    }
  }

  private boolean(key: string): void {
    const value = this.rule[key];
    if (value !== undefined && typeof value !== 'boolean') throw this.problem(key, `expected true or false, got ${JSON.stringify(value)}`);
  }

  private optionalString(key: string, pattern: RegExp): void {
    const value = this.rule[key];
    if (value !== undefined && (typeof value !== 'string' || !pattern.test(value))) throw this.problem(key, `not a valid value: ${JSON.stringify(value)}`);
  }

  private problem(key: string, message: string): Error {
    return new Error(`${this.where}.${key}: ${message}.`);
  }
}
