/**
 * The bearer token of `agent-workbench mcp --port` when none is given: 127.0.0.1 is open to every user of
 * the machine, so the server always requires one. A new random token goes to a file only its owner can
 * read — in a new folder (mode 0700, made by mkdtemp, so no other user can have made it first) under the
 * user's runtime folder or the temp folder — and only the file's path is ever printed.
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Env } from './environment';

/** Where the token is, and how to remove it when the server stops. */
export interface TokenFile {
  file: string;
  remove(): Promise<void>;
}

/** Writes `token` to `<runtime or temp folder>/agent-workbench-mcp-XXXXXX/token` (folder 0700, file 0600). */
export async function writeTokenFile(token: string, env: Env): Promise<TokenFile> {
  const base = (await usableFolder(env.XDG_RUNTIME_DIR)) ?? os.tmpdir();
  const folder = await fs.mkdtemp(path.join(base, 'agent-workbench-mcp-'));
  await fs.chmod(folder, 0o700);
  const file = path.join(folder, 'token');
  await fs.writeFile(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  return { file, remove: () => fs.rm(folder, { recursive: true, force: true }) };
}

async function usableFolder(folder: string | undefined): Promise<string | undefined> {
  if (!folder || !path.isAbsolute(folder)) return undefined;
  const stat = await fs.stat(folder).catch(() => undefined);
  return stat?.isDirectory() ? folder : undefined;
}
