// Datasets and uploads against a real sandbox: the tree, uploads that land byte for byte, cancel, refusals, delete.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DatasetFileNode, DatasetNode } from '../../src/extension/datasets/datasetNodes';
import type { UploadPrompts } from '../../src/extension/datasets/uploads';
import { is, connect, itemText, startSandbox, waitFor, workbench, type TestSandbox } from './support/workbench';

async function datasetNodes(): Promise<DatasetNode[]> {
  const api = await workbench();
  return ((await api.datasets.provider.getChildren()) ?? []).filter((n): n is DatasetNode => is(n, 'dataset'));
}

async function fileNodes(dataset: DatasetNode): Promise<DatasetFileNode[]> {
  const api = await workbench();
  return ((await api.datasets.provider.getChildren(dataset)) ?? []).filter((n): n is DatasetFileNode => is(n, 'datasetFile'));
}

/** Answers the upload questions, and records what was asked. */
async function answer(prompts: Partial<UploadPrompts>): Promise<{ asked: string[]; restore: () => void }> {
  const api = await workbench();
  const original = api.uploads.prompts;
  const asked: string[] = [];
  api.uploads.prompts = {
    pickDataset: async (targets, recent) => (asked.push('pickDataset'), prompts.pickDataset ? prompts.pickDataset(targets, recent) : targets.find((t) => !t.personal)),
    metadata: async () => (asked.push('metadata'), prompts.metadata ? prompts.metadata() : ''),
    confirm: async (q) => (asked.push(`confirm:${q}`), prompts.confirm ? prompts.confirm(q) : true),
    refused: async (m, go) => (asked.push(`refused:${m}`), prompts.refused ? prompts.refused(m, go) : go),
  };
  return { asked, restore: () => (api.uploads.prompts = original, undefined) };
}

const sha = (file: string): string => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** Files the sandbox stored on disk, by content hash. */
function storedHashes(dataDir: string): Set<string> {
  const dir = path.join(dataDir, 'files');
  return new Set(fs.readdirSync(dir).filter((f) => fs.statSync(path.join(dir, f)).isFile()).map((f) => sha(path.join(dir, f))));
}

describe('Datasets and uploads', function () {
  this.timeout(90_000);
  let sandbox: TestSandbox;
  let dataDir: string;
  let work: string;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-datasets-'));
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-upload-src-'));
    sandbox = await startSandbox(['--data', dataDir]);
    await connect(sandbox);
  });

  after(async () => {
    await sandbox.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('lists the personal dataset first, then the organization’s datasets with their files', async () => {
    const datasets = await datasetNodes();
    assert.ok(datasets.length >= 3, datasets.map((d) => d.dataset.name).join(', '));
    assert.equal(datasets[0]!.personal, true);
    assert.equal(itemText(datasets[0]!).icon, 'account');
    const org = datasets.find((d) => !d.personal && d.dataset.name === 'Call transcripts – March');
    assert.ok(org);
    const files = await fileNodes(org);
    assert.ok(files.length >= 3);
    assert.match(itemText(files[0]!).description, /\d+(\.\d)? (B|KB|MB)/);
  });

  it('uploads several files from disk, byte for byte, and shows them in the dataset', async () => {
    const api = await workbench();
    const target = (await datasetNodes()).find((d) => d.dataset.name === 'Sample invoices')!;
    const names = ['alpha.csv', 'beta.json', 'gamma.bin'];
    const uris = names.map((name, i) => {
      const file = path.join(work, name);
      fs.writeFileSync(file, crypto.randomBytes(10_000 + i * 50_000));
      return vscode.Uri.file(file);
    });
    const prompts = await answer({ pickDataset: (targets) => Promise.resolve(targets.find((t) => t.dataset.id === target.dataset.id)) });
    let outcomes;
    try {
      outcomes = await api.uploads.upload(uris, undefined, '{"source":"integration test"}');
    } finally {
      prompts.restore();
    }
    assert.deepEqual(outcomes.map((o) => o.ok), [true, true, true], JSON.stringify(outcomes));
    assert.ok(prompts.asked.includes('pickDataset'));
    const stored = storedHashes(dataDir);
    for (const uri of uris) assert.ok(stored.has(sha(uri.fsPath)), `${uri.fsPath} is stored with identical bytes`);
    const shown = await waitFor(async () => {
      const files = (await fileNodes(target)).map((f) => f.file.name);
      return names.every((n) => files.includes(n)) && files;
    }, 'the new files in the tree');
    assert.ok(shown.includes('gamma.bin'));
  });

  it('stops at once on cancel and leaves no file in the sandbox', async () => {
    const api = await workbench();
    const target = (await datasetNodes()).find((d) => d.dataset.name === 'Sample invoices')!;
    const big = path.join(work, 'big.bin');
    fs.writeFileSync(big, '');
    fs.truncateSync(big, 400 * 1024 * 1024);
    const before = (await api.connection.requireClient().datasets.listFiles(target.dataset.id)).count;
    const storedBefore = fs.readdirSync(path.join(dataDir, 'files')).length;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const prompts = await answer({});
    let outcomes;
    try {
      outcomes = await api.uploads.upload([vscode.Uri.file(big)], { dataset: target.dataset, personal: false }, '', controller.signal);
    } finally {
      prompts.restore();
    }
    assert.equal(outcomes[0]?.ok, false);
    assert.match(outcomes[0]?.reason ?? '', /cancel/);
    assert.equal((await api.connection.requireClient().datasets.listFiles(target.dataset.id)).count, before);
    await waitFor(() => fs.readdirSync(path.join(dataDir, 'files')).length === storedBefore, 'the partial upload to be removed');
  });

  it('refuses a folder without sending anything, and goes on with the other files', async () => {
    const api = await workbench();
    const target = (await datasetNodes()).find((d) => d.dataset.name === 'Sample invoices')!;
    const folder = path.join(work, 'a-folder');
    fs.mkdirSync(folder, { recursive: true });
    const small = path.join(work, 'small.txt');
    fs.writeFileSync(small, 'hello');
    const before = (await api.connection.requireClient().datasets.listFiles(target.dataset.id)).count;
    const onlyFolder = await answer({});
    try {
      const outcomes = await api.uploads.upload([vscode.Uri.file(folder)], { dataset: target.dataset, personal: false }, '');
      assert.equal(outcomes.length, 1);
      assert.match(outcomes[0]!.reason ?? '', /folder/);
    } finally {
      onlyFolder.restore();
    }
    assert.equal((await api.connection.requireClient().datasets.listFiles(target.dataset.id)).count, before, 'nothing was sent');
    const mixed = await answer({ refused: () => Promise.resolve(true) });
    try {
      const outcomes = await api.uploads.upload([vscode.Uri.file(folder), vscode.Uri.file(small)], { dataset: target.dataset, personal: false }, '');
      assert.deepEqual(outcomes.map((o) => `${o.name}:${o.ok}`), ['a-folder:false', 'small.txt:true']);
      assert.ok(mixed.asked.some((q) => q.startsWith('refused:') && q.includes('a-folder')));
    } finally {
      mixed.restore();
    }
  });

  it('refuses invalid metadata before anything is sent', async () => {
    const api = await workbench();
    const target = (await datasetNodes()).find((d) => d.dataset.name === 'Sample invoices')!;
    const small = path.join(work, 'meta.txt');
    fs.writeFileSync(small, 'meta');
    await assert.rejects(api.uploads.upload([vscode.Uri.file(small)], { dataset: target.dataset, personal: false }, '{not json'), /metadata is not valid/);
  });

  it('asks once before a large batch, naming the count and the total size', async () => {
    const api = await workbench();
    const target = (await datasetNodes()).find((d) => d.dataset.name === 'Sample invoices')!;
    const uris = Array.from({ length: 21 }, (_, i) => {
      const file = path.join(work, `batch-${i}.txt`);
      fs.writeFileSync(file, `row ${i}\n`);
      return vscode.Uri.file(file);
    });
    const prompts = await answer({ confirm: () => Promise.resolve(false) });
    try {
      await api.uploads.upload(uris, { dataset: target.dataset, personal: false }, '').catch(() => undefined);
    } finally {
      prompts.restore();
    }
    const confirms = prompts.asked.filter((q) => q.startsWith('confirm:'));
    assert.deepEqual(confirms, ['confirm:Upload 21 files (137 B in all) to “Sample invoices”?']);
  });

  it('uploads to the personal dataset', async () => {
    const api = await workbench();
    const personal = (await datasetNodes()).find((d) => d.personal)!;
    const file = path.join(work, 'mine.txt');
    fs.writeFileSync(file, 'personal note');
    const prompts = await answer({});
    try {
      const outcomes = await api.uploads.upload([vscode.Uri.file(file)], { dataset: personal.dataset, personal: true }, '');
      assert.equal(outcomes[0]?.ok, true);
    } finally {
      prompts.restore();
    }
    const files = await api.connection.requireClient().datasets.listFiles(personal.dataset.id, { personal: true });
    assert.ok(files.results.some((f) => f.name === 'mine.txt'));
  });

  it('deletes a file after confirmation and updates the tree', async () => {
    const api = await workbench();
    const target = (await datasetNodes()).find((d) => d.dataset.name === 'Sample invoices')!;
    target.reloadFiles();
    const file = (await fileNodes(target)).find((f) => f.file.name === 'small.txt');
    assert.ok(file);
    await vscode.commands.executeCommand('agentWorkbench.datasets.deleteFile', file, true);
    assert.ok(!(await fileNodes(target)).some((f) => f.file.id === file.file.id), 'gone from the tree');
    const remaining = await api.connection.requireClient().datasets.listFiles(target.dataset.id, { page_size: 200 });
    assert.ok(!remaining.results.some((f) => f.id === file.file.id), 'gone from the service');
  });
});
