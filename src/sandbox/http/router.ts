import { isUuid } from './fields';

/** What a handler answers: a status, a JSON body (none for 204) and extra headers. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

type Part = { literal: string } | { param: string; any: boolean };

interface Route<H> {
  method: string;
  parts: Part[];
  handler: H;
}

/** The outcome of matching a request: a handler with its path parameters, or the methods the path allows. */
export type RouteMatch<H> = { handler: H; params: Record<string, string> } | { allowed: string[] };

/**
 * Routes by method and path. Path parameters are written `{name}` and only match UUIDs, like
 * Django's `<uuid:...>` converter: a malformed id finds no route and is answered 404, consistently
 * everywhere. A trailing slash is optional.
 */
export class Router<H> {
  private readonly routes: Route<H>[] = [];

  /**
   * Adds a route, e.g. `add('GET', '/v1/agents/{agent_id}/', handler)`. `{name:text}` matches any one
   * segment (a table name), for the handler to check; add literal routes beside it first.
   */
  add(method: string, pattern: string, handler: H): this {
    const parts = splitPath(pattern).map((s): Part => {
      if (!s.startsWith('{')) return { literal: s };
      const [param = '', kind] = s.slice(1, -1).split(':');
      return { param, any: kind === 'text' };
    });
    this.routes.push({ method, parts, handler });
    return this;
  }

  /** The handler for a request, the allowed methods when only the method is wrong, or undefined (404). */
  match(method: string, path: string): RouteMatch<H> | undefined {
    let segments: string[];
    try {
      segments = splitPath(path).map((s) => decodeURIComponent(s));
    } catch {
      return undefined;
    }
    const allowed: string[] = [];
    for (const route of this.routes) {
      const params = matchParts(route.parts, segments);
      if (!params) continue;
      if (route.method === method) return { handler: route.handler, params };
      if (!allowed.includes(route.method)) allowed.push(route.method);
    }
    return allowed.length > 0 ? { allowed } : undefined;
  }
}

function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

function matchParts(parts: Part[], segments: string[]): Record<string, string> | undefined {
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const segment = segments[i]!;
    if ('literal' in part) {
      if (part.literal !== segment) return undefined;
    } else if (part.any) {
      params[part.param] = segment;
    } else {
      if (!isUuid(segment)) return undefined;
      params[part.param] = segment.toLowerCase();
    }
  }
  return params;
}
