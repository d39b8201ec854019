// The tool catalogue as VS Code language model tools, in a real extension host against the sandbox:
// listed in vscode.lm.tools, a read and a run through vscode.lm.invokeTool (the job shows like a run's),
// and the token in no result and no log line.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentNode } from '../../src/extension/agents/agentNodes';
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
