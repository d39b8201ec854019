/**
 * `agent-workbench export-policy <id|name>`: a policy's current version as `<name>.policy.json`, the file
 * `try --policy` reads and *Export Policy to Workspace* writes, so that a team starts without the editor.
 * Written inside the current folder (or `--out`), whole or not at all, never through a link, and never
 * over a file unless `--force`.
 */
import * as path from 'node:path';
import type { Policy, ServiceClient } from '../core/client';
import { isServiceError } from '../core/client';
import { ConfinedWriteRefused, writeConfined } from '../core/confinedWrite';
import { agentFileSlug } from '../core/runs/runFilePath';
import { policyFileText } from '../core/trial/policyFile';
import { isTrialEntity } from '../core/trial/trialMarker';
import { CONNECTION_ENV, clientFromEnv, type Env } from './environment';
import type { CliIo } from './tryCommand';
import { parseCommandArgs, UsageError } from './usageError';

export const EXPORT_POLICY_USAGE = `Usage: agent-workbench export-policy <id|name> [--out <folder>] [--force]

Writes the policy's current version as <name>.policy.json (the policy's name in lower case with dashes):
the file agent-workbench try --policy reads, as Export Policy to Workspace writes it. Edit its content,
then try it. A name must match one policy (exactly, else regardless of case); when several match they
are listed with their ids, and the id picks one.

Options:
  --out FOLDER  where the file goes (default: the current folder)
  --force       replace the file when it exists (without it an existing file is never replaced)
  --help        show this text

${CONNECTION_ENV}
Exit code: 0 when the file was written, 2 when it was not (the reason on stderr).`;

/** Runs `export-policy` with its arguments (after the command name); answers the exit code. */
export async function runExportPolicy(args: readonly string[], env: Env, io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs({ args: [...args], strict: true, allowPositionals: true, options: { out: { type: 'string' }, force: { type: 'boolean' }, help: { type: 'boolean' } } });
  if (values.help) {
    io.out(EXPORT_POLICY_USAGE);
    return 0;
  }
  if (positionals.length !== 1 || !positionals[0]!.trim()) throw new UsageError('give one policy, by its id or its name (quoted if it has spaces).');
  const client = clientFromEnv(env, 'agent-workbench-cli');
  const cwd = io.cwd ?? process.cwd();
  const root = path.resolve(cwd, values.out ?? '.');
  try {
    const policy = await findPolicy(client, positionals[0]!.trim());
    const versionId = policy.current_version_id;
    const version = versionId ? await client.policies.getVersion(policy.id, versionId) : undefined;
    const file = `${agentFileSlug(policy.name, 'policy')}.policy.json`;
    const written = await writeConfined(root, file, policyFileText(policy, versionId, version?.content ?? {}), { exclusive: !values.force });
    const shown = path.relative(cwd, written) || file;
    io.out(`Exported ${policy.name} (${policy.id}), ${version ? `version "${version.version_name ?? 'unnamed'}" (${version.id})` : 'which has no version yet'}, to ${shown}.`);
    io.out(`Edit its content, then: agent-workbench try --policy ${shown} --test-set <cases.testset.jsonl>`);
    return 0;
  } catch (error) {
    const hint = error instanceof ConfinedWriteRefused && error.reason === 'exists' ? ' --force replaces it.' : '';
    io.err(`agent-workbench export-policy: ${error instanceof Error ? error.message : String(error)}${hint}`);
    return 2;
  } finally {
    await client.close();
  }
}

/** The one policy `wanted` names: by id, else by its name exactly, else by its name regardless of case; trial copies never. */
async function findPolicy(client: ServiceClient, wanted: string): Promise<Policy> {
  const byId = await client.policies.get(wanted).catch((error: unknown) => {
    // Not an id (or not one of this organization's): the name is tried next.
    if (isServiceError(error) && (error.status === 404 || error.status === 400)) return undefined;
    throw error;
  });
  if (byId) return byId;
  const policies: Policy[] = [];
  for await (const policy of client.policies.items({ search: wanted })) if (!isTrialEntity(policy)) policies.push(policy);
  const exact = policies.filter((p) => p.name === wanted);
  const found = exact.length ? exact : policies.filter((p) => p.name.toLowerCase() === wanted.toLowerCase());
  if (found.length === 1) return found[0]!;
  if (found.length === 0) throw new Error(`no policy has the id or the name "${wanted}".`);
  throw new Error(`"${wanted}" names ${found.length} policies: ${found.map((p) => `${p.name} (${p.id})`).join(', ')}. Give the id of the one to export.`);
}
