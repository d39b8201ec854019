import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConfinedWriteRefused, confinedWriteTarget, writeConfined } from '../../../src/core/confinedWrite';

describe('Writing a file inside a folder (confined and atomic)', () => {
  let base: string;
  let root: string;
  let outside: string;
  beforeEach(async () => {
    base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'aw-write-')));
    root = path.join(base, 'workspace');
    outside = path.join(base, 'outside');
    await fs.mkdir(path.join(root, 'tests'), { recursive: true });
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'secret.txt'), 'precious');
  });
  afterEach(() => fs.rm(base, { recursive: true, force: true }));

  const refused = (pattern: RegExp) => (error: unknown) => error instanceof ConfinedWriteRefused && pattern.test(error.message);

  it('refuses a file that is a link to a file outside, and leaves that file as it was', async () => {
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(root, 'tests', 'qa.trial.json'));
    await assert.rejects(writeConfined(root, 'tests/qa.trial.json', '{}'), refused(/^Refused to write tests\/qa\.trial\.json: it is a link, and files are never written through links\.$/));
    assert.equal(await fs.readFile(path.join(outside, 'secret.txt'), 'utf8'), 'precious');
    assert.deepEqual(await fs.readdir(path.join(root, 'tests')), ['qa.trial.json'], 'no temporary file is left');
  });

  it('refuses a dangling link to a place outside, and creates nothing there', async () => {
    await fs.symlink(path.join(outside, 'made.json'), path.join(root, 'tests', 'qa.comparison.json'));
    await assert.rejects(writeConfined(root, path.join(root, 'tests', 'qa.comparison.json'), '{}'), refused(/tests\/qa\.comparison\.json: it is a link/));
    assert.deepEqual(await fs.readdir(outside), ['secret.txt']);
  });

  it('refuses any link, even one inside the folder pointing inside it (no file written here is meant to be a link)', async () => {
    await fs.writeFile(path.join(root, 'real.json'), 'old');
    await fs.symlink(path.join(root, 'real.json'), path.join(root, 'tests', 'alias.json'));
    await assert.rejects(writeConfined(root, 'tests/alias.json', 'new'), refused(/it is a link/));
    assert.equal(await fs.readFile(path.join(root, 'real.json'), 'utf8'), 'old');
  });

  it('refuses a file whose folder is a link leading outside, and creates nothing there', async () => {
    await fs.symlink(outside, path.join(root, 'out'));
    await assert.rejects(writeConfined(root, 'out/new.json', '{}'), refused(/^Refused to write out\/new\.json: its folder leads out of .* through a link\.$/));
    await assert.rejects(writeConfined(root, 'out/deeper/new.json', '{}'), refused(/its folder leads out/));
    assert.deepEqual(await fs.readdir(outside), ['secret.txt']);
  });

  it('refuses a missing folder on the way that is a dangling link', async () => {
    await fs.symlink(path.join(outside, 'nowhere'), path.join(root, 'gone'));
    await assert.rejects(writeConfined(root, 'gone/new.json', '{}'), refused(/gone\/new\.json: gone on its way is a link to nothing/));
    assert.deepEqual(await fs.readdir(outside), ['secret.txt']);
  });

  it('refuses a path that climbs out of the folder', async () => {
    await assert.rejects(writeConfined(root, '../outside/secret.txt', 'x'), refused(/it is outside/));
    assert.equal(await fs.readFile(path.join(outside, 'secret.txt'), 'utf8'), 'precious');
  });

  it('writes a new file, creating its folders, and replaces an old one', async () => {
    const written = await writeConfined(root, 'sets/new/a.json', 'one');
    assert.equal(written, path.join(root, 'sets', 'new', 'a.json'));
    await writeConfined(root, 'sets/new/a.json', 'two');
    assert.equal(await fs.readFile(written, 'utf8'), 'two');
    assert.deepEqual(await fs.readdir(path.dirname(written)), ['a.json']);
  });

  it('writes in a folder reached through a link inside it, the folder being given either way', async () => {
    const linked = path.join(base, 'linked-workspace');
    await fs.symlink(root, linked);
    await writeConfined(linked, path.join(root, 'tests', 'a.json'), 'through the real path');
    await writeConfined(root, path.join(linked, 'tests', 'b.json'), 'through the link');
    assert.deepEqual((await fs.readdir(path.join(root, 'tests'))).sort(), ['a.json', 'b.json']);
  });

  it('keeps the old content when the write fails midway, and leaves no temporary file', async () => {
    await writeConfined(root, 'tests/qa.trial.json', 'old content');
    async function* failing(): AsyncIterable<string> {
      yield 'half of the new';
      await new Promise((resolve) => setImmediate(resolve));
      throw new Error('the disk is full');
    }
    await assert.rejects(writeConfined(root, 'tests/qa.trial.json', failing()), /the disk is full/);
    assert.equal(await fs.readFile(path.join(root, 'tests', 'qa.trial.json'), 'utf8'), 'old content');
    assert.deepEqual(await fs.readdir(path.join(root, 'tests')), ['qa.trial.json']);
  });

  it('never replaces an existing file when asked to write a new one', async () => {
    await fs.writeFile(path.join(root, 'tests', 'set.testset.jsonl'), 'mine');
    await assert.rejects(writeConfined(root, 'tests/set.testset.jsonl', 'theirs', { exclusive: true }), refused(/^Refused to write tests\/set\.testset\.jsonl: it exists already\.$/));
    assert.equal(await fs.readFile(path.join(root, 'tests', 'set.testset.jsonl'), 'utf8'), 'mine');
    await writeConfined(root, 'tests/other.testset.jsonl', 'new', { exclusive: true });
    assert.deepEqual((await fs.readdir(path.join(root, 'tests'))).sort(), ['other.testset.jsonl', 'set.testset.jsonl']);
  });

  it('checks a file without writing it', async () => {
    assert.equal(await confinedWriteTarget(root, 'tests/x.json'), path.join(root, 'tests', 'x.json'));
    await fs.symlink(outside, path.join(root, 'tests', 'x.json'));
    await assert.rejects(confinedWriteTarget(root, 'tests/x.json'), refused(/it is a link/));
    await assert.rejects(fs.access(path.join(root, 'tests', 'y.json')));
  });
});
