// Run → the job on screen: from the run command (what ▶ Run in a run file calls) to the new row in the
// Agents view, timed in the extension host, against one raw request's round trip from the same
// process in the same run. The budget is one round trip and one frame: checking the file, the client,
// the store and the tree may add no more than VS Code needs to draw the row.
import { BULK_AGENT_NAME } from '../../src/sandbox/seed/largeSeed';
import { type Figure, ms, spread } from '../lib/figures';
import type { HostSession } from '../lib/hostSession';
import type { Sandbox } from '../lib/services';
import { median, round } from '../lib/stats';

const ROUNDS = 9;
/** One frame at 60 Hz. */
const FRAME_MS = 1000 / 60;

/** Measures Run → row against a raw round trip, ROUNDS times after a warm-up, alternating. */
export async function runToRow(session: HostSession, sandbox: Sandbox): Promise<Figure[]> {
  const { host } = session;
  await host.call('connect', { baseUrl: sandbox.baseUrl, organizationId: sandbox.organizationId, token: sandbox.token });
  await host.call('closeEditors');
  const inputs = { ticket_text: 'The customer asks for a refund of the second charge.' };
  const sample = await host.call('runToRow', { agentName: BULK_AGENT_NAME, inputs, rounds: ROUNDS, baseUrl: sandbox.baseUrl, organizationId: sandbox.organizationId, token: sandbox.token }, 5 * 60_000);
  const run = median(sample.runMs);
  const raw = median(sample.rawMs);
  return [
    {
      key: 'runs.toRow',
      title: 'Run → the new row in the Agents view (extension host)',
      ours: ms(run),
      spread: spread(sample.runMs, ms),
      reference: `one raw POST from the extension host: ${ms(raw)} (${spread(sample.rawMs, ms)?.text ?? '—'})`,
      ratio: round(run / raw, 2),
      budget: '≤ 1 round trip + one frame',
      within: run <= raw + FRAME_MS,
      method:
        `Large seed, the Agents view's "${BULK_AGENT_NAME}" with its Jobs list loaded. ${ROUNDS} rounds after a warm-up, in the extension host of code-server: ` +
        'the command the ▶ Run CodeLens of a run file calls (agentWorkbench.runs.runFile, on an untitled run file of one input set: the file checked, the ' +
        'request through the client, the job given to the store, watched in the status bar), timed with performance.now() from the call to the Agents ' +
        "view's provider answering the agent's Jobs list with the new job in it (its tree item made), after the tree's change event. Beside each, the same " +
        `body as one raw POST (fetch from the extension host, a warm connection). Budget: the raw round trip plus one frame (${ms(FRAME_MS)}). Medians.`,
      values: { runMs: sample.runMs.map((x) => round(x, 2)), rawMs: sample.rawMs.map((x) => round(x, 2)) },
    },
  ];
}
