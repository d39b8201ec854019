import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isAlive } from './persistence';

const PREFIX = 'agent-workbench-sandbox-';
const OWNER_FILE = 'owner.pid';

/** Makes the temporary folder of an in-memory sandbox: uploads go to `<root>/files`; the owner's process id sits beside them. */
export function makeTempFolder(): { root: string; filesDir: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), PREFIX));
  fs.writeFileSync(path.join(root, OWNER_FILE), String(process.pid));
  const filesDir = path.join(root, 'files');
  fs.mkdirSync(filesDir);
  return { root, filesDir };
}

/**
 * Removes the temporary folders of in-memory sandboxes whose process is gone: one killed outright
 * (SIGKILL, a crash) never got to remove its own. Folders of live sandboxes are left alone.
 */
export function removeAbandonedTempFolders(): void {
  let names: string[];
  try {
    names = fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith(PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const root = path.join(os.tmpdir(), name);
    try {
      const owner = Number(fs.readFileSync(path.join(root, OWNER_FILE), 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && !isAlive(owner)) fs.rmSync(root, { recursive: true, force: true });
    } catch {
      // No owner file (being created right now, or not ours to judge): leave it.
    }
  }
}
