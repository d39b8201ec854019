/** Every operation of the service client, as one call each, and a way to record what the sandbox really answers to them. */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServiceClient } from '../../../src/core/client';

/** Ids the operations name (real ones of the sandbox when recording). */
export interface OperationIds {
  agent: string;
  version: string;
  job: string;
  policy: string;
  policyVersion: string;
  dataset: string;
  file: string;
  query: string;
}

export interface ClientOperation {
  name: string;
  /** False for operations that answer no body (204), and for those that would change the sample data. */
  recordable: boolean;
  call(client: ServiceClient, ids: OperationIds, uploadPath: string): Promise<unknown>;
}

/** Walks an iterator, at most `limit` items: a property must end whatever pages the answers describe. */
async function walk(items: AsyncIterable<unknown>, limit = 200): Promise<number> {
  let n = 0;
  for await (const _ of items) if (++n >= limit) break;
  return n;
}

const op = (name: string, call: ClientOperation['call'], recordable = true): ClientOperation => ({ name, recordable, call });

/** One entry per client method that reads an answer, plus the page walkers and the body-less calls. */
export const CLIENT_OPERATIONS: ClientOperation[] = [
  op('listAgents', (c) => c.agents.list({ page_size: 3 })),
  op('walkAgents', (c) => walk(c.agents.items({ page_size: 3 }))),
  op('getAgent', (c, ids) => c.agents.get(ids.agent)),
  op('createAgent', (c) => c.agents.create({ name: 'Recorded agent', engine_class_id: 'llm-classifier' })),
  op('updateAgent', (c, ids) => c.agents.update(ids.agent, { disable_cache: false })),
  op('deleteAgent', (c, ids) => c.agents.delete(ids.agent), false),
  op('duplicateAgent', (c, ids) => c.agents.duplicate(ids.agent)),
  op('patchAgent', (c, ids) => c.agents.patch(ids.agent, { name: 'Recorded name' })),
  op('listAgentVersions', (c, ids) => c.agents.listVersions(ids.agent)),
  op('getAgentVersion', (c, ids) => c.agents.getVersion(ids.agent, ids.version, { supportsEval: true })),
  op('getCurrentAgentVersion', (c, ids) => c.agents.currentVersion(ids.agent)),
  op('updateAgentVersion', (c, ids) => c.agents.updateVersion(ids.agent, ids.version, { version_name: 'Recorded version' }), false),
  op('deleteAgentVersion', (c, ids) => c.agents.deleteVersion(ids.agent, ids.version), false),
  op('createAgentVersion', (c, ids) => c.agents.createVersion(ids.agent, { input_definitions: [{ key: 'transcript', data_type: 'text/plain' }], engine_config: { prompt: 'p' } })),
  op('runAgent', (c, ids) => c.agents.run(ids.agent, { inputs: { transcript: 'hello' } })),
  op('listJobs', (c, ids) => c.jobs.list(ids.agent, { page_size: 3 })),
  op('walkJobs', (c, ids) => walk(c.jobs.items(ids.agent, { page_size: 5 }))),
  op('getJobStatus', (c, ids) => c.jobs.status(ids.job)),
  op('getJobStatuses', (c, ids) => c.jobs.statuses([ids.job])),
  op('cancelJob', (c, ids) => c.jobs.cancel(ids.job), false),
  op('listPolicies', (c) => c.policies.list()),
  op('walkPolicies', (c) => walk(c.policies.items({ page_size: 2 }))),
  op('getPolicy', (c, ids) => c.policies.get(ids.policy)),
  op('createPolicy', (c) => c.policies.create({ name: 'Recorded policy', content: { instructions: 'Be brief.' } })),
  op('updatePolicy', (c, ids) => c.policies.update(ids.policy, { description: 'Recorded' })),
  op('deletePolicy', (c, ids) => c.policies.delete(ids.policy), false),
  op('listPolicyVersions', (c, ids) => c.policies.listVersions(ids.policy)),
  op('walkPolicyVersions', (c, ids) => walk(c.policies.versionItems(ids.policy, { page_size: 1 }))),
  op('getPolicyVersion', (c, ids) => c.policies.getVersion(ids.policy, ids.policyVersion)),
  op('createPolicyVersion', (c, ids) => c.policies.createVersion(ids.policy, { content: { instructions: 'Recorded' } })),
  op('listDatasets', (c) => c.datasets.list()),
  op('listDatasetFiles', (c, ids) => c.datasets.listFiles(ids.dataset)),
  op('walkDatasetFiles', (c, ids) => walk(c.datasets.fileItems(ids.dataset, { page_size: 1 }))),
  op('uploadDatasetFile', (c, ids, file) => c.datasets.upload({ filePath: file, datasetId: ids.dataset, metadata: { source: 'property' } })),
  op('deleteDatasetFile', (c, ids) => c.datasets.deleteFile(ids.dataset, ids.file), false),
  op('submitQuery', (c) => c.database.submitQuery('SELECT 1')),
  op('getQueryResult', (c, ids) => c.database.getResult(ids.query)),
  op('runAgentVersion', (c, ids) => c.agents.runVersion(ids.agent, ids.version, { inputs: { transcript: 'hello', language: 'en' } })),
  op('runAgentMany', (c, ids) => c.agents.runMany(ids.agent, [{ transcript: 'hello' }, { transcript: 'bye' }])),
  op('runAgentSync', (c, ids) => c.agents.runSync(ids.agent, { inputs: { transcript: 'hello' } })),
  op('cancelAllJobs', (c, ids) => c.agents.cancelAllJobs(ids.agent), false),
  op('listEngineTypes', (c) => c.agents.engineTypes()),
  op('listModels', (c) => c.agents.models({ capability: 'image' })),
  op('getJobResult', (c, ids) => c.jobs.result(ids.job), false),
  op('getJobArtifact', (c, ids) => c.jobs.artifact(ids.job, `agent-job-${ids.job}/rule_checks.json`), false),
  op('getJobResults', (c, ids) => c.jobs.results([ids.job])),
  op('getCurrentUser', (c) => c.users.current()),
];

/** A proxy on 127.0.0.1 in front of the sandbox that keeps the last answer's body, to record real answers. */
export async function startRecorder(target: string): Promise<{ url: string; last(): { status: number; text: string }; close(): Promise<void> }> {
  let last = { status: 0, text: '' };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type', 'accept']) if (req.headers[name]) headers[name] = String(req.headers[name]);
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      void fetch(new URL(req.url ?? '/', target), { method: req.method, headers, body }).then(async (answer) => {
        last = { status: answer.status, text: await answer.text() };
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(last.text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    last: () => last,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
