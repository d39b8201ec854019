import * as vscode from 'vscode';
import { JOB_ORDERINGS, DEFAULT_JOB_ORDERING, metadataFilterProblem, type JobFilter } from '../../core/filters/jobFilter';
import { orderingLabel } from '../../core/filters/agentFilter';
import { ALL_JOB_STATUS_CODES, jobStatusName } from '../../core/jobStatus';
import { CancelledError } from '../util/errors';
import type { JobsNode } from './jobNodes';

type MenuItem = vscode.QuickPickItem & { run: (f: JobFilter) => Promise<JobFilter> };

/** The filter menu of one agent's jobs: status, version, dates, metadata, similar text, ordering. */
export async function filterJobs(node: JobsNode): Promise<void> {
  const f = node.filter;
  const items: MenuItem[] = [
    { label: '$(pulse) Status…', description: f.statuses?.map(jobStatusName).join(', ') ?? 'any', run: async (x) => ({ ...x, statuses: await pickStatuses(x.statuses) }) },
    { label: '$(versions) Version…', description: f.versionName ?? 'any', run: async (x) => ({ ...x, versionName: await pickVersion(node, x.versionName) }) },
    { label: '$(calendar) Created Between…', description: dateRangeText(f), run: async (x) => ({ ...x, ...(await pickDateRange(x)) }) },
    { label: '$(symbol-key) Metadata…', description: f.metadata ?? 'any', run: async (x) => ({ ...x, metadata: await askMetadata(x.metadata) }) },
    { label: '$(sparkle) Similar To…', description: f.similarTo ?? 'semantic search over inputs and metadata', run: async (x) => ({ ...x, similarTo: await askSimilar(x.similarTo) }) },
    { label: '$(list-ordered) Sort By…', description: orderingLabel(f.ordering ?? DEFAULT_JOB_ORDERING), run: async (x) => ({ ...x, ordering: await pickOrdering(x.ordering) }) },
    { label: '$(clear-all) Clear Filter', run: () => Promise.resolve({}) },
  ];
  const pick = await vscode.window.showQuickPick(items, { title: `Filter Jobs of ${node.parent.agent.name}`, placeHolder: 'Choose what to change' });
  if (!pick) throw new CancelledError();
  node.setFilter(await pick.run(f));
}

function dateRangeText(f: JobFilter): string {
  if (!f.createdFrom && !f.createdTo) return 'any time';
  return `${f.createdFrom?.slice(0, 16).replace('T', ' ') ?? '…'} – ${f.createdTo?.slice(0, 16).replace('T', ' ') ?? 'now'}`;
}

async function pickStatuses(current: number[] | undefined): Promise<number[] | undefined> {
  const items = ALL_JOB_STATUS_CODES.map((code) => ({ label: jobStatusName(code), code, picked: current?.includes(code) ?? false }));
  const picked = await vscode.window.showQuickPick(items, { title: 'Show only jobs with these statuses', canPickMany: true, placeHolder: 'None picked = any status' });
  if (!picked) throw new CancelledError();
  return picked.length ? picked.map((p) => p.code) : undefined;
}

async function pickVersion(node: JobsNode, current: string | undefined): Promise<string | undefined> {
  const versions = node.parent.versions;
  await versions.list.ensureLoaded();
  const names = [...new Set(versions.list.loadedItems.map((v) => v.version_name))];
  const items = [{ label: 'Any version', value: '' }, ...names.map((n) => ({ label: n, value: n, description: n === current ? 'current filter' : '' }))];
  const picked = await vscode.window.showQuickPick(items, { title: 'Show only jobs of this version' });
  if (!picked) throw new CancelledError();
  return picked.value || undefined;
}

const HOUR = 3_600_000;

async function pickDateRange(f: JobFilter): Promise<Pick<JobFilter, 'createdFrom' | 'createdTo'>> {
  const now = Date.now();
  const since = (ms: number) => ({ createdFrom: new Date(now - ms).toISOString(), createdTo: undefined });
  const items = [
    { label: 'Any time', range: { createdFrom: undefined, createdTo: undefined } },
    { label: 'Last hour', range: since(HOUR) },
    { label: 'Last 24 hours', range: since(24 * HOUR) },
    { label: 'Last 7 days', range: since(7 * 24 * HOUR) },
    { label: 'Last 30 days', range: since(30 * 24 * HOUR) },
    { label: '$(edit) Custom range…', range: undefined },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: 'Jobs created' });
  if (!picked) throw new CancelledError();
  if (picked.range) return picked.range;
  const from = await askDate('Created from', 'Earliest creation time, e.g. 2026-11-01 or 2026-11-01T09:00 (empty = no lower bound)', f.createdFrom);
  const to = await askDate('Created to', 'Latest creation time (empty = now)', f.createdTo);
  if (from && to && Date.parse(from) > Date.parse(to)) throw new Error('The start of the range is after its end.');
  return { createdFrom: from, createdTo: to };
}

async function askDate(title: string, prompt: string, value: string | undefined): Promise<string | undefined> {
  const text = await vscode.window.showInputBox({
    title,
    prompt,
    value: value ?? '',
    validateInput: (v) => (!v.trim() || !Number.isNaN(Date.parse(v.trim())) ? undefined : 'Not a date. Use YYYY-MM-DD or YYYY-MM-DDTHH:MM'),
  });
  if (text === undefined) throw new CancelledError();
  return text.trim() ? new Date(Date.parse(text.trim())).toISOString() : undefined;
}

async function askMetadata(current: string | undefined): Promise<string | undefined> {
  const text = await vscode.window.showInputBox({
    title: 'Filter Jobs by Metadata',
    prompt: 'key:value pairs, separated by commas; a job matches when all pairs match. Empty = no metadata filter.',
    placeHolder: 'customer:acme, channel:chat',
    value: current ?? '',
    validateInput: metadataFilterProblem,
  });
  if (text === undefined) throw new CancelledError();
  return text.trim() || undefined;
}

async function askSimilar(current: string | undefined): Promise<string | undefined> {
  const text = await vscode.window.showInputBox({
    title: 'Similar Jobs',
    prompt: 'Describe what you are looking for; jobs whose inputs and metadata are most similar come first. Empty = off.',
    value: current ?? '',
  });
  if (text === undefined) throw new CancelledError();
  return text.trim() || undefined;
}

async function pickOrdering(current: string | undefined): Promise<string | undefined> {
  const items = JOB_ORDERINGS.flatMap((o) => [`-${o}`, o]).map((o) => ({ label: orderingLabel(o), description: o, value: o, picked: o === (current ?? DEFAULT_JOB_ORDERING) }));
  const picked = await vscode.window.showQuickPick(items, { title: 'Sort Jobs By' });
  if (!picked) throw new CancelledError();
  return picked.value === DEFAULT_JOB_ORDERING ? undefined : picked.value;
}
