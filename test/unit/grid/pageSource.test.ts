// What the page's source may never do, checked on the source itself (the browser tests check behaviour).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RESULTS_PAGE_BODY } from '../../../src/extension/queries/resultsPanelPage';

const pageDir = path.resolve(__dirname, '../../../src/webview/resultsGrid');
const sources = fs.readdirSync(pageDir).filter((name) => name.endsWith('.ts'));

describe('the results grid page source', () => {
  it('never turns a string into markup or code', () => {
    assert.ok(sources.length > 3);
    for (const name of sources) {
      const text = fs.readFileSync(path.join(pageDir, name), 'utf8');
      for (const sink of [/\.innerHTML\b/, /\.outerHTML\b/, /insertAdjacentHTML/, /document\.write/, /\beval\(/, /new Function\(/, /setTimeout\(\s*['"`]/, /DOMParser/, /createContextualFragment/]) {
        assert.doesNotMatch(text, sink, `${name} uses ${sink}`);
      }
    }
  });

  it('loads nothing from outside: no URL in the page script or markup', () => {
    for (const name of sources) assert.doesNotMatch(fs.readFileSync(path.join(pageDir, name), 'utf8'), /https?:\/\//, name);
    assert.doesNotMatch(RESULTS_PAGE_BODY, /https?:\/\/|<script|<style|style=|\son[a-z]+=/i);
  });

  it('styles with theme colours only', () => {
    const css = fs.readFileSync(path.resolve(__dirname, '../../../media/resultsGrid/resultsGrid.css'), 'utf8');
    const colours = css.match(/#[0-9a-f]{3,8}\b|\brgba?\([^)]*\)|\bhsla?\([^)]*\)/gi) ?? [];
    // One neutral fallback for the border, used only if the theme defines none of the border colours.
    assert.deepEqual(colours, ['rgba(128, 128, 128, 0.35)']);
    assert.doesNotMatch(css, /url\(|@import/);
  });
});
