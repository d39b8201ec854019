// A long session in the real extension host: 200 service documents, 20 job views and 20 result
// panels opened and closed, 5,000 jobs paged through in the Agents view, 50 jobs watched through 500
// polls. The host's heap (after a forced full collection) and its handles, before and after.
import type { SoakSample } from '../host/protocol';
import { type Figure, size, spread } from '../lib/figures';
import type { HostSession } from '../lib/hostSession';
import type { Sandbox } from '../lib/services';
import { median } from '../lib/stats';

const SOAKS = 2;
const BUDGET_HEAP_BYTES = 10 * 1024 * 1024;
/** A timer or socket that happens to be alive at either snapshot is not a leak; growth beyond this is. */
const HANDLE_SLACK = 3;
const ARGS = {
  agentName: 'Bulk Transcript Reviewer',
  documents: 200,
  jobs: 5000,
  jobViews: 20,
  resultPanels: 20,
  watched: 50,
  polls: 500,
  // The watcher's timer waits at least 2 s; the soak polls through the watcher itself, 20 ms apart.
  pollSpacingMs: 20,
};

function describeResources(sample: SoakSample): string {
  const kinds = [...new Set([...Object.keys(sample.before.resources), ...Object.keys(sample.after.resources)])].sort();
  return kinds.map((k) => `${k} ${sample.before.resources[k] ?? 0} → ${sample.after.resources[k] ?? 0}`).join(', ');
}

/** Runs the soak SOAKS times in one extension host (each measured from its own start). */
export async function soak(session: HostSession, sandbox: Sandbox): Promise<Figure[]> {
  const { host } = session;
  await host.call('connect', { baseUrl: sandbox.baseUrl, organizationId: sandbox.organizationId, token: sandbox.token });
  await host.call('closeEditors');
  const samples: SoakSample[] = [];
  for (let i = 0; i < SOAKS; i++) samples.push(await host.call('soak', ARGS, 10 * 60_000));
  const growth = samples.map((s) => s.after.heapBytes - s.before.heapBytes);
  const handleGrowth = samples.map((s) => s.after.handles - s.before.handles);
  const worst = Math.max(...growth);
  const last = samples.at(-1) as SoakSample;
  const phases = last.phases.map((p) => `${p.count.toLocaleString('en-US')} ${p.name}${p.ms ? ` (${(p.ms / 1000).toFixed(1)} s)` : ''}`).join('; ');
  const method =
    `In the extension host of code-server, against the large-seed sandbox, ${SOAKS} soaks one after the other, each after a warm-up round: ${phases}. ` +
    'Documents are policy versions opened through the extension (closed ten at a time); job views are opened with the agentWorkbench.jobs.open command ' +
    '(whatever it opens), result panels by Run Query with a small query; the jobs are paged with the Agents view\'s "Load more" (then the view is ' +
    'reset); the watched jobs are polled through the status bar\'s watcher, 20 ms apart (its own timer waits at least 2 s). Every editor is closed at ' +
    'the end. Snapshots after a forced full collection: heap used, and process.getActiveResourcesInfo() (handles and requests). ' +
    `Documents the editable file system holds: ${last.before.documents ?? '—'} before, ${last.after.documents ?? '—'} after (it lets a document go when ` +
    'VS Code closes it; VS Code itself keeps the last 50 documents an extension opened for 3 minutes after their editors close).';
  return [
    {
      key: 'soak.heap',
      title: 'a long session: extension-host heap growth',
      ours: size(Math.max(0, worst)),
      spread: spread(growth, (b) => (b < 0 ? `−${size(-b)}` : size(b))),
      reference: `heap before: ${size(median(samples.map((s) => s.before.heapBytes)))}`,
      ratio: null,
      budget: '≤ 10 MB after a forced GC',
      within: worst <= BUDGET_HEAP_BYTES,
      method: `${method} The figure is the larger growth of the ${SOAKS} soaks.`,
      values: { samples },
    },
    {
      key: 'soak.handles',
      title: 'a long session: extension-host handles',
      ours: samples.map((s) => `${s.before.handles} → ${s.after.handles}`).join(', '),
      reference: '—',
      ratio: null,
      budget: `back to the count before (± ${HANDLE_SLACK})`,
      within: handleGrowth.every((g) => g <= HANDLE_SLACK),
      method: `The same soaks: active handles and requests before → after, by kind in the last soak: ${describeResources(last)}.`,
      values: { handleGrowth },
    },
  ];
}
