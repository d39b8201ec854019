// The bench runner: a small extension installed beside Agent Workbench in the benchmark's
// code-server. It activates when the workbench has started, installs the activation probe before
// anything can activate Agent Workbench, then serves the orchestrator's tasks on 127.0.0.1 (one
// POST per task, guarded by a secret) after announcing itself with a hello. Without the bench's
// environment variables it does nothing.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { ActivationProbe } from './activationProbe';
import { BenchEnv, type HostTasks, SECRET_HEADER, type TaskName } from './protocol';
import { measureActivation, showRunningExtensions } from './tasks/activation';
import { openComparison, writeComparison } from './tasks/comparisonView';
import { closeFloor, openFloor } from './tasks/floorPage';
import { runToRow } from './tasks/runToRow';
import { soak } from './tasks/soak';
import { emptyWebviewReady, fetchResult, forgetResult, openResult, runQuery, scrollResult } from './tasks/grid';
import { registerReferenceTree, setReferenceTree } from './tasks/referenceTree';
import { timeSqlCompletion } from './tasks/sqlCompletion';
import { lastRoot, setTreeOrdering } from './tasks/tree';
import { retainedHeap, uploadFile } from './tasks/upload';
import { unwatchAll, watchJobs, watchState } from './tasks/watch';
import { closeAllEditors, connect, hostState, mainFile } from './workbench';

type Handlers = { [K in TaskName]: (args: HostTasks[K][0]) => Promise<HostTasks[K][1]> | HostTasks[K][1] };

function handlers(probe: ActivationProbe): Handlers {
  return {
    state: () => hostState(),
    activate: (args) => measureActivation(probe, args?.profileTo),
    showRunningExtensions: () => showRunningExtensions(),
    closeEditors: () => closeAllEditors(),
    connect: async (connection) => {
      await connect(connection);
      return hostState();
    },
    treeOrdering: ({ ordering }) => setTreeOrdering(ordering),
    treeLastRoot: () => lastRoot(),
    referenceTree: (args) => setReferenceTree(args),
    watch: ({ ids }) => watchJobs(ids),
    watchState: () => watchState(),
    unwatchAll: () => unwatchAll(),
    upload: (args) => uploadFile(args),
    gridFetch: ({ sql }) => fetchResult(sql),
    gridOpen: () => openResult(),
    gridRun: ({ sql }) => runQuery(sql),
    gridScroll: ({ queryId }) => scrollResult(queryId),
    emptyWebview: () => emptyWebviewReady(),
    gridForget: () => forgetResult(),
    retainedHeap: () => retainedHeap(),
    sqlCompletion: (args) => timeSqlCompletion(args),
    soak: (args) => soak(args),
    runToRow: (args) => runToRow(args),
    comparisonWrite: (args) => writeComparison(args),
    comparisonOpen: ({ uri }) => openComparison(uri),
    floorOpen: (shape) => openFloor(shape),
    floorClose: () => closeFloor(),
  };
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

function serve(secret: string, tasks: Handlers): http.Server {
  return http.createServer((req, res) => {
    void (async () => {
      const name = (req.url ?? '').replace(/^\/task\//, '') as TaskName;
      let status = 200;
      let answer: unknown;
      try {
        if (req.method !== 'POST' || req.headers[SECRET_HEADER] !== secret || !Object.hasOwn(tasks, name)) {
          status = 404;
          answer = { error: 'No such task.' };
        } else {
          const body = await readBody(req);
          const handler = tasks[name] as (args: unknown) => unknown;
          answer = { result: await handler(body ? JSON.parse(body) : undefined) };
        }
      } catch (error) {
        status = 500;
        answer = { error: error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error) };
      }
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer ?? { result: null }));
    })();
  });
}

/** Starts the runner when the bench's environment is there. */
export function activate(context: vscode.ExtensionContext): void {
  const helloUrl = process.env[BenchEnv.hello];
  const secret = process.env[BenchEnv.secret];
  if (!helloUrl || !secret) return;
  const probe = new ActivationProbe(mainFile());
  const server = serve(secret, handlers(probe));
  context.subscriptions.push({ dispose: () => server.close() }, { dispose: () => probe.dispose() }, registerReferenceTree());
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    void fetch(helloUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SECRET_HEADER]: secret },
      body: JSON.stringify({ port, pid: process.pid }),
    }).catch((error: unknown) => console.error(`bench runner: the hello did not arrive: ${String(error)}`));
  });
}

export function deactivate(): void {}
