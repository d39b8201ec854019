import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { SUMMARY_PREVIEW_BODY } from '../../../src/extension/policies/summaryPreviewPage';
import { contentSecurityPolicy, createNonce, escapeHtml, webviewHtml } from '../../../src/extension/webview/webviewHtml';
import { PAGE_SOURCE, PAGE_STYLE, loadPage, type FakeWebview } from './helpers/fakeWebview';
import { XSS_PAYLOAD, renderView } from './helpers/policies';

const SCRIPT = fs.readFileSync(PAGE_SOURCE, 'utf8');
const STYLE = fs.readFileSync(PAGE_STYLE, 'utf8');
const IDS = [...SUMMARY_PREVIEW_BODY.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!);

describe('the webview page of the Summary Preview', () => {
  describe('its HTML', () => {
    const nonce = createNonce();
    const html = webviewHtml({ title: 'Summary <Preview>', cspSource: 'https://x.vscode-cdn.net', nonce, scriptUri: 'https://x.vscode-cdn.net/main.js', styleUris: ['https://x.vscode-cdn.net/main.css'], body: SUMMARY_PREVIEW_BODY });
    const csp = contentSecurityPolicy('https://x.vscode-cdn.net', nonce);

    it("allows nothing by default, scripts only with this load's nonce, styles and fonts only from the extension", () => {
      assert.match(csp, /^default-src 'none';/);
      assert.match(csp, new RegExp(`script-src 'nonce-${nonce}';`));
      assert.match(csp, /style-src https:\/\/x\.vscode-cdn\.net;/);
      assert.doesNotMatch(csp, /unsafe-|data:|https?:(?!\/\/x\.vscode-cdn\.net)|\*/);
      assert.match(csp, /require-trusted-types-for 'script'; trusted-types 'none'/);
      assert.match(csp, /form-action 'none'/);
      assert.ok(html.includes(`content="${escapeHtml(csp)}"`));
    });

    it('loads exactly one script, from a file, with the nonce; no inline script, style or handler anywhere', () => {
      assert.equal([...html.matchAll(/<script/g)].length, 1);
      assert.ok(html.includes(`<script nonce="${nonce}" src="https://x.vscode-cdn.net/main.js"></script>`));
      assert.doesNotMatch(html, /<style|\sstyle=|\son[a-z]+=|javascript:/i);
    });

    it('escapes the title, and takes a fresh random nonce per load', () => {
      assert.ok(html.includes('<title>Summary &#60;Preview&#62;</title>'));
      assert.notEqual(createNonce(), createNonce());
      assert.match(createNonce(), /^[A-Za-z0-9_-]{22}$/);
      assert.throws(() => webviewHtml({ title: '', cspSource: '', nonce: 'x" onload="a', scriptUri: '', styleUris: [], body: '' }));
    });

    it('has a label for the sample field and names for its regions, so it can be used by keyboard and screen reader', () => {
      assert.match(SUMMARY_PREVIEW_BODY, /<label for="sample">/);
      assert.match(SUMMARY_PREVIEW_BODY, /<pre id="output"[^>]*tabindex="0"/);
      assert.match(SUMMARY_PREVIEW_BODY, /role="status" aria-live="polite"/);
      assert.equal([...SUMMARY_PREVIEW_BODY.matchAll(/<button /g)].length, [...SUMMARY_PREVIEW_BODY.matchAll(/<button [^>]*type="button"/g)].length);
    });

    it('is styled only with theme variables (no fixed colours), with extra borders in high contrast', () => {
      assert.doesNotMatch(STYLE, /#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(/i);
      assert.match(STYLE, /body\.vscode-high-contrast/);
    });
  });

  describe('its script', () => {
    let page: FakeWebview;
    beforeEach(() => {
      page = loadPage(IDS);
    });

    it('never uses an HTML-parsing sink, eval or remote content', () => {
      assert.doesNotMatch(SCRIPT, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function|fetch\(|XMLHttpRequest|import\(/);
      for (const id of [...SCRIPT.matchAll(/byId(?:<\w+>)?\('([^']+)'\)/g)].map((m) => m[1]!)) assert.ok(IDS.includes(id), `#${id} is in the page`);
      for (const id of [...SCRIPT.matchAll(/'([a-z-]+)': '[a-zA-Z]+'/g)].map((m) => m[1]!)) assert.ok(IDS.includes(id), `button #${id} is in the page`);
    });

    it('says it is ready when it has loaded', () => {
      assert.deepEqual(page.sent, [{ type: 'ready' }]);
    });

    it('shows a rendered script payload as literal text, never as markup, and reports the text it shows', () => {
      page.receive({ type: 'render', seq: 1, view: renderView({ output: XSS_PAYLOAD, title: `Policy ${XSS_PAYLOAD}` }) });
      assert.equal(page.element('output').textContent, XSS_PAYLOAD);
      assert.equal(page.element('source-title').textContent, `Policy ${XSS_PAYLOAD}`);
      assert.deepEqual(page.sent.at(-1), { type: 'shown', seq: 1, text: XSS_PAYLOAD });
      page.receive({ type: 'render', seq: 2, view: renderView({ output: null, templateError: { message: XSS_PAYLOAD, line: 1, column: 2 } }) });
      assert.equal(page.element('template-error-text').textContent, `Template error — Line 1, column 2: ${XSS_PAYLOAD}`);
      page.receive({ type: 'sample', sample: { key: 'policy:1', text: XSS_PAYLOAD, origin: XSS_PAYLOAD, remembered: true } });
      assert.equal(page.element('sample').value, XSS_PAYLOAD);
      assert.equal(page.element('sample-origin').textContent, XSS_PAYLOAD);
    });

    it('ignores messages of unknown shape, and messages from another origin than the webview host', () => {
      page.receive({ type: 'render', seq: 3, view: renderView({ output: 'first' }) });
      page.receive({ type: 'render', seq: 4, view: { output: 'malformed' } });
      page.receive({ type: 'html', html: '<b>x</b>' });
      page.receive({ type: 'render', seq: 5, view: renderView({ output: 'from another frame' }) }, false);
      assert.equal(page.element('output').textContent, 'first');
      assert.equal(page.warnings.length, 2);
    });

    it('shows template and data errors, keeping the last output dimmed meanwhile', () => {
      page.receive({ type: 'render', seq: 6, view: renderView({ output: 'good' }) });
      page.receive({ type: 'render', seq: 7, view: renderView({ output: null, templateError: { message: 'Missing helper', line: 3, column: 4 }, dataError: { message: 'Not JSON', line: 1, column: 9 } }) });
      assert.equal(page.element('output').textContent, 'good');
      assert.ok(page.element('output').classes.has('stale'));
      assert.equal(page.element('template-error').hidden, false);
      assert.equal(page.element('data-error').textContent, 'Line 1, column 9: Not JSON');
      assert.equal(page.element('sample').getAttribute('aria-invalid'), 'true');
      assert.equal(page.element('status').textContent, 'Template error');
      assert.equal(page.element('copy-output').disabled, true);
    });

    it('says why nothing is shown when the very first render already fails', () => {
      page.receive({ type: 'render', seq: 1, view: renderView({ output: null, templateError: { message: 'Syntax error', line: 1, column: 1 } }) });
      assert.match(page.element('output').textContent, /Nothing rendered yet/);
      assert.ok(page.element('output').classes.has('empty'));
      page.receive({ type: 'render', seq: 2, view: renderView({ output: 'fixed' }) });
      assert.equal(page.element('output').textContent, 'fixed');
      assert.ok(!page.element('output').classes.has('empty'));
    });

    it('remembers which document it shows, so a reload can bring the preview back', () => {
      page.receive({ type: 'render', seq: 8, view: renderView({ sourceUri: 'file:///drafts/policy.json' }) });
      assert.deepEqual(page.state, { sourceUri: 'file:///drafts/policy.json' });
    });

    it('sends sample edits after a pause in typing, or at once with Ctrl+Enter, naming the policy they belong to', () => {
      page.receive({ type: 'sample', sample: { key: 'policy:7', text: '{}', origin: 'Built from the policy', remembered: true } });
      const sent = page.sent.length;
      const sample = page.element('sample');
      sample.value = '{"a":';
      sample.dispatch('input');
      sample.value = '{"a":1}';
      sample.dispatch('input');
      page.advance(200);
      assert.equal(page.sent.length, sent, 'nothing sent while typing');
      page.advance(60);
      assert.deepEqual(page.sent.at(-1), { type: 'sampleChanged', key: 'policy:7', text: '{"a":1}' });
      sample.value = '{"a":2}';
      sample.dispatch('keydown', { key: 'Enter', ctrlKey: true });
      assert.deepEqual(page.sent.at(-1), { type: 'sampleChanged', key: 'policy:7', text: '{"a":2}' });
    });

    it('turns each button into its action message', () => {
      const buttons = { 'fill-from-job': 'fillFromJob', 'reset-sample': 'resetSample', 'copy-output': 'copyOutput', 'reveal-error': 'revealTemplateError', 'show-source': 'showSource' };
      for (const [id, action] of Object.entries(buttons)) {
        page.element(id).dispatch('click');
        assert.deepEqual(page.sent.at(-1), { type: 'action', action });
      }
    });

    it('sends an edit still waiting for the policy it was typed for when another policy\'s sample arrives', () => {
      page.receive({ type: 'sample', sample: { key: 'policy:1', text: '{}', origin: 'o', remembered: true } });
      const sample = page.element('sample');
      sample.value = '{"typed": "for policy 1"}';
      sample.dispatch('input');
      page.receive({ type: 'sample', sample: { key: 'policy:2', text: '{"b":2}', origin: 'o', remembered: true } });
      assert.deepEqual(page.sent.at(-1), { type: 'sampleChanged', key: 'policy:1', text: '{"typed": "for policy 1"}' });
      assert.equal(sample.value, '{"b":2}');
      const sent = page.sent.length;
      page.advance(1000);
      assert.equal(page.sent.length, sent, 'and only once');
    });

    it('lets a reset or a job fill replace an edit still waiting for the same policy', () => {
      page.receive({ type: 'sample', sample: { key: 'policy:1', text: '{}', origin: 'o', remembered: true } });
      const sample = page.element('sample');
      sample.value = '{"typed": 1}';
      sample.dispatch('input');
      page.receive({ type: 'sample', sample: { key: 'policy:1', text: '{"from": "job"}', origin: 'Job 1', remembered: true } });
      page.advance(1000);
      assert.ok(!page.sent.some((m) => (m as { type: string }).type === 'sampleChanged'));
      assert.equal(sample.value, '{"from": "job"}');
    });

    it('shows what to do when there is nothing to preview', () => {
      page.receive({ type: 'idle', message: 'Open a policy' });
      assert.equal(page.element('content').hidden, true);
      assert.equal(page.element('idle').textContent, 'Open a policy');
    });
  });
});
