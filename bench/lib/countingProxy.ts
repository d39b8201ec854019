// A pass-through HTTP proxy on 127.0.0.1 that counts the requests going through it, by method and
// route (ids folded), so a figure can say exactly what a client sent on the wire.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Requests seen since the last reset, by `METHOD /route/` (query left out, ids as `{id}`). */
export type RouteCounts = Record<string, number>;

export interface CountingProxy {
  /** The proxy's base URL (same path layout as the target). */
  url: string;
  /** Forgets what was counted so far. */
  reset(): void;
  counts(): RouteCounts;
  /** The paths (with their queries) of the requests seen since the last reset, in order. */
  paths(): string[];
  total(): number;
  close(): Promise<void>;
}

/** Starts a proxy in front of `targetBaseUrl` (an http origin). */
export async function startCountingProxy(targetBaseUrl: string): Promise<CountingProxy> {
  const target = new URL(targetBaseUrl);
  const agent = new http.Agent({ keepAlive: true });
  let counts: RouteCounts = {};
  let paths: string[] = [];
  const server = http.createServer((req, res) => {
    const route = `${req.method} ${(req.url ?? '').split('?')[0]?.replace(UUID, '{id}')}`;
    counts[route] = (counts[route] ?? 0) + 1;
    paths.push(req.url ?? '');
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host }, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${error.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    reset: () => {
      counts = {};
      paths = [];
    },
    counts: () => ({ ...counts }),
    paths: () => [...paths],
    total: () => Object.values(counts).reduce((a, b) => a + b, 0),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
