// One install of a shared tool at a time, across processes: `npm run demo`, `npm test` and a second
// demo may all want the cached code-server at once, and two installs into one folder break both. The
// install runs under a lock file naming its owner's pid; a complete install is marked only after it
// was verified, so a failed or interrupted one is never taken for done and is installed again.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Written into an install folder once the install is complete and verified. */
export const INSTALLED_MARKER = '.agent-workbench-installed';

/** True when `dir` holds a complete install (its marker, written last, is there). */
export function isInstalled(dir, marker = INSTALLED_MARKER) {
  return fs.existsSync(path.join(dir, marker));
}

/**
 * Installs into `dir` unless a complete install is there: under the lock `<dir>.lock`, what is in
 * `dir` (a partial install) is removed, `install(dir)` runs, `verify(dir)` must answer the marker's
 * text (it throws when the install does not work), and only then is the marker written. A process
 * that waited for the lock finds the install the other one made and does nothing.
 */
export async function installOnce({ dir, what, install, verify, complete = () => isInstalled(dir), marker = INSTALLED_MARKER, ...lockOptions }) {
  if (complete()) return false;
  return withInstallLock(`${dir}.lock`, what, async () => {
    if (complete()) return false;
    fs.rmSync(dir, { recursive: true, force: true });
    await install(dir);
    const text = await verify(dir);
    writeAtomically(path.join(dir, marker), `${text}\n`);
    return true;
  }, lockOptions);
}

/**
 * Runs `fn` holding the lock file (created atomically, holding this process's pid). While another
 * live process holds it, waits and says so once on stderr; a lock left by a process that is gone is
 * taken over. Gives up after `timeoutMs` with a sentence naming the holder.
 */
export async function withInstallLock(lockFile, what, fn, { warn = (line) => process.stderr.write(`${line}\n`), pollMs = 1000, timeoutMs = 30 * 60_000, isAlive = processAlive, pid = process.pid, sleep = delay } = {}) {
  const started = Date.now();
  let toldAbout;
  for (;;) {
    if (tryLock(lockFile, pid)) break;
    const holder = holderOf(lockFile);
    if (holder === undefined) continue; // released meanwhile, or still being written: try again
    if (!isAlive(holder.pid)) {
      takeOver(lockFile, holder);
      continue;
    }
    if (toldAbout !== holder.pid) {
      warn(`Waiting for another install of ${what} (pid ${holder.pid})…`);
      toldAbout = holder.pid;
    }
    if (Date.now() - started > timeoutMs) throw new Error(`Another install of ${what} (pid ${holder.pid}) did not finish within ${Math.ceil(timeoutMs / 60_000)} min; stop it, or remove ${lockFile} if no such process runs.`);
    await sleep(pollMs);
  }
  try {
    return await fn();
  } finally {
    release(lockFile, pid);
  }
}

/** Creates the lock file with our pid in one step: a hard link fails when the name exists. */
function tryLock(lockFile, pid) {
  fs.mkdirSync(path.dirname(lockFile), { recursive: true });
  const mine = `${lockFile}.${pid}.${Math.random().toString(36).slice(2)}`;
  fs.writeFileSync(mine, `${pid}\n`);
  try {
    fs.linkSync(mine, lockFile);
    return true;
  } catch (error) {
    if (error.code === 'EEXIST') return false;
    throw error;
  } finally {
    fs.rmSync(mine, { force: true });
  }
}

function holderOf(lockFile) {
  let text;
  try {
    text = fs.readFileSync(lockFile, 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  }
  const pid = Number(text.trim());
  // A lock file that names no process (written by hand, or truncated) holds nothing: pid 0 is never alive here.
  return { pid: Number.isInteger(pid) && pid > 0 ? pid : 0, text };
}

/**
 * Removes a dead holder's lock. It is moved aside first and read again: when two waiters saw the
 * same dead holder and the other one already took the lock, the live lock moved aside is put back.
 */
function takeOver(lockFile, holder) {
  const aside = `${lockFile}.stale.${process.pid}.${Math.random().toString(36).slice(2)}`;
  try {
    fs.renameSync(lockFile, aside);
  } catch (error) {
    if (error.code === 'ENOENT') return;
    throw error;
  }
  const moved = fs.readFileSync(aside, 'utf8');
  if (moved !== holder.text) {
    try {
      fs.linkSync(aside, lockFile);
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
  }
  fs.rmSync(aside, { force: true });
}

function release(lockFile, pid) {
  if (holderOf(lockFile)?.pid === pid) fs.rmSync(lockFile, { force: true });
}

/** True while a process with this pid runs (EPERM: it runs as another user). */
export function processAlive(pid) {
  if (!(pid > 0)) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function writeAtomically(file, text) {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
}

function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
