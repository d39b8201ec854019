import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { multipartBody } from '../../../src/core/client/multipart';
import { checkFiles } from '../../../src/core/uploads/uploadPlan';
import { describeLocalFile, LocalFileError, localFileReason } from '../../../src/core/uploads/localFile';

describe('files chosen for an upload, as found on disk', () => {
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-local-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('describes a file that is there by its name and size', async () => {
    const filePath = path.join(dir, 'calls.csv');
    fs.writeFileSync(filePath, 'a,b\n');
    assert.deepEqual(await describeLocalFile(filePath), { path: filePath, name: 'calls.csv', size: 4, isFile: true });
  });

  it('refuses a file that vanished after it was chosen, naming it, and lets the others go on', async () => {
    const kept = path.join(dir, 'kept.txt');
    fs.writeFileSync(kept, 'x');
    const gone = path.join(dir, 'gone.txt');
    const { accepted, refused } = checkFiles(await Promise.all([kept, gone].map(describeLocalFile)));
    assert.deepEqual(accepted.map((f) => f.name), ['kept.txt']);
    assert.deepEqual(refused, [{ path: gone, name: 'gone.txt', reason: 'it is no longer there (moved or deleted after it was chosen)' }]);
  });

  it('turns file-system error codes into a reason a user can act on, never the raw code', () => {
    const coded = (code: string): Error => Object.assign(new Error(`${code}: raw, stat '/x'`), { code });
    assert.equal(localFileReason(coded('EACCES')), 'this account is not allowed to read it');
    assert.equal(localFileReason(coded('EISDIR')), 'it is a folder (choose the files inside it)');
    assert.match(localFileReason(coded('EIO')), /^it could not be read \(EIO\)$/);
    const error = new LocalFileError('/data/notes.md', coded('ENOENT'));
    assert.equal(error.message, 'Could not read “notes.md”: it is no longer there (moved or deleted after it was chosen).');
    assert.equal(error.name, 'LocalFileError');
  });

  it('fails an upload body whose file vanished after it was looked at with the same sentence', async () => {
    const body = multipartBody([], { field: 'file', filePath: path.join(dir, 'moved.csv'), fileName: 'moved.csv', size: 3 }).open(() => undefined);
    let error: unknown;
    try {
      for await (const chunk of body) void chunk;
    } catch (e) {
      error = e;
    }
    assert.ok(error instanceof LocalFileError);
    assert.equal(error.message, 'Could not read “moved.csv”: it is no longer there (moved or deleted after it was chosen).');
  });
});
