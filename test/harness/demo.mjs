// `npm run demo`: from a fresh clone to the extension running against a local sandbox with demo
// data. Installs dependencies when missing, builds and packages, starts the sandbox (data in
// .sandbox-data/demo/), then VS Code with the .vsix installed and already signed in: code-server
// (prints the URL to open), or desktop VS Code when `code` is on PATH (`--browser` forces
// code-server). Ctrl+C stops everything it started and exits 0.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './paths.mjs';
import { preferredPort, run, startDetached } from './processes.mjs';

// Only Node built-ins above this line: node_modules may not exist yet.
const demoDir = path.join(repoRoot, '.sandbox-data', 'demo');
// The ports of the last run, taken again when free: the workbench keys its state (open editors,
// unsaved edits, layout) by origin, so a new port would start it afresh.
const portsFile = path.join(demoDir, 'ports.json');
const DEMO_JOB_STEP_MS = 4000;
const stops = [];
let stopping = false;

async function main() {
  if (!fs.existsSync(path.join(repoRoot, 'node_modules'))) {
    console.log('Installing dependencies (npm ci)...');
    await run('npm', ['ci'], { cwd: repoRoot, quiet: false });
  }
  const { ensureCodeServer } = await import('./codeServer.mjs');
  const { packageExtension } = await import('./extensionBuild.mjs');
  console.log('Building and packaging the extension...');
  const [vsix] = await Promise.all([packageExtension(), ensureCodeServer()]);
  const { startSandboxProcess, writeConnectionFile } = await import('./sandbox.mjs');
  const lastPorts = readLastPorts();
  // Slower status steps than the tests' sandbox: a demo job runs for about 8–15 s, long enough to try Cancel.
  const sandboxArgs = ['--data', path.join(demoDir, 'data'), '--seed', 'demo', '--job-step-ms', String(DEMO_JOB_STEP_MS)];
  const sandbox = await startSandboxProcess(sandboxArgs, { port: await preferredPort(lastPorts.sandbox) });
  stops.push(sandbox.stop);
  const connectionFile = writeConnectionFile(path.join(demoDir, 'connection.json'), sandbox);
  const { ensureDemoWorkspace } = await import('./demoWorkspace.mjs');
  const workspace = ensureDemoWorkspace(path.join(demoDir, 'workspace'));
  const { DEMO_ENV } = await import('./profile.mjs');
  const env = { AGENT_WORKBENCH_CONNECT: connectionFile, ...DEMO_ENV };
  console.log(`Sandbox: ${sandbox.baseUrl} (organization ${sandbox.organizationId})`);
  const useDesktop = !process.argv.includes('--browser') && hasCommand('code');
  const workbenchPort = useDesktop ? undefined : await startBrowserWorkbench(vsix, workspace, env, lastPorts.workbench);
  if (useDesktop) await startDesktop(vsix, workspace, env);
  keepPorts({ sandbox: Number(new URL(sandbox.baseUrl).port), workbench: workbenchPort ?? lastPorts.workbench });
  console.log('Press Ctrl+C to stop the sandbox and VS Code.');
}

/** The ports of the last run (`{ sandbox, workbench }`), or none when there was none or the file is odd. */
function readLastPorts() {
  try {
    const value = JSON.parse(fs.readFileSync(portsFile, 'utf8'));
    return { sandbox: Number(value.sandbox) || undefined, workbench: Number(value.workbench) || undefined };
  } catch {
    return {};
  }
}

function keepPorts(ports) {
  fs.mkdirSync(demoDir, { recursive: true });
  fs.writeFileSync(portsFile, `${JSON.stringify(ports)}\n`);
}

/** Starts code-server on `port` when it is free; resolves with the port it took. */
async function startBrowserWorkbench(vsix, workspace, env, port) {
  const { installVsix, startCodeServer } = await import('./codeServer.mjs');
  const { createProfile } = await import('./profile.mjs');
  // Kept between runs (layout, open editors); the connection file signs in afresh each time.
  const profile = createProfile({ root: path.join(demoDir, 'vscode') });
  await installVsix(vsix, { ...profile, force: true });
  const server = await startCodeServer({ ...profile, folder: workspace, env, port: port ?? 0 });
  stops.unshift(server.stop);
  server.exited.then(() => !stopping && shutdown(1, 'code-server exited'));
  console.log(`\nOpen ${server.url} in a browser.\n`);
  return server.port;
}

async function startDesktop(vsix, workspace, env) {
  const dirs = ['--user-data-dir', path.join(demoDir, 'desktop', 'user-data'), '--extensions-dir', path.join(demoDir, 'desktop', 'extensions')];
  await run('code', [...dirs, '--install-extension', vsix, '--force']);
  // A user-data dir of its own means a new VS Code instance, which inherits this environment.
  const code = startDetached('code', [...dirs, '--new-window', '--wait', workspace], { env: { ...process.env, ...env } });
  stops.unshift(code.stop);
  code.exited.then(() => !stopping && shutdown(0, 'VS Code was closed'));
  console.log('\nVS Code is opening with the demo workspace.\n');
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

async function shutdown(code, reason) {
  if (stopping) return;
  stopping = true;
  if (reason) console.log(`\n${reason}.`);
  console.log('Stopping the demo...');
  for (const stop of stops) await stop().catch((error) => console.error(`  ${error.message}`));
  process.exit(code);
}

process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
main().catch(async (error) => {
  console.error(`\nThe demo could not start: ${error.message ?? error}`);
  await shutdown(1);
});
