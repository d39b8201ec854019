// MCP overhead: a read tool (read_jobs) called by a real MCP client over stdio on `dist/cli.js mcp`
// (the command line users install), against the one client call the tool makes (jobs.results through
// dist/core.js in this process), in alternating rounds against the same sandbox.
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { repoRoot } from '../../test/harness/index.mjs';
import { BULK_AGENT_NAME } from '../../src/sandbox/seed/largeSeed';
import { type Figure, ms, spread } from '../lib/figures';
import { bulkAgentId, type CoreBundle, RawHttp, type Sandbox } from '../lib/services';
import { median, round } from '../lib/stats';

const ROUNDS = 7;
const CALLS = 20;
const WARM_UP = 20;
/** Jobs a call reads: a model's "read these failing jobs" (one bulk request). */
const JOBS = 20;
const BUDGET = 1.2;
const SUCCESS = 3;

/** Times `calls` sequential calls of `call`; answers each call's time in ms. */
async function timed(call: () => Promise<unknown>, calls: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  return times;
}

/** Starts `agent-workbench mcp` from dist/cli.js as a child over stdio, connected to `sandbox`. */
async function stdioClient(sandbox: Sandbox): Promise<Client> {
  const env = { ...(process.env as Record<string, string>), AGENT_WORKBENCH_BASE_URL: sandbox.baseUrl, AGENT_WORKBENCH_TOKEN: sandbox.token, AGENT_WORKBENCH_ORGANIZATION_ID: sandbox.organizationId };
  const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(repoRoot, 'dist', 'cli.js'), 'mcp'], env, stderr: 'ignore' });
  const mcp = new Client({ name: 'bench', version: '1' });
  await mcp.connect(transport);
  return mcp;
}

/** Measures read_jobs over MCP stdio against the same client call. */
export async function mcpOverhead(sandbox: Sandbox, core: CoreBundle): Promise<Figure[]> {
  const client = new core.ServiceClient({ baseUrl: sandbox.baseUrl, token: sandbox.token, organizationId: sandbox.organizationId });
  const raw = new RawHttp(sandbox);
  const mcp = await stdioClient(sandbox);
  try {
    const agentId = await bulkAgentId(raw, BULK_AGENT_NAME);
    const listed = await raw.get<{ results: { id: string }[] }>(`/v1/agents/${agentId}/jobs/?page_size=${JOBS}&status_code=${SUCCESS}`);
    const ids = listed.body.results.map((j) => j.id);
    if (ids.length < JOBS) throw new Error(`The large seed gave ${ids.length} finished jobs, not ${JOBS}.`);
    const viaClient = (): Promise<unknown> => client.jobs.results(ids);
    const viaMcp = async (): Promise<unknown> => {
      const answer = await mcp.callTool({ name: 'read_jobs', arguments: { job_ids: ids } });
      if (answer.isError) throw new Error(`read_jobs answered an error: ${JSON.stringify(answer.content).slice(0, 300)}`);
      return answer;
    };
    await timed(viaClient, WARM_UP);
    await timed(viaMcp, WARM_UP);
    const clientMs: number[] = [];
    const mcpMs: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      // Alternating which goes first keeps a drift of the machine from favouring one side.
      const order: Array<[() => Promise<unknown>, number[]]> = r % 2 === 0 ? [[viaMcp, mcpMs], [viaClient, clientMs]] : [[viaClient, clientMs], [viaMcp, mcpMs]];
      for (const [call, times] of order) times.push(median(await timed(call, CALLS)));
    }
    // The floor of any MCP call on this machine: a ping's round trip over the same pipes.
    const pingMs = await timed(() => mcp.ping(), CALLS);
    const roundRatios = mcpMs.map((m, i) => m / (clientMs[i] as number));
    const ratio = median(roundRatios);
    return [
      {
        key: 'mcp.readOverhead',
        title: `MCP: a read tool (read_jobs, ${JOBS} jobs) over stdio`,
        ours: ms(median(mcpMs)),
        spread: spread(mcpMs, ms),
        reference: `the same client call (jobs.results): ${ms(median(clientMs))}`,
        ratio: round(ratio, 2),
        budget: `≤ ${BUDGET}× the client call`,
        within: ratio <= BUDGET,
        method:
          `read_jobs of ${JOBS} finished jobs of the large seed's bulk agent, called by an MCP client of @modelcontextprotocol/sdk over stdio on ` +
          `\`node dist/cli.js mcp\` (a child process with the sandbox's connection in its environment: JSON-RPC both ways, the input schema, the ` +
          `tool's answer as text and structured data), against the one call the tool makes, client.jobs.results of the same ids through dist/core.js in the ` +
          `benchmark's process, one call after the other. ${ROUNDS} alternating rounds of ${CALLS} calls each after ${WARM_UP} warm-up calls of each; a round's ` +
          `figure is its median call; ratio = median of the per-round ratios (MCP ÷ client). Beside it, an MCP ping over the same pipes (the ` +
          `round trip every call pays): ${ms(median(pingMs))}.`,
        values: { pingMs: round(median(pingMs), 3), mcpRoundMs: mcpMs.map((x) => round(x, 3)), clientRoundMs: clientMs.map((x) => round(x, 3)), roundRatios: roundRatios.map((x) => round(x, 3)), jobs: JOBS },
      },
    ];
  } finally {
    await mcp.close();
    await client.close();
    await raw.close();
  }
}
