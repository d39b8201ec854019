import * as path from 'node:path';
import { USAGE, parseCliArgs } from './cliArgs';
import { type RunningSandbox, startSandbox } from './server';

/**
 * The sandbox CLI: starts the server, prints one JSON line (and, when forked with an IPC channel,
 * sends `{type: 'ready', ...}`), and on SIGINT/SIGTERM flushes the store and exits 0.
 */
async function main(): Promise<void> {
  let request;
  try {
    request = parseCliArgs(process.argv.slice(2), path.resolve('.sandbox-data'));
  } catch (error) {
    process.stderr.write(`sandbox: ${(error as Error).message}\nSee npm run sandbox -- --help.\n`);
    process.exit(2);
  }
  if (request.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const started = performance.now();
  let sandbox: RunningSandbox;
  try {
    sandbox = await startSandbox(request.options);
  } catch (error) {
    process.stderr.write(`sandbox: could not start: ${(error as Error).message}\n`);
    process.exit(1);
  }
  const ready = { baseUrl: sandbox.baseUrl, organizationId: sandbox.organizationId, token: sandbox.token, adminSecret: sandbox.adminSecret };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
  process.send?.({ type: 'ready', ...ready });
  process.stderr.write(`sandbox: ready at ${sandbox.baseUrl} in ${Math.round(performance.now() - started)} ms (${request.options.memory ? 'in memory' : `data in ${request.options.dataDir}`})\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`sandbox: ${signal}, stopping\n`);
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`sandbox: error while stopping: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // A forking parent that goes away takes the sandbox with it.
  process.on('disconnect', () => stop('parent disconnected'));
}

void main();
