// Where a test set's comparison comes from: the newest comparison file beside it that names it.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { newComparison, serializeComparison } from '../../../src/core/comparison/comparisonRecord';
import { findNewestComparison, newestComparisonOf } from '../../../src/core/comparison/comparisonFiles';

function comparisonText(testSet: string, createdAt: string, title = testSet): string {
  const record = newComparison({ title, agentId: 'a', testSet, cases: [], targets: [{ id: 'before', label: 'Before', kind: 'baseline' }, { id: 'now', label: 'Now', kind: 'current' }], now: new Date(createdAt) });
  return serializeComparison(record);
}

describe('the newest comparison of a test set', () => {
  let root: string;
  beforeEach(async () => {
    root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'aw-cmp-files-')));
    await fs.mkdir(path.join(root, 'tests'));
  });
  afterEach(() => fs.rm(root, { recursive: true, force: true }));

  const write = (name: string, text: string) => fs.writeFile(path.join(root, 'tests', name), text);

  it('is the comparison file beside it created last, a trial’s included, and never another test set’s', async () => {
    await write('loop.comparison.json', comparisonText('loop.testset.jsonl', '2026-01-01T00:00:00Z', 'first'));
    await write('loop.trial.comparison.json', comparisonText('loop.testset.jsonl', '2026-02-01T00:00:00Z', 'trial'));
    await write('loop-2.comparison.json', comparisonText('loop.testset.jsonl', '2026-01-15T00:00:00Z', 'second'));
    await write('other.comparison.json', comparisonText('other.testset.jsonl', '2026-03-01T00:00:00Z', 'other'));
    const found = await findNewestComparison(root, 'tests/loop.testset.jsonl');
    assert.equal(found.newest?.record.title, 'trial');
    assert.equal(found.newest?.file, path.join(root, 'tests', 'loop.trial.comparison.json'));
    assert.deepEqual(found.unreadable, []);
  });

  it('names the files of the test set it could not read, and follows no link', async () => {
    await write('loop.comparison.json', comparisonText('loop.testset.jsonl', '2026-01-01T00:00:00Z', 'first'));
    await write('loop-2.comparison.json', '{ not json');
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'aw-cmp-outside-'));
    await fs.writeFile(path.join(outside, 'x.json'), comparisonText('loop.testset.jsonl', '2026-05-01T00:00:00Z', 'outside'));
    await fs.symlink(path.join(outside, 'x.json'), path.join(root, 'tests', 'loop-3.comparison.json'));
    const found = await findNewestComparison(root, path.join(root, 'tests', 'loop.testset.jsonl'));
    assert.equal(found.newest?.record.title, 'first');
    assert.deepEqual(found.unreadable, ['loop-2.comparison.json', 'loop-3.comparison.json']);
    await fs.rm(outside, { recursive: true, force: true });
  });

  it('finds none for a test set never compared', async () => {
    assert.deepEqual(await findNewestComparison(root, 'tests/new.testset.jsonl'), { newest: undefined, unreadable: [] });
  });

  it('refuses a test set outside the root, through a link or not', async () => {
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'aw-cmp-outside-'));
    await fs.symlink(outside, path.join(root, 'linked'));
    await assert.rejects(findNewestComparison(root, '../elsewhere/x.testset.jsonl'), /is outside|does not exist/);
    await assert.rejects(findNewestComparison(root, 'linked/x.testset.jsonl'), /linked\/x\.testset\.jsonl is outside .*: comparisons are read only inside it\./);
    await fs.rm(outside, { recursive: true, force: true });
  });

  it('chooses among files an editor read itself by the record’s test set and creation time', () => {
    const at = (file: string, testSet: string, createdAt: string) => ({ file, record: { testSet, createdAt } });
    const files = [at('a', './loop.testset.jsonl', '2026-01-02'), at('b', 'loop.testset.jsonl', '2026-01-01'), at('c', 'other.testset.jsonl', '2026-02-01')];
    assert.equal(newestComparisonOf(files, 'loop.testset.jsonl')?.file, 'a');
    assert.equal(newestComparisonOf(files, 'none.testset.jsonl'), undefined);
  });
});
