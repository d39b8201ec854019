import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { agentFileSlug, isRunFilePath, runFileName } from '../../../src/core/runs/runFilePath';
import { isInsideFolder, relativePathProblem, workspacePath } from '../../../src/core/runs/workspacePath';

const WS = path.resolve('/home/me/project');

describe('Paths named in a shared file', () => {
  it('resolve inside the workspace folder', () => {
    assert.deepEqual(workspacePath('data/call.txt', WS), { ok: true, path: path.join(WS, 'data', 'call.txt') });
    assert.deepEqual(workspacePath('data/..', WS), { ok: true, path: WS });
    assert.deepEqual(workspacePath('..notes.txt', WS), { ok: true, path: path.join(WS, '..notes.txt') });
    assert.deepEqual(workspacePath('notes/a:b.txt', WS), { ok: true, path: path.join(WS, 'notes', 'a:b.txt') });
  });

  it('are refused without a workspace folder to find them in', () => {
    const answer = workspacePath('data/call.txt', undefined);
    assert.equal(answer.ok, false);
    assert.match(!answer.ok ? answer.reason : '', /no workspace folder/);
  });

  it('are refused when absolute, in POSIX or Windows form, even with a workspace folder', () => {
    for (const value of ['/etc/passwd', 'C:\\Users\\me\\.ssh\\id_rsa', 'c:keys', '\\\\server\\share\\x', '\\x']) {
      const answer = workspacePath(value, WS);
      assert.equal(answer.ok, false, value);
      assert.match(!answer.ok ? answer.reason : '', /absolute path/, value);
    }
  });

  it('are refused when they climb out of the folder, with either slash', () => {
    for (const value of ['../secret', 'a/../../secret', 'a\\..\\..\\secret', '..']) {
      assert.match(relativePathProblem(value) ?? '', /leads out of the workspace folder/, value);
    }
  });

  it('are refused when they hold a NUL character', () => {
    assert.equal(relativePathProblem('a\0b'), 'the path holds a NUL character');
    assert.equal(relativePathProblem('data/call.txt'), undefined);
  });

  it('count a folder and what is under it as inside, and a sibling with a longer name as outside', () => {
    assert.equal(isInsideFolder(WS, WS), true);
    assert.equal(isInsideFolder(WS, path.join(WS, 'a', 'b')), true);
    assert.equal(isInsideFolder(WS, `${WS}x${path.sep}a`), false);
    assert.equal(isInsideFolder(WS, path.dirname(WS)), false);
  });
});

describe('Names of run files', () => {
  it('are the agent’s name in lower case with single dashes, without dashes at the ends', () => {
    assert.equal(agentFileSlug('Support — Call QA!'), 'support-call-qa');
    assert.equal(agentFileSlug('-x-'), 'x');
    assert.equal(agentFileSlug('a  b'), 'a-b');
    assert.equal(agentFileSlug('Ünïcode Agent'), 'unicode-agent');
    assert.equal(agentFileSlug('!!!'), 'agent');
    assert.equal(agentFileSlug('a'.repeat(100)).length, 60);
  });

  it('number later attempts and end in .agentrun.json, in any case', () => {
    assert.equal(runFileName('QA'), 'qa.agentrun.json');
    assert.equal(runFileName('QA', 2), 'qa-2.agentrun.json');
    assert.equal(isRunFilePath('/w/QA.AgentRun.JSON'), true);
    assert.equal(isRunFilePath('/w/qa.json'), false);
  });
});
