// The tool catalogue as VS Code language model tools, in a real extension host against the sandbox:
// listed in vscode.lm.tools, a read and a run through vscode.lm.invokeTool (the job shows like a run's),
// a whole trial of a policy edit on copies (confirmed, nothing published, the copies gone), and the
// token in no result and no log line.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentNode } from '../../src/extension/agents/agentNodes';
import { testCaseLine } from '../../src/core/comparison/testSet';
import { policyFileText } from '../../src/core/trial/policyFile';
import { isTrialEntity } from '../../src/core/trial/trialMarker';
import { DEMO_LOOP_AGENT_ID, DEMO_LOOP_AGENT_NAME, DEMO_LOOP_POLICY_ID } from '../../src/sandbox/seed/demoLoop';
import { editedDemoPolicy, LOOP_CASE } from '../unit/trial/trialHelpers';
import { agentChildren, connect, is, startSandbox, waitFor, workbench, type TestSandbox } from './support/workbench';

const SUPPORT_CALL_QA = '5c0a11d3-7e2b-4f61-9a3c-2d8e4b6f1a01';

function resultText(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

describe('Language model tools', function () {
  this.timeout(90_000);
  let sandbox: TestSandbox;
  before(async () => {
    sandbox = await startSandbox(['--job-step-ms', '2000']);
    await connect(sandbox);
  });
  after(async () => {
    await vscode.commands.executeCommand('agentWorkbench.jobs.stopWatchingAll');
    await sandbox.stop();
  });

  it('lists every tool of the catalogue in vscode.lm.tools', () => {
    const names = vscode.lm.tools.map((t) => t.name).filter((n) => n.startsWith('agentWorkbench_'));
    for (const expected of ['find_agents', 'describe_agent', 'list_jobs', 'read_jobs', 'run_agent', 'try_policy_edit', 'publish_policy_edit', 'cancel_jobs']) assert.ok(names.includes(`agentWorkbench_${expected}`), expected);
  });

  it('answers a read through vscode.lm.invokeTool', async () => {
    const result = await vscode.lm.invokeTool('agentWorkbench_find_agents', { input: { search: 'Support Call' }, toolInvocationToken: undefined });
    assert.match(resultText(result), new RegExp(`Support Call QA \\(${SUPPORT_CALL_QA}\\)`));
  });

  it('runs an agent through vscode.lm.invokeTool, and the job is on top of its Jobs list and watched in the status bar', async () => {
    const api = await workbench();
    await vscode.commands.executeCommand('agentWorkbench.agents.clearFilter');
    const agent = (await agentChildren()).find((n): n is AgentNode => is(n, 'agent') && n.agent.id === SUPPORT_CALL_QA);
    assert.ok(agent);
    await agentChildren(agent.jobs);
    const asked: string[] = [];
    api.prompts.toolConfirmation = (message) => (asked.push(message), true);
    const result = await vscode.lm.invokeTool('agentWorkbench_run_agent', { input: { agent_id: SUPPORT_CALL_QA, inputs: [{ transcript: 'Agent: hello.', language: 'en' }] }, toolInvocationToken: undefined });
    const text = resultText(result);
    const jobId = /Started 1 job[^\n]*\n- (\S+)/.exec(text)?.[1];
    assert.ok(jobId, text);
    assert.match(asked[0] ?? '', /Run .* of Support Call QA: 1 job[\s\S]*This starts paid work/, 'the confirmation named the jobs and the estimate');
    api.prompts.toolConfirmation = undefined;
    await waitFor(() => api.stores.require().watcher.jobs().some((j) => j.id === jobId && j.agentId === SUPPORT_CALL_QA), 'the job watched in the status bar');
    assert.equal(agent.jobs.list.loadedItems[0]?.id, jobId, 'on top of the Jobs list without reading it again');
  });

  it('tries a policy edit on copies through vscode.lm.invokeTool once confirmed: the case flips, nothing is published, the copies are gone', async () => {
    const api = await workbench();
    const client = api.connection.requireClient();
    const root = vscode.workspace.workspaceFolders![0]!.uri;
    const dir = vscode.Uri.joinPath(root, 'tool-trial');
    const edit = await editedDemoPolicy(client);
    const policyBefore = (await client.policies.get(DEMO_LOOP_POLICY_ID)).current_version_id;
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'edit.policy.json'), new TextEncoder().encode(policyFileText({ id: DEMO_LOOP_POLICY_ID, name: edit.name }, edit.baseVersionId, edit.content)));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'loop.testset.jsonl'), new TextEncoder().encode(`// agent: ${DEMO_LOOP_AGENT_ID} · ${DEMO_LOOP_AGENT_NAME}\n${testCaseLine(LOOP_CASE)}\n`));
    const asked: string[] = [];
    api.prompts.toolConfirmation = (message) => (asked.push(message), true);
    try {
      const result = resultText(await vscode.lm.invokeTool('agentWorkbench_try_policy_edit', { input: { test_set: 'tool-trial/loop.testset.jsonl', policy_file: 'tool-trial/edit.policy.json' }, toolInvocationToken: undefined }));
      assert.match(asked[0] ?? '', /Try the edit of .* on loop\.testset\.jsonl with trial copies of Support Call QA \(removed afterwards; production untouched\)[\s\S]*This starts paid work/, 'the confirmation said what it starts and that production is untouched');
      assert.match(result, /1 case became right, 0 became wrong/, result);
      assert.match(result, /Every case with an expected outcome agrees/, result);
      assert.match(result, /Nothing was published; the trial copies were removed\. To publish this edit: publish_policy_edit with trial_file "tool-trial\/loop\.trial\.json"/, result);
      assert.equal((await client.policies.get(DEMO_LOOP_POLICY_ID)).current_version_id, policyBefore, 'the real policy has no new version');
      const left: string[] = [];
      for await (const agent of client.agents.items({ include_job_stats: false })) if (isTrialEntity(agent)) left.push(agent.name);
      assert.deepEqual(left, [], 'no trial agent is left in the organization');
    } finally {
      api.prompts.toolConfirmation = undefined;
      await vscode.workspace.fs.delete(dir, { recursive: true });
    }
  });

  it('tries an agent version draft on a copy through vscode.lm.invokeTool once confirmed: nothing is published, the copy is gone', async () => {
    const api = await workbench();
    const client = sandbox.client();
    const root = vscode.workspace.workspaceFolders![0]!.uri;
    const dir = vscode.Uri.joinPath(root, 'tool-draft');
    const lenient = await client.policies.create({ name: 'Call rules, lenient', description: 'made by the user', content: (await editedDemoPolicy(client)).content });
    const versionBefore = (await client.agents.get(DEMO_LOOP_AGENT_ID)).current_version_id;
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'loop.testset.jsonl'), new TextEncoder().encode(`// agent: ${DEMO_LOOP_AGENT_ID} · ${DEMO_LOOP_AGENT_NAME}\n${testCaseLine(LOOP_CASE)}\n`));
    const described = await vscode.lm.invokeTool('agentWorkbench_describe_agent', { input: { agent_id: DEMO_LOOP_AGENT_ID }, toolInvocationToken: undefined });
    assert.match(resultText(described), /Support Call QA/);
    const asked: string[] = [];
    api.prompts.toolConfirmation = (message) => (asked.push(message), true);
    try {
      const current = await client.agents.getVersion(DEMO_LOOP_AGENT_ID, versionBefore!);
      const config = { ...(current.engine_config as Record<string, string>), policy_id: lenient.id };
      const draft = { input_definitions: current.input_definitions.map((d) => ({ key: d.key, data_type: d.data_type ?? 'text/plain' })), engine_config: config };
      const result = resultText(await vscode.lm.invokeTool('agentWorkbench_try_agent_draft', { input: { agent_id: DEMO_LOOP_AGENT_ID, draft, test_set: 'tool-draft/loop.testset.jsonl' }, toolInvocationToken: undefined }));
      assert.match(asked[0] ?? '', /Try the draft of Support Call QA's next version on loop\.testset\.jsonl with a trial copy of the agent \(removed afterwards; the agent keeps its version\)[\s\S]*This starts paid work/);
      assert.match(result, /Every case with an expected outcome agrees/, result);
      assert.match(result, /To publish this draft as the agent’s new version: publish_agent_draft with trial_file "tool-draft\/loop\.trial\.json"/, result);
      assert.equal((await client.agents.get(DEMO_LOOP_AGENT_ID)).current_version_id, versionBefore, 'the agent keeps its version');
      const left: string[] = [];
      for await (const agent of client.agents.items({ include_job_stats: false })) if (isTrialEntity(agent)) left.push(agent.name);
      assert.deepEqual(left, [], 'no trial agent is left in the organization');
    } finally {
      api.prompts.toolConfirmation = undefined;
      await vscode.workspace.fs.delete(dir, { recursive: true });
    }
  });

  it('puts the token in no tool result and no log line', async () => {
    const api = await workbench();
    const read = resultText(await vscode.lm.invokeTool('agentWorkbench_describe_agent', { input: { agent_id: SUPPORT_CALL_QA }, toolInvocationToken: undefined }));
    assert.ok(!read.includes(sandbox.token));
    const logFile = path.join(api.logUri.fsPath, 'Agent Workbench.log');
    const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
    assert.ok(!log.includes(sandbox.token), 'no log line holds the token');
    assert.match(log, /Tool describe_agent: done/);
  });
});
