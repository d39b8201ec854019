// One upload through the extension's Upload command path (checks, progress, streaming client),
// with the extension host's memory sampled while it runs.
import { PerformanceObserver, constants } from 'node:perf_hooks';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as vscode from 'vscode';
import { profiled } from '../profiler';
import { MEMORY_SAMPLE_MS, type UploadArgs, type UploadSample } from '../protocol';
import { workbenchApi } from '../workbench';


type Memory = Omit<UploadSample, 'ok' | 'reason' | 'ms' | 'bytes' | 'gc'>;

/** Samples the host's memory until stopped; keeps the peaks. */
function memorySampler(): { stop(): Memory } {
  const before = process.memoryUsage();
  const peak = { rss: before.rss, heap: before.heapUsed, external: before.external, arrayBuffers: before.arrayBuffers };
  let samples = 0;
  const take = (): void => {
    const now = process.memoryUsage();
    samples++;
    peak.rss = Math.max(peak.rss, now.rss);
    peak.heap = Math.max(peak.heap, now.heapUsed);
    peak.external = Math.max(peak.external, now.external);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, now.arrayBuffers);
  };
  const timer = setInterval(take, MEMORY_SAMPLE_MS);
  return {
    stop: () => {
      clearInterval(timer);
      take();
      return {
        rssBeforeBytes: before.rss,
        rssPeakBytes: peak.rss,
        heapBeforeBytes: before.heapUsed,
        heapPeakBytes: peak.heap,
        externalPeakBytes: peak.external,
        arrayBuffersPeakBytes: peak.arrayBuffers,
        samples,
      };
    },
  };
}

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

/** Counts the extension host's garbage collections and their time by kind until stopped. */
function gcCounter(): { stop(): UploadSample['gc'] } {
  const gc: UploadSample['gc'] = {};
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = GC_KINDS[(entry as { detail?: { kind?: number } }).detail?.kind ?? -1] ?? 'other';
      const seen = (gc[kind] ??= { count: 0, ms: 0 });
      seen.count++;
      seen.ms = Math.round((seen.ms + entry.duration) * 10) / 10;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop: () => {
      observer.disconnect();
      return gc;
    },
  };
}

/** The extension host's heap after a full garbage collection (what is really retained), in bytes. */
export function retainedHeap(): number {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

/** Uploads one file to an organization dataset the way the Upload command does, answering its questions. */
export async function uploadFile(args: UploadArgs): Promise<UploadSample> {
  const api = await workbenchApi();
  const target = (await api.datasets.targets()).find((t) => t.dataset.id === args.datasetId && !t.personal);
  if (!target) throw new Error(`Dataset ${args.datasetId} is not among the datasets the extension lists.`);
  const prompts = api.uploads.prompts;
  // A 1 GiB file is above the confirmation threshold: the benchmark answers "Upload" as a user would.
  api.uploads.prompts = { pickDataset: () => Promise.resolve(target), metadata: () => Promise.resolve(''), confirm: () => Promise.resolve(true), refused: () => Promise.resolve(true) };
  const { size } = await vscode.workspace.fs.stat(vscode.Uri.file(args.filePath));
  const sampler = memorySampler();
  const collections = gcCounter();
  let memory: Memory | undefined;
  const started = performance.now();
  try {
    const send = () => api.uploads.upload([vscode.Uri.file(args.filePath)], target, '');
    const [outcome] = await (args.profileTo ? profiled(args.profileTo, send) : send());
    const ms = performance.now() - started;
    memory = sampler.stop();
    return { ok: outcome?.ok === true, reason: outcome?.ok ? undefined : outcome?.reason, ms, bytes: size, ...memory, gc: collections.stop() };
  } finally {
    if (!memory) {
      sampler.stop();
      collections.stop();
    }
    api.uploads.prompts = prompts;
  }
}
