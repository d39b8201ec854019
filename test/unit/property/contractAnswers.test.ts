import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { MockAgent } from 'undici';
import { ServiceClient, isServiceError } from '../../../src/core/client';
import type { Contract } from '../../contract/checker.mjs';
import { type JsonSchema, arbitraryOf } from '../support/schemaArbitrary';
import { CLIENT_OPERATIONS, type ClientOperation, type OperationIds } from './clientOperations';
import { runs } from './support';

const ORIGIN = 'http://service.test';
/** Runs per operation; `CONTRACT_PROPERTY_RUNS` raises it for a deeper search. */
const RUNS = Number(process.env.CONTRACT_PROPERTY_RUNS ?? 150);

/** The client's operations that the live description has, with the answer the contract gives them. */
const CONTRACT_OF: Record<string, [operation: string, status: string]> = {
  listAgents: ['agents_list', '200'], walkAgents: ['agents_list', '200'], getAgent: ['agents_retrieve', '200'],
  createAgent: ['agents_create', '201'], updateAgent: ['agents_update', '200'], patchAgent: ['agents_partial_update', '200'],
  duplicateAgent: ['agents_duplicate_create', '201'], listAgentVersions: ['agents_versions_list', '200'], updateAgentVersion: ['agents_versions_partial_update', '200'],
  getAgentVersion: ['agents_versions_retrieve', '200'], getCurrentAgentVersion: ['agents_versions_current_retrieve', '200'],
  createAgentVersion: ['agents_versions_create', '201'], runAgent: ['agents_run_async_create', '200'],
  runAgentVersion: ['agents_run_versions_async_create', '200'], runAgentMany: ['agents_run_async_many', '200'],
  runAgentSync: ['agents_run', '200'], cancelAllJobs: ['agents_jobs_cancel_all_create', '200'],
  listEngineTypes: ['discovery_agent_engine_types_list', '200'], listModels: ['discovery_supported_models_list', '200'],
  listJobs: ['agents_jobs_list', '200'], walkJobs: ['agents_jobs_list', '200'], getJobStatus: ['agents_jobs_status_retrieve', '200'],
  getJobStatuses: ['agents_jobs_statuses_create', '200'], getJobResult: ['agents_jobs_result_retrieve', '200'],
  getJobResults: ['agents_jobs_results_create', '200'], getJobArtifact: ['agents_jobs_artifacts_result_retrieve', '200'], listPolicies: ['policies_list', '200'], walkPolicies: ['policies_list', '200'],
  getPolicy: ['policies_retrieve', '200'], createPolicy: ['policies_create', '201'], updatePolicy: ['policies_partial_update', '200'],
  listPolicyVersions: ['policies_versions_list', '200'], walkPolicyVersions: ['policies_versions_list', '200'],
  getPolicyVersion: ['policies_versions_retrieve', '200'], createPolicyVersion: ['policies_versions_create', '201'],
  getCurrentUser: ['users_current_user_retrieve', '200'], listTables: ['tables_list', '200'], describeTable: ['tables_describe_retrieve', '200'],
  previewTable: ['tables_preview_retrieve', '200'], queryTables: ['tables_query_create', '202'],
  getTableQueryResult: ['tables_query_result_retrieve', '200'], uploadTable: ['upload_table', '201'],
};

/** The tables operations, beside the shared list (which predates them). */
const TABLE_OPERATIONS: ClientOperation[] = [
  { name: 'listTables', recordable: true, call: (c) => c.tables.list() },
  { name: 'describeTable', recordable: true, call: (c) => c.tables.describe('customers') },
  { name: 'previewTable', recordable: true, call: (c) => c.tables.preview('customers', 5) },
  { name: 'queryTables', recordable: true, call: (c) => c.tables.query('SELECT 1', 10) },
  { name: 'getTableQueryResult', recordable: true, call: (c, ids) => c.tables.queryResult(ids.query) },
  { name: 'uploadTable', recordable: true, call: (c, _ids, file) => c.tables.upload({ filePath: file, tableName: 'uploaded' }) },
];

/**
 * Answers generated from the contract's own response schema, through the client's real gateway: each
 * parses, or fails with the client's typed error and a sentence. Never a crash, never a blank.
 */
describe('property: the client reads every answer the live contract allows', function () {
  this.timeout(300_000);
  const ids: OperationIds = {
    agent: '0f3c2a1e-8b4d-4c7a-9e15-6d2b8f0a4c91', version: '1f3c2a1e-8b4d-4c7a-9e15-6d2b8f0a4c91', job: '2f3c2a1e-8b4d-4c7a-9e15-6d2b8f0a4c91',
    policy: '3f3c2a1e-8b4d-4c7a-9e15-6d2b8f0a4c91', policyVersion: '4f3c2a1e-8b4d-4c7a-9e15-6d2b8f0a4c91', dataset: '5f3c2a1e-8b4d-4c7a-9e15-6d2b8f0a4c91',
    file: '6f3c2a1e-8b4d-4c7a-9e15-6d2b8f0a4c91', query: '7f3c2a1e-8b4d-4c7a-9e15-6d2b8f0a4c91',
  };
  let contract: Contract;
  let uploadPath: string;
  let answer = { status: 200, body: '' };
  let mock: MockAgent;
  let client: ServiceClient;
  const operations = [...CLIENT_OPERATIONS, ...TABLE_OPERATIONS].filter((o) => o.name in CONTRACT_OF);

  before(async () => {
    contract = (await import('../../contract/checker.mjs')).loadContract();
    uploadPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'contract-answers-')), 'upload.csv');
    fs.writeFileSync(uploadPath, 'a,b\n1,2\n');
    mock = new MockAgent({ connections: 1 });
    mock.disableNetConnect();
    mock.get(ORIGIN).intercept({ path: () => true, method: () => true })
      .reply(() => ({ statusCode: answer.status, data: answer.body, responseOptions: { headers: { 'content-type': 'application/json' } } }))
      .persist();
    client = new ServiceClient({ baseUrl: ORIGIN, token: 'property-token', organizationId: ids.agent, dispatcher: mock, retry: { maxRetries: 0 } });
  });
  after(async () => {
    await client.close();
    await mock.close();
    fs.rmSync(path.dirname(uploadPath), { recursive: true, force: true });
  });

  it('maps every client operation the live description has to its contract answer', () => {
    for (const [name, [operation, status]] of Object.entries(CONTRACT_OF)) {
      assert.ok(operations.some((o) => o.name === name), `${name} is a client operation`);
      assert.ok(contract.operations[operation]?.responses[status], `${operation} answers ${status} with a body in the contract`);
    }
  });

  for (const name of Object.keys(CONTRACT_OF)) {
    it(`reads every ${name} answer the contract allows, or says in a sentence why it cannot`, async () => {
      const operation = operations.find((o) => o.name === name)!;
      const [contractName, status] = CONTRACT_OF[name]!;
      const schema = contract.operations[contractName]!.responses[status]!;
      const valid = contract.routes.find((r) => r.name === contractName)!.responses[status]!;
      const answers = arbitraryOf(schema as JsonSchema).filter((value) => valid(value));
      let refused = 0;
      await fc.assert(
        fc.asyncProperty(answers, async (value) => {
          answer = { status: Number(status), body: JSON.stringify(value) };
          try {
            await operation.call(client, ids, uploadPath);
          } catch (error) {
            if (!isServiceError(error)) assert.fail(`${name} crashed on a contract answer: ${(error as Error)?.stack ?? String(error)}\n${answer.body.slice(0, 800)}`);
            assert.equal(error.kind, 'parse', `${name}: ${error.message}`);
            assert.match(error.message, /^[A-Za-z]+: \S.*\S$/, 'the error is a sentence that names the operation');
            refused++;
          }
        }),
        runs(`contract ${name}`, RUNS),
      );
      // A refusal is a typed error, but a client that refuses most contract answers cannot show the service.
      assert.equal(refused, 0, `${name} refused ${refused} of ${RUNS} answers the contract allows`);
    });
  }
});
