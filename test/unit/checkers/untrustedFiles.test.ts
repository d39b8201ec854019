// Files from a repository are untrusted: what the checkers of run files and test sets make of hostile ones.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { InputDefinition } from '../../../src/core/client';
import { parseCsvTestSet, parseJsonlTestSet } from '../../../src/core/comparison/testSet';
import { checkTestSet } from '../../../src/core/comparison/testSetCheck';
import { jsonParseCount, MAX_JSON_DEPTH } from '../../../src/core/documents/jsonProblems';
import { checkRun, filePathsOf, parseRunFile, type FileKind, type RunCheckContext } from '../../../src/core/runs/runCheck';

const AGENT = '11111111-2222-4333-8444-555555555555';
const WORKSPACE = path.resolve('/work/space');
const document: InputDefinition = { key: 'document', data_type: 'application/pdf' };
const transcript: InputDefinition = { key: 'transcript', data_type: 'text/plain' };

function disk(files: Record<string, FileKind> = {}, baseDir: string | null = WORKSPACE): RunCheckContext & { asked: string[] } {
  const asked: string[] = [];
  return { baseDir: baseDir ?? undefined, asked, fileKind: (p) => (asked.push(p), Promise.resolve(files[p] ?? 'missing')) };
}

async function check(file: Record<string, unknown>, definitions: InputDefinition[], ctx: RunCheckContext = disk()) {
  const text = JSON.stringify({ agent: AGENT, ...file }, null, 2);
  const parsed = parseRunFile(text);
  assert.ok(parsed.file, JSON.stringify(parsed.problems));
  return { text, result: await checkRun(text, parsed.file, definitions, ctx) };
}

describe('a run file names only files of the workspace', () => {
  it('refuses an absolute path at its field and never looks at the file', async () => {
    const ctx = disk({ '/home/me/.ssh/id_rsa': 'file' });
    const { text, result } = await check({ inputs: { document: '/home/me/.ssh/id_rsa' } }, [document], ctx);
    assert.equal(result.plan, undefined, 'nothing to send');
    assert.match(result.problems[0]!.message, /absolute path: name files by their path relative to the workspace folder/);
    assert.equal(text.slice(result.problems[0]!.offset, result.problems[0]!.offset + result.problems[0]!.length), '"document"');
    assert.deepEqual(ctx.asked, []);
  });

  it('refuses a relative path that climbs out of the workspace folder', async () => {
    const { result } = await check({ inputs: { document: 'scans/../../../etc/passwd' } }, [document], disk({ [path.resolve('/etc/passwd')]: 'file' }));
    assert.equal(result.plan, undefined);
    assert.match(result.problems[0]!.message, /leads out of the workspace folder/);
  });

  it('refuses a link inside the workspace that leads to a file outside it', async () => {
    const link = path.join(WORKSPACE, 'innocent.pdf');
    const { result } = await check({ inputs: { document: 'innocent.pdf' } }, [document], disk({ [link]: 'outside' }));
    assert.equal(result.plan, undefined);
    assert.match(result.problems[0]!.message, /link to a file outside the workspace/);
  });

  it('without a workspace folder says to open one, never to give an absolute path', async () => {
    const { result } = await check({ inputs: { document: 'scans/INV-1.pdf' } }, [document], disk({}, null));
    assert.match(result.problems[0]!.message, /no workspace folder to find it in: open the folder that holds it/);
    assert.doesNotMatch(result.problems[0]!.message, /absolute path/);
  });

  it('lists only the files that stay in the workspace for watching', () => {
    const text = JSON.stringify({ agent: AGENT, inputs: { document: '../outside.pdf' } });
    assert.deepEqual(filePathsOf(parseRunFile(text).file!, [document], WORKSPACE), []);
  });
});

describe('a test set names only files of the workspace', () => {
  it('leaves out a case whose file input is absolute or climbs out, naming its line, and keeps the others', () => {
    const text = ['{"inputs":{"doc":{"file":"/etc/passwd"}}}', '{"inputs":{"doc":{"file":"a/../../x.pdf"}}}', '{"inputs":{"doc":{"file":"scans/ok.pdf"}}}'].join('\n');
    const { cases, problems } = parseJsonlTestSet(text);
    assert.deepEqual(cases.map((c) => c.line), [3]);
    assert.deepEqual(problems.map((p) => p.line), [1, 2]);
    assert.match(problems[0]!.message, /absolute path/);
    assert.match(problems[1]!.message, /leads out of the workspace folder/);
    assert.deepEqual(checkTestSet('x.testset.jsonl', text).map((p) => p.line), [1, 2]);
  });
});

describe('keys like __proto__ are data', () => {
  it('keeps a CSV test set column named __proto__ as an input', () => {
    const { cases } = parseCsvTestSet('__proto__,constructor,expected.__proto__\nevil,c,out\n');
    assert.deepEqual(Object.keys(cases[0]!.inputs), ['__proto__', 'constructor']);
    assert.equal(Object.getOwnPropertyDescriptor(cases[0]!.inputs, '__proto__')?.value, 'evil');
    assert.equal(Object.getPrototypeOf(cases[0]!.inputs), Object.prototype, 'the prototype is untouched');
    assert.equal(Object.getOwnPropertyDescriptor(cases[0]!.expected!.outputs!, '__proto__')?.value, 'out');
  });

  it('keeps __proto__ in a JSONL case\'s expected outputs', () => {
    const { cases } = parseJsonlTestSet('{"inputs":{"a":"1"},"expected":{"outputs":{"__proto__":"x"}}}');
    assert.equal(Object.getOwnPropertyDescriptor(cases[0]!.expected!.outputs!, '__proto__')?.value, 'x');
  });

  it('sends __proto__ in a run file\'s metadata as it is written', async () => {
    const { result } = await check({ inputs: { transcript: 'hi' }, metadata: JSON.parse('{"__proto__":{"polluted":true},"case":"x"}') as unknown }, [transcript]);
    assert.deepEqual(Object.keys(result.plan!.metadata!), ['__proto__', 'case']);
    assert.equal(JSON.stringify(result.plan!.metadata), '{"__proto__":{"polluted":true},"case":"x"}');
  });
});

describe('one broken CSV row never hides the others', () => {
  it('names the line of an unclosed quote and reads every row after it', () => {
    const { cases, problems } = parseCsvTestSet('transcript,name\nhello,one\n"never closed,two\nbye,three\n"multi\nline",four\n');
    assert.deepEqual(cases.map((c) => [c.line, c.name]), [[2, 'one'], [4, 'three'], [5, 'four']]);
    assert.equal(cases[2]!.inputs.transcript, 'multi\nline');
    assert.deepEqual(problems.map((p) => p.line), [3]);
    assert.match(problems[0]!.message, /quote on this line is never closed/);
  });
});

describe('checking a run file stays linear', () => {
  it('parses a batch of 4,000 input sets with a bad value each a constant number of times', async () => {
    const before = jsonParseCount();
    const { result } = await check({ inputs: Array.from({ length: 4000 }, () => ({ transcript: 42 })) }, [transcript]);
    assert.equal(result.problems.length, 4000);
    assert.ok(jsonParseCount() - before <= 2, `parsed ${jsonParseCount() - before} times`);
  });

  it('reports nesting deeper than the cap as a problem instead of crashing', () => {
    const deep = `{"agent":"${AGENT}","inputs":${'['.repeat(1_000_000)}`;
    const parsed = parseRunFile(deep);
    assert.equal(parsed.file, undefined);
    assert.match(parsed.problems[0]!.message, new RegExp(`Nested more than ${MAX_JSON_DEPTH} levels deep`));
    assert.match(parseJsonlTestSet(`{"inputs":{"a":${'['.repeat(100_000)}}}`).problems[0]!.message, /Nested more than/);
  });
});
