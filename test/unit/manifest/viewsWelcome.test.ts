import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

interface Welcome {
  view: string;
  when?: string;
  contents: string;
}

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as { contributes: { viewsWelcome: Welcome[] } };

/** Evaluates the simple when-clauses of the welcome texts (`a && !b`) for the given context keys. */
function holds(when: string | undefined, keys: Record<string, boolean>): boolean {
  if (!when) return true;
  return when.split('&&').every((part) => {
    const term = part.trim();
    assert.match(term, /^!?[\w.]+$/, `a when-clause this test can read: ${when}`);
    return term.startsWith('!') ? !keys[term.slice(1)] : Boolean(keys[term]);
  });
}

describe('the welcome texts of the views', () => {
  const states: Array<Record<string, boolean>> = [
    { 'agentWorkbench.connected': false, 'agentWorkbench.signInExpired': false },
    { 'agentWorkbench.connected': false, 'agentWorkbench.signInExpired': true },
    { 'agentWorkbench.connected': false, 'agentWorkbench.signInExpired': false, 'agentWorkbench.connecting': true },
  ];

  it('show one welcome per view at a time: "Sign In Again" after a 401, "Sign In / Start Local Sandbox" before signing in, never both', () => {
    const views = [...new Set(manifest.contributes.viewsWelcome.map((w) => w.view))];
    for (const view of views) {
      for (const keys of states) {
        const shown = manifest.contributes.viewsWelcome.filter((w) => w.view === view && holds(w.when, keys));
        assert.ok(shown.length <= 1, `${view} shows ${shown.length} welcome texts when ${JSON.stringify(keys)}`);
      }
    }
  });

  it('say “Connecting…” while the window connects at start, never “Sign In”', () => {
    const keys = { 'agentWorkbench.connected': false, 'agentWorkbench.signInExpired': false, 'agentWorkbench.connecting': true };
    for (const view of ['agentWorkbench.agents', 'agentWorkbench.policies', 'agentWorkbench.datasets', 'agentWorkbench.tables']) {
      const shown = manifest.contributes.viewsWelcome.filter((w) => w.view === view && holds(w.when, keys));
      assert.deepEqual(shown.map((w) => w.contents), ['Connecting to the agent platform service…'], view);
    }
  });
});
