// code-server 4.100.3 (VS Code 1.100.3, the newest that runs on Node 20): installed once into a
// cache outside the clone, then started per test suite on 127.0.0.1 and a free port.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureDebianPackages, dpkgInstalled } from './debian.mjs';
import { installOnce, isInstalled } from './installOnce.mjs';
import { cacheRoot } from './paths.mjs';
import { freePort, preferredPort, run, startDetached, waitForHttp } from './processes.mjs';

export const CODE_SERVER_VERSION = '4.100.3';
// code-server writes a default config into ~/.config unless it is given one; flags override it.
const CONFIG = 'agent-workbench-config.yaml';

/** The folder code-server is (or will be) installed in. */
export function codeServerDir() {
  return path.join(cacheRoot(), `code-server-${CODE_SERVER_VERSION}`);
}

/**
 * Installs code-server into the cache unless a finished install is there already, and returns the
 * path of its entry script. One process installs at a time (the others wait for it, see
 * installOnce.mjs); the marker is written only after `--version` answers, so an install that failed
 * or was stopped halfway is installed again, never used.
 */
export async function ensureCodeServer({ log = console.log } = {}) {
  const dir = codeServerDir();
  const entry = path.join(dir, 'out', 'node', 'entry.js');
  await installOnce({
    dir,
    what: `code-server ${CODE_SERVER_VERSION}`,
    complete: () => isInstalled(dir) && fs.existsSync(entry),
    install: () => installCodeServer(dir, log),
    verify: () => verifyCodeServer(dir, entry),
  });
  if (!fs.existsSync(path.join(dir, CONFIG))) fs.writeFileSync(path.join(dir, CONFIG), 'auth: none\n');
  return entry;
}

async function installCodeServer(dir, log) {
  await ensureDebianPackages(
    [
      { pkg: 'libkrb5-dev', present: () => dpkgInstalled('libkrb5-dev'), why: 'headers for the kerberos native module of VS Code' },
      { pkg: 'ripgrep', present: () => fs.existsSync('/usr/bin/rg'), why: 'the rg binary VS Code searches with (its npm package would download it)' },
    ],
    log,
  );
  const started = Date.now();
  log(`Installing code-server ${CODE_SERVER_VERSION} into ${dir} (about a minute, once)...`);
  await unpack(dir);
  await installVscode(path.join(dir, 'lib', 'vscode'));
  await npmInstall(path.join(dir, 'lib', 'vscode', 'extensions'));
  await npmInstall(dir);
  // code-server loads argon2 at start even with `--auth none`; its own postinstall must not run.
  await npmRebuild(dir, ['argon2']);
  fs.writeFileSync(path.join(dir, CONFIG), 'auth: none\n');
  log(`code-server ${CODE_SERVER_VERSION} installed in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** The line `--version` prints for this version; throws when code-server does not start. */
async function verifyCodeServer(dir, entry) {
  const printed = await run(process.execPath, [entry, '--config', path.join(dir, CONFIG), '--version'], { env: serverEnv(dir) });
  const version = printed.split('\n').find((line) => line.startsWith(`${CODE_SERVER_VERSION} `));
  if (!version) throw new Error(`code-server --version printed: ${printed}`);
  return version;
}

async function unpack(dir) {
  const parent = path.dirname(dir);
  const work = fs.mkdtempSync(path.join(ensureDir(parent), 'code-server-pack-'));
  try {
    const packed = await run('npm', ['pack', `code-server@${CODE_SERVER_VERSION}`, '--silent'], { cwd: work, env: npmEnv() });
    const name = packed.split('\n').find((line) => line.trim().endsWith('.tgz'));
    if (!name) throw new Error(`npm pack printed no tarball name:\n${packed}`);
    const tarball = path.join(work, name.trim());
    await run('tar', ['-xzf', tarball, '-C', work]);
    fs.renameSync(path.join(work, 'package'), dir);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

// What code-server's postinstall does for VS Code, minus the parts that need the internet.
async function installVscode(vscodeDir) {
  await npmInstall(vscodeDir);
  // @vscode/ripgrep's install script downloads rg; Debian's binary is the same program.
  const rgDir = path.join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
  fs.mkdirSync(rgDir, { recursive: true });
  fs.copyFileSync('/usr/bin/rg', path.join(rgDir, 'rg'));
  fs.chmodSync(path.join(rgDir, 'rg'), 0o755);
  await npmRebuild(vscodeDir, []);
  fs.symlinkSync('node_modules', path.join(vscodeDir, 'node_modules.asar'));
  linkScript(path.join(vscodeDir, 'bin', 'remote-cli'), 'code-linux.sh', 'code-server');
  linkScript(path.join(vscodeDir, 'bin', 'helpers'), 'browser-linux.sh', 'browser.sh');
}

function linkScript(dir, target, name) {
  if (fs.existsSync(path.join(dir, target))) fs.symlinkSync(target, path.join(dir, name));
}

function npmInstall(cwd) {
  return run('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd, env: npmEnv() });
}

/**
 * Runs the install scripts that `--ignore-scripts` skipped (native modules: node-pty, kerberos,
 * spdlog, argon2...). npm 11 checks them against the `allowScripts` field of the package.json:
 * unlisted ones run with a warning by default, but fail under `strict-allow-scripts` (and will by
 * default in a later npm). They are code-server's own pinned dependencies and we mean to build
 * them, so the approval is recorded in the cached copy of code-server first.
 */
async function npmRebuild(cwd, names) {
  await approveScripts(cwd, names);
  await run('npm', ['rebuild', ...names], { cwd, env: npmEnv() });
}

async function approveScripts(cwd, names) {
  try {
    await run('npm', ['approve-scripts', ...(names.length > 0 ? names : ['--all']), '--no-allow-scripts-pin'], { cwd, env: npmEnv() });
  } catch (error) {
    // npm before 11.x has no install-script policy, so nothing needs approving there.
    if (!/Unknown command|unknown command/i.test(String(error.message))) throw error;
  }
}

function npmEnv() {
  // As root npm would otherwise drop privileges for scripts; `yes` lets node-pty's `npx node-gyp` run.
  return { ...process.env, npm_config_unsafe_perm: 'true', npm_config_yes: 'true', npm_config_update_notifier: 'false' };
}

/**
 * The environment code-server runs with: its own logs go under `dataDir` rather than the user's
 * ~/.local/share (the extension host inherits this variable; VS Code itself does not read it).
 */
function serverEnv(dataDir, extra = {}) {
  return { ...process.env, ...extra, XDG_DATA_HOME: dataDir };
}

function ensureDir(dir) {
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Starts code-server on 127.0.0.1 and a free port with its own user-data and extensions folders,
 * opening `folder`; resolves once it serves. `port` is the one to take when it is free (the demo's). `env` is added to the server's environment, which
 * the extension host inherits. `stop()` ends that process tree only.
 */
export async function startCodeServer({ userDataDir, extensionsDir, folder, env = {}, log, port: wanted }) {
  const entry = await ensureCodeServer();
  const port = wanted === undefined ? await freePort() : await preferredPort(wanted);
  const args = [
    entry,
    '--config', path.join(codeServerDir(), CONFIG),
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
  ];
  if (folder) args.push(folder);
  let output = '';
  const server = startDetached(process.execPath, args, {
    env: serverEnv(path.join(userDataDir, 'code-server-data'), env),
    onOutput: (text) => {
      output = (output + text).slice(-20_000);
      log?.(text);
    },
  });
  const url = `http://127.0.0.1:${port}/`;
  try {
    await waitForHttp(`${url}healthz`, { timeoutMs: 60_000, exited: server.exited });
  } catch (error) {
    await server.stop();
    throw new Error(`${error.message}\ncode-server output:\n${output.slice(-4000)}`);
  }
  return { url, port, pid: server.child.pid, exited: server.exited, output: () => output, stop: server.stop };
}

/** Installs a `.vsix` into `extensionsDir` with code-server's CLI (`force` replaces the same version). */
export async function installVsix(vsix, { userDataDir, extensionsDir, force = false }) {
  const entry = await ensureCodeServer();
  const config = path.join(codeServerDir(), CONFIG);
  const args = [entry, '--config', config, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--install-extension', vsix];
  if (force) args.push('--force');
  return run(process.execPath, args, { env: serverEnv(path.join(userDataDir, 'code-server-data')) });
}
