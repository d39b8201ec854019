/**
 * Rule coverage with what it needs read: the policy version (through the service client, or content in
 * hand: a policy file, an editor's buffer) and the test set's newest comparison (or a given one) inside a
 * root. The one function behind the `rule_coverage` tool and `agent-workbench coverage`.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { ServiceClient } from '../client';
import { findNewestComparison } from '../comparison/comparisonFiles';
import { parseComparison, type ComparisonRecord } from '../comparison/comparisonRecord';
import { isInsideFolder } from '../runs/workspacePath';
import { ruleCoverage, type RuleCoverage } from './ruleCoverage';

/** The policy version to cover: one of the service's (default its current version), or content in hand. */
export type CoveragePolicy =
  | { policyId: string; versionId?: string }
  /** `source`: where the content is (a policy file's path, "the editor"), said in answers. */
  | { content: unknown; name: string; source: string; policyId?: string; versionId?: string | null; versionName?: string };

export interface ReadRuleCoverageOptions {
  policy: CoveragePolicy;
  /** The test set, absolute or relative to `root`. */
  testSet: string;
  /** The folder comparisons are read in. */
  root: string;
  /** A comparison file to read instead of the test set's newest (absolute or relative to `root`). */
  comparison?: string;
  /** The target whose outputs count; default the trial's, else the current version now (ruleCoverage.ts). */
  targetId?: string;
  signal?: AbortSignal;
}

/** Coverage with what it was read from. */
export interface RuleCoverageReport {
  coverage: RuleCoverage;
  /** The version covered; `source` set when the content came in hand rather than from the service. */
  policy: { id: string | null; name: string; versionId: string | null; versionName: string | null; current: boolean; source?: string };
  /** The test set's file name. */
  testSet: string;
  /** The comparison read (absolute path) and its title. */
  comparisonFile: string;
  comparisonTitle: string;
}

/** Reads the policy version and the comparison, then computes the coverage; throws one sentence when either cannot be read. */
export async function readRuleCoverage(client: ServiceClient | undefined, o: ReadRuleCoverageOptions): Promise<RuleCoverageReport> {
  const { file, record } = o.comparison ? await readGivenComparison(o.root, o.comparison) : await newestOf(o.root, o.testSet);
  const policy = await readPolicyVersion(client, o.policy, o.signal);
  const newestVersionId = o.targetId === undefined ? await newestVersionOf(client, record, o.signal) : undefined;
  return {
    coverage: ruleCoverage(policy.content, record, { targetId: o.targetId, newestVersionId }),
    policy: policy.about,
    testSet: path.basename(o.testSet),
    comparisonFile: file,
    comparisonTitle: record.title,
  };
}

/** Of the agent versions a comparison ran (two or more), the one created last, when the service says. */
async function newestVersionOf(client: ServiceClient | undefined, record: ComparisonRecord, signal?: AbortSignal): Promise<string | undefined> {
  const ran = new Set(record.targets.flatMap((t) => (t.kind === 'version' ? [t.agentVersionId] : [])));
  if (!client || ran.size < 2) return undefined;
  const versions = (await client.agents.listVersions(record.agentId, { signal })).filter((v) => ran.has(v.id));
  return versions.reduce<(typeof versions)[number] | undefined>((newest, v) => (!newest || v.created_at > newest.created_at ? v : newest), undefined)?.id;
}

async function newestOf(root: string, testSet: string): Promise<{ file: string; record: ComparisonRecord }> {
  const found = await findNewestComparison(root, testSet);
  if (found.newest) return found.newest;
  const unreadable = found.unreadable.length ? ` (${found.unreadable.join(', ')} could not be read as a comparison)` : '';
  throw new Error(`${path.basename(testSet)} has no comparison beside it${unreadable}: run it first (Run Comparison of a Test Set…, the run_comparison tool, or agent-workbench try).`);
}

async function readGivenComparison(root: string, comparison: string): Promise<{ file: string; record: ComparisonRecord }> {
  const file = path.resolve(root, comparison);
  const real = await fs.realpath(file).catch(() => undefined);
  if (!real) throw new Error(`No such comparison file: ${comparison}.`);
  if (!isInsideFolder(await fs.realpath(root), real)) throw new Error(`${comparison} is outside ${root}: comparisons are read only inside it.`);
  return { file, record: parseComparison(await fs.readFile(real, 'utf8')) };
}

async function readPolicyVersion(client: ServiceClient | undefined, policy: CoveragePolicy, signal?: AbortSignal): Promise<{ content: unknown; about: RuleCoverageReport['policy'] }> {
  if ('content' in policy) {
    return { content: policy.content, about: { id: policy.policyId ?? null, name: policy.name, versionId: policy.versionId ?? null, versionName: policy.versionName ?? null, current: false, source: policy.source } };
  }
  if (!client) throw new Error('Reading a policy of the service needs a connection.');
  const found = await client.policies.get(policy.policyId, { signal });
  const versionId = policy.versionId ?? found.current_version_id;
  if (!versionId) throw new Error(`${found.name} (${found.id}) has no version yet, so it has no rules to cover.`);
  const version = await client.policies.getVersion(found.id, versionId, { signal });
  return { content: version.content, about: { id: found.id, name: found.name, versionId: version.id, versionName: version.version_name ?? null, current: version.id === found.current_version_id } };
}
