/** Reads of policies: the list, one version's content, and what changed between two versions. */
import * as z from 'zod';
import { clip, count, listText } from './answers';
import { defineTool } from './toolTypes';

/** Most changed paths listed. */
const MAX_CHANGES = 60;

/** The paths where two JSON values differ, with the value before and after (clipped). */
export function jsonChanges(before: unknown, after: unknown, at = '', out: { path: string; before: unknown; after: unknown }[] = []): { path: string; before: unknown; after: unknown }[] {
  if (out.length >= MAX_CHANGES || JSON.stringify(before) === JSON.stringify(after)) return out;
  const both = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';
  if (both(before) && both(after) && Array.isArray(before) === Array.isArray(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    for (const key of keys) jsonChanges(before[key], after[key], Array.isArray(before) ? `${at}[${key}]` : at ? `${at}.${key}` : key, out);
    return out;
  }
  out.push({ path: at || '(whole)', before: shortValue(before), after: shortValue(after) });
  return out;
}

function shortValue(v: unknown): unknown {
  if (v === undefined) return '(absent)';
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > 200 ? clip(text, 200) : v;
}

const PolicyChange = z.object({ path: z.string(), before: z.unknown(), after: z.unknown() });

/** What read_policy answers: the list, a policy with no version, the differences of two versions, or one version's content. */
const PolicyRead = z.union([
  z.object({ policies: z.array(z.object({ id: z.string(), name: z.string(), current_version_id: z.string().nullable() })) }),
  z.object({ policy: z.object({ id: z.string(), name: z.string() }) }),
  z.object({ policy_id: z.string(), version_id: z.string(), compare_to: z.string(), changes: z.array(PolicyChange) }),
  z.object({ policy_id: z.string(), version_id: z.string(), version_name: z.string().nullable(), content: z.unknown() }),
]);

export const readPolicy = defineTool({
  name: 'read_policy',
  title: 'Read a policy',
  kind: 'read',
  description:
    "Without policy_id: lists the organization's policies (id, name, current version). With policy_id: the content of one version (default the current one) and, with compare_to, the paths where it differs from another version (before → after). Reads only; costs nothing.",
  input: z.strictObject({
    policy_id: z.string().min(1).max(200).optional().describe('The policy id; leave out to list policies.'),
    version_id: z.string().min(1).max(200).optional().describe('The version to read; default the current version.'),
    compare_to: z.string().min(1).max(200).optional().describe('Another version id of the same policy: answer what differs from it.'),
  }),
  output: PolicyRead,
  reads: (i) => (i.policy_id ? `policy ${i.policy_id}${i.compare_to ? ' and the difference between two versions' : ''}` : 'the list of policies'),
  async run(i, ctx) {
    const opts = { signal: ctx.signal };
    if (!i.policy_id) {
      const policies = [];
      for await (const p of ctx.client.policies.items({}, opts)) policies.push({ id: p.id, name: p.name, current_version_id: p.current_version_id });
      return { text: listText(`${count(policies.length, 'policy', 'policies')}.`, policies.map((p) => `${p.name} (${p.id})`)), data: { policies } };
    }
    const policy = await ctx.client.policies.get(i.policy_id, opts);
    const versionId = i.version_id ?? policy.current_version_id;
    if (!versionId) return { text: `${policy.name} (${policy.id}) has no version yet.`, data: { policy: { id: policy.id, name: policy.name } } };
    const version = await ctx.client.policies.getVersion(i.policy_id, versionId, opts);
    const head = `${policy.name} (${policy.id}), version ${version.version_name ?? version.id} (${version.id})${version.id === policy.current_version_id ? ', current' : ''}.`;
    if (i.compare_to) {
      const other = await ctx.client.policies.getVersion(i.policy_id, i.compare_to, opts);
      const changes = jsonChanges(other.content, version.content);
      const lines = changes.map((c) => `${c.path}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`);
      return { text: listText(`${head} Compared with ${other.version_name ?? other.id}: ${changes.length === 0 ? 'no difference' : `${changes.length}${changes.length >= MAX_CHANGES ? '+' : ''} changed paths`}.`, lines), data: { policy_id: policy.id, version_id: version.id, compare_to: other.id, changes } };
    }
    const content = JSON.stringify(version.content, null, 1);
    return { text: `${head}\nContent (${content.length.toLocaleString('en-US')} characters):\n${content.length > 8000 ? `${content.slice(0, 8000)}\n…clipped; the structured result has it whole.` : content}`, data: { policy_id: policy.id, version_id: version.id, version_name: version.version_name ?? null, content: version.content } };
  },
});
