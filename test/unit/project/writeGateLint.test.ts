// The lint rule that keeps every client of the product behind the write gate: it flags a
// `new ServiceClient(…)` in src/ whose options do not carry `writeGate`.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';

type Block = { files?: string[]; rules?: Linter.RulesRecord };

async function productRules(): Promise<Linter.RulesRecord> {
  const config = ((await import(pathToFileURL(path.resolve('eslint.config.mjs')).href)) as { default: Block[] }).default;
  const block = config.find((b) => b.files?.includes('src/**/*.ts') && b.rules?.['no-restricted-syntax']);
  assert.ok(block?.rules, 'eslint.config.mjs has the write gate rule for src/');
  return block.rules;
}

async function flagged(code: string): Promise<number[]> {
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(code, [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, rules: await productRules() }], 'src/extension/example.ts');
  assert.deepEqual(messages.filter((m) => m.fatal), [], 'the example parses');
  return messages.map((m) => m.line);
}

describe('the lint rule of the write gate', () => {
  it('flags a client of the product made without the write gate, however its options hide that', async () => {
    const code = [
      "const a = new ServiceClient({ baseUrl: 'http://127.0.0.1', token: 't' });",
      "const b = new ServiceClient({ ...options, retry: { writeGate: {} } as never });",
      'const c = new ServiceClient(options);',
    ].join('\n');
    assert.deepEqual(await flagged(code), [1, 2, 3]);
  });

  it('lets a client with the write gate through', async () => {
    assert.deepEqual(await flagged("const a = new ServiceClient({ baseUrl: 'http://127.0.0.1', token: 't', writeGate: { log: (line: string) => console.warn(line) } });"), []);
  });
});
