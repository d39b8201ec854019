// Run files: what a run sends, what stops it before anything is sent, and where each problem is shown.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { InputDefinition } from '../../../src/core/client';
import { checkRun, filePathsOf, parseRunFile, type FileKind, type RunCheckContext } from '../../../src/core/runs/runCheck';
import { inputNamedIn, runErrorProblems } from '../../../src/core/runs/runErrors';
import { isRunFilePath, runFileName } from '../../../src/core/runs/runFilePath';
import { runFileText } from '../../../src/core/runs/runTemplate';

const transcript: InputDefinition = { key: 'transcript', data_type: 'text/plain', description: 'The call transcript.', example: 'Agent: Hello' };
const language: InputDefinition = { key: 'language', data_type: 'text/plain', example: 'en' };
const schema: InputDefinition = { key: 'schema', data_type: 'application/json', example: '{"type":"object"}' };
const document: InputDefinition = { key: 'document', data_type: 'application/pdf', example: 'INV-1.pdf' };
const AGENT = '11111111-2222-4333-8444-555555555555';
const WORKSPACE = path.resolve('/work/space');

function disk(files: Record<string, FileKind> = {}): RunCheckContext {
  return { baseDir: WORKSPACE, fileKind: (p) => Promise.resolve(files[p] ?? 'missing') };
}

function runText(file: Record<string, unknown>): string {
  return `${JSON.stringify({ agent: AGENT, ...file }, null, 2)}\n`;
}

async function check(text: string, definitions: InputDefinition[], ctx = disk()) {
  const parsed = parseRunFile(text);
  assert.ok(parsed.file, `the run file parses: ${JSON.stringify(parsed.problems)}`);
  return checkRun(text, parsed.file, definitions, ctx);
}

/** The text a problem underlines. */
function underlined(text: string, problem: { offset: number; length: number }): string {
  return text.slice(problem.offset, problem.offset + problem.length);
}

describe('run files', () => {
  it('turns one input set into one run, with JSON inputs sent as JSON text and metadata kept', async () => {
    const text = runText({ inputs: { transcript: 'Agent: Hi\nCustomer: refund please', schema: { type: 'object' } }, metadata: { case: 'refund' } });
    const result = await check(text, [transcript, schema]);
    assert.deepEqual(result.problems, []);
    assert.deepEqual(result.plan, { agentId: AGENT, batch: false, inputSets: [{ transcript: 'Agent: Hi\nCustomer: refund please', schema: '{"type":"object"}' }], metadata: { case: 'refund' } });
  });

  it('turns an array of input sets into one batch, and warns that the service drops metadata on batches', async () => {
    const sets = Array.from({ length: 20 }, (_, i) => ({ transcript: `case ${i}`, language: 'en' }));
    const text = runText({ inputs: sets, metadata: { suite: 'nightly' } });
    const result = await check(text, [transcript, language]);
    assert.equal(result.plan?.batch, true);
    assert.equal(result.plan?.inputSets.length, 20);
    assert.equal(result.plan?.metadata, undefined);
    assert.equal(result.problems.length, 1);
    assert.equal(result.problems[0]?.severity, 'warning');
    assert.equal(underlined(text, result.problems[0]), '"metadata"');
  });

  it('sends a file input as the absolute path of a file relative to the workspace folder', async () => {
    const file = path.join(WORKSPACE, 'scans', 'INV-1.pdf');
    const text = runText({ inputs: { document: 'scans/INV-1.pdf' } });
    const result = await check(text, [document], disk({ [file]: 'file' }));
    assert.deepEqual(result.plan?.inputSets, [{ document: { file } }]);
    const parsed = parseRunFile(text);
    assert.deepEqual(filePathsOf(parsed.file!, [document], WORKSPACE), [file]);
  });

  it('refuses a missing required input, a wrong type, a missing file and a folder, each at its field', async () => {
    const text = runText({ inputs: { transcript: 42, schema: '{not json', document: 'nowhere.pdf' } });
    const result = await check(text, [transcript, language, schema, document]);
    assert.equal(result.plan, undefined, 'nothing to send');
    const byField = Object.fromEntries(result.problems.map((p) => [p.path.join('.'), p]));
    assert.match(byField['inputs.transcript']!.message, /must be text/);
    assert.equal(byField['inputs.transcript']!.schema, true, 'the JSON schema underlines a wrong type already');
    assert.match(byField['inputs.language']!.message, /required input missing/);
    assert.match(byField['inputs.schema']!.message, /not valid JSON/);
    assert.equal(byField['inputs.schema']!.schema, undefined, 'only we can tell broken JSON text');
    assert.match(byField['inputs.document']!.message, /file not found: .*nowhere\.pdf/);
    assert.equal(underlined(text, byField['inputs.document']!), '"document"');
    const folder = await check(runText({ inputs: { document: 'scans' } }), [document], disk({ [path.join(WORKSPACE, 'scans')]: 'folder' }));
    assert.match(folder.problems[0]!.message, /is a folder/);
  });

  it('refuses blank text and unknown inputs, naming the inputs the version takes', async () => {
    const result = await check(runText({ inputs: { transcript: '   ', topic: 'x' } }), [transcript]);
    assert.equal(result.plan, undefined);
    assert.deepEqual(result.problems.map((p) => p.path.join('.')).sort(), ['inputs.topic', 'inputs.transcript']);
    assert.match(result.problems.find((p) => p.path.includes('topic'))!.message, /no input "topic"; it takes transcript/);
  });

  it('refuses files in a batch: a batch is one JSON request', async () => {
    const file = path.join(WORKSPACE, 'a.pdf');
    const result = await check(runText({ inputs: [{ document: 'a.pdf' }, { document: 'a.pdf' }] }), [document], disk({ [file]: 'file' }));
    assert.equal(result.plan, undefined);
    assert.deepEqual(result.problems.map((p) => p.path), [['inputs', 0, 'document'], ['inputs', 1, 'document']]);
    assert.match(result.problems[0]!.message, /batch .* cannot carry files/);
  });

  it('reports structure problems (no agent, inputs of the wrong shape, broken JSON) without guessing', () => {
    assert.match(parseRunFile('{"inputs": {}}').problems[0]!.message, /agent/);
    assert.ok(parseRunFile('{"agent": "a", "inputs": "text"}').problems.length > 0);
    assert.ok(parseRunFile('{"agent": "a", "inputs": []}').problems.length > 0, 'an empty batch runs nothing');
    assert.match(parseRunFile('{"agent": ').problems[0]!.message, /JSON syntax/);
  });

  it('places the service errors on the fields they name: field maps and bare messages', () => {
    const text = runText({ inputs: { transcript: 'x', language: 'en' } });
    const problems = runErrorProblems(text, { fieldErrors: { language: ['Not a known language.'] }, nonFieldErrors: ['Missing required input: transcript'] }, ['transcript', 'language'], false);
    assert.deepEqual(problems.map((p) => underlined(text, p)).sort(), ['"language"', '"transcript"']);
    assert.equal(inputNamedIn('Input "language" is required.', new Set(['language'])), 'language');
    assert.equal(inputNamedIn('Insufficient credits to start a new job', new Set(['language'])), undefined);
  });

  it('writes a new run file from the examples, naming the version only when one was chosen', () => {
    const text = runFileText({ agentId: AGENT, agentName: 'Support Call QA', definitions: [transcript, schema, document], metadata: {} });
    const file = JSON.parse(text) as Record<string, unknown>;
    assert.deepEqual(file.inputs, { transcript: 'Agent: Hello', schema: { type: 'object' }, document: 'INV-1.pdf' });
    assert.equal(file.version, undefined);
    const pinned = JSON.parse(runFileText({ agentId: AGENT, agentName: 'QA', version: { id: 'v1', name: 'v 1' }, definitions: [transcript], inputs: { transcript: 'mine' } })) as Record<string, unknown>;
    assert.equal(pinned.version, 'v1');
    assert.deepEqual(pinned.inputs, { transcript: 'mine' });
    assert.equal(runFileName('Support Call QA'), 'support-call-qa.agentrun.json');
    assert.equal(runFileName('Support Call QA', 2), 'support-call-qa-2.agentrun.json');
    assert.ok(isRunFilePath('/w/cases/Refund.AgentRun.json') && !isRunFilePath('/w/x.json'));
  });
});
