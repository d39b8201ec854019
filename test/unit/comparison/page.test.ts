import * as assert from 'node:assert/strict';
import { newComparison, type ComparisonRecord, type ComparisonTarget } from '../../../src/core/comparison/comparisonRecord';
import { comparisonView } from '../../../src/core/comparison/comparisonView';
import { visibleRows } from '../../../src/core/comparison/caseTable';
import { isComparisonHostMessage, parseComparisonPageMessage, type ComparisonHostMessage, type ComparisonPageMessage } from '../../../src/core/comparison/viewProtocol';
import { JobStatus } from '../../../src/core/jobStatus';
import { COMPARISON_PAGE_BODY } from '../../../src/extension/comparison/comparisonPage';
import { openWebviewPage, type WebviewTestPage } from '../support/webviewPage';

const baseline: ComparisonTarget = { id: 'before', label: 'Before', kind: 'baseline' };
const edited: ComparisonTarget = { id: 'now', label: 'After the edit', kind: 'current' };
const HOSTILE = '<img src=x onerror="window.__pwned=1">';

/** 1,000 cases; the rule change flips every tenth to Escalate; case 3 is named with markup; case 7 failed. */
function bigComparison(n = 1000): ComparisonRecord {
  const record = newComparison({
    title: 'Refund rule change',
    agentId: 'a',
    testSet: 'refunds.testset.jsonl',
    cases: Array.from({ length: n }, (_, i) => ({ line: i + 1, name: i === 3 ? HOSTILE : `case ${i}`, tags: [], inputs: { t: String(i) }, sourceJobId: `old-${i}`, expected: { disposition: i % 10 === 0 ? 'Escalate' : 'Approve' } })),
    targets: [baseline, edited],
  });
  record.cases.forEach((c, i) => {
    c.runs.before = { jobId: `old-${i}`, status: JobStatus.SUCCESS, outputs: [{ key: 'disposition', value: 'Approve' }], cost: 0.01, inputTokens: 5, outputTokens: 5, durationMs: 1000 };
    c.runs.now =
      i === 7
        ? { jobId: `new-${i}`, status: JobStatus.FAILURE, outputs: null }
        : { jobId: `new-${i}`, status: JobStatus.SUCCESS, outputs: [{ key: 'disposition', value: i % 10 === 0 ? 'Escalate' : i === 3 ? HOSTILE : 'Approve' }], cost: 0.02, inputTokens: 6, outputTokens: 6, durationMs: 1500 };
  });
  return record;
}

function message(record: ComparisonRecord, load = 1): ComparisonHostMessage {
  return { type: 'comparison', load, title: record.title, subtitle: `${record.testSet} · ${record.cases.length} cases`, keys: record.keys, ...comparisonView(record), progress: null };
}

describe('the comparison view', () => {
  describe('its model and messages', () => {
    it('sends what the page checks, and the page refuses anything else', () => {
      const m = message(bigComparison(20));
      assert.equal(isComparisonHostMessage(m), true);
      assert.equal(isComparisonHostMessage({ ...m, extra: 1 }), false);
      assert.equal(isComparisonHostMessage({ ...m, rows: [{ case: 1 }] }), false);
      assert.deepEqual(parseComparisonPageMessage({ type: 'openCase', load: 1, index: 2, left: 0, right: 1 }), { type: 'openCase', load: 1, index: 2, left: 0, right: 1 });
      assert.equal(parseComparisonPageMessage({ type: 'openCase', load: 1, index: -1, left: 0, right: 1 }), undefined);
      assert.equal(parseComparisonPageMessage({ type: 'export', load: 1, format: 'html' }), undefined);
    });

    it('filters to changed, failed or mismatched cases and sorts by any column, keeping ties in test set order', () => {
      const { rows } = comparisonView(bigComparison(30));
      const none = { onlyChanged: false, onlyFailed: false, onlyMismatches: false, text: '' };
      assert.deepEqual(visibleRows(rows, { ...none, onlyChanged: true }, null), [0, 3, 10, 20]);
      assert.deepEqual(visibleRows(rows, { ...none, onlyFailed: true }, null), [7]);
      // Before mismatches every tenth case (expected Escalate); after mismatches case 3 (markup as outcome).
      assert.deepEqual(visibleRows(rows, { ...none, onlyMismatches: true }, null), [0, 3, 10, 20]);
      assert.deepEqual(visibleRows(rows, { ...none, text: 'CASE 2' }, null), [2, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29]);
      const byOutcome = visibleRows(rows, none, { column: { kind: 'target', target: 1, field: { key: 0 } }, descending: true });
      assert.deepEqual(byOutcome.slice(0, 4), [0, 10, 20, 1]);
      assert.equal(byOutcome.at(-1), 7, 'a failed case has no outcome and sorts last');
    });
  });

  describe('its page in a browser', function () {
    this.timeout(60_000);
    let view: WebviewTestPage<ComparisonHostMessage, ComparisonPageMessage>;

    before(async () => {
      view = await openWebviewPage<ComparisonHostMessage, ComparisonPageMessage>({ entry: 'src/webview/comparison/main.ts', css: 'media/comparison/comparison.css', body: COMPARISON_PAGE_BODY, title: 'Comparison' }, { width: 1300, height: 800 });
    });
    after(async () => view?.close());

    it('shows a thousand cases as a few painted rows, with the figures and a chart per target', async () => {
      await view.post(message(bigComparison()));
      await view.page.locator('#count').filter({ hasText: '1,000 cases' }).waitFor();
      const painted = await view.page.locator('#canvas .row').count();
      assert.ok(painted > 5 && painted < 80, `painted ${painted} rows`);
      const cards = await view.page.locator('.card').allTextContents();
      assert.match(cards[0]!, /Accuracy90% of 1000 labelled/);
      assert.match(cards[1]!, /Changed101/);
      assert.match(cards[1]!, /Failures1/);
      assert.equal(await view.page.locator('svg.chart').count(), 2);
      assert.deepEqual(await view.page.locator('svg.chart').nth(1).getAttribute('aria-label'), 'Outcomes of After the edit');
    });

    it('marks the outcomes that changed and the ones that disagree with what was expected', async () => {
      await view.page.locator('#only-changed').check();
      await view.page.locator('#count').filter({ hasText: '101 of 1,000 cases' }).waitFor();
      const first = view.page.locator('#canvas .row').first();
      assert.equal(await first.locator('.col-key.diff').count(), 1);
      await view.page.locator('#only-changed').uncheck();
    });

    it('shows markup from the service as text, running nothing', async () => {
      await view.page.locator('#filter').fill('<img');
      await view.page.locator('#count').filter({ hasText: '1 of 1,000 cases' }).waitFor();
      const text = await view.page.locator('#canvas .row').first().textContent();
      assert.ok(text?.includes(HOSTILE));
      assert.equal(await view.page.locator('#canvas img').count(), 0);
      assert.equal(await view.page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned), undefined);
      assert.deepEqual(await view.violations(), []);
      await view.page.locator('#filter').fill('');
    });

    it('opens a case: the baseline on the left, the target clicked on the right', async () => {
      await view.page.locator('#canvas .row').nth(2).locator('.col-key').nth(1).dblclick();
      const open = await view.next('openCase');
      assert.deepEqual(open, { type: 'openCase', load: 1, index: 2, left: 0, right: 1 });
    });

    it('opens a case from a double-click on its name: the baseline against the first other target', async () => {
      await view.page.locator('#canvas .row').nth(4).locator('.col').first().dblclick();
      const open = await view.next('openCase');
      assert.deepEqual(open, { type: 'openCase', load: 1, index: 4, left: 0, right: 1 });
    });

    it('opens the job of a target from a double-click on its status', async () => {
      await view.page.locator('#canvas .row').nth(3).locator('[data-target="1"][data-job]').first().dblclick();
      const open = await view.next('openJob');
      assert.deepEqual(open, { type: 'openJob', load: 1, index: 3, target: 1 });
    });

    it('sorts by a column header click, and moves through cases with the keyboard', async () => {
      await view.page.locator('.head-names .col').nth(0).click();
      await view.page.locator('.head-names .col').nth(0).click();
      // Descending by case name: "case 999" first.
      assert.equal(await view.page.locator('#canvas .row').first().locator('.col-case').textContent(), 'case 999');
      await view.page.locator('#table').focus();
      await view.page.keyboard.press('ArrowDown');
      await view.page.keyboard.press('Enter');
      const open = await view.next('openCase');
      assert.equal(open.index, 998);
    });

    it('repaints a row the extension sends as changed, keeping the order and the other rows', async () => {
      const row = comparisonView(bigComparison(1000)).rows[998]!;
      const changedRow = { ...row, cells: row.cells.map((c, i) => (i === 1 ? { ...c, values: ['Refund'] } : c)) };
      await view.post({ type: 'rows', load: 1, rows: [{ index: 998, row: changedRow }], summaries: null, progress: null });
      // Still sorted descending by name, "case 998" second: its cell now shows the new outcome.
      await view.page.locator('#canvas .row').nth(1).locator('.col-key').nth(1).filter({ hasText: 'Refund' }).waitFor();
      assert.equal(await view.page.locator('#canvas .row').first().locator('.col-case').textContent(), 'case 999');
      assert.equal(await view.page.locator('#count').textContent(), '1,000 cases');
    });

    it('in test set order, repaints only the changed row in view and keeps the rest of the table', async () => {
      await view.post(message(bigComparison(1000), 2));
      await view.page.locator('#canvas .row').first().locator('.col-case').filter({ hasText: 'case 0' }).waitFor();
      const untouched = await view.page.locator('#canvas .row').nth(1).evaluate((row) => ((row as unknown as { benchMark?: number }).benchMark = 1));
      const row = comparisonView(bigComparison(1000)).rows[2]!;
      await view.post({ type: 'rows', load: 2, rows: [{ index: 2, row: { ...row, cells: row.cells.map((c, i) => (i === 1 ? { ...c, values: ['Refund'] } : c)) } }], summaries: null, progress: { text: 'Waiting for 3 jobs', running: true, cancellable: true, action: null } });
      await view.page.locator('#progress').filter({ hasText: 'Waiting for 3 jobs' }).waitFor();
      const third = view.page.locator('#canvas .row[aria-rowindex="5"]');
      assert.equal(await third.locator('.col-key').nth(1).textContent(), 'Refund');
      assert.equal(await view.page.locator('#canvas .row[aria-rowindex="4"]').evaluate((r) => (r as unknown as { benchMark?: number }).benchMark), untouched, 'the row beside it was not made again');
    });

    it('scrolls through the cases on the same few row elements, its cells under their column heads', async () => {
      await view.page.locator('#canvas .row[aria-rowindex="3"] .col-case').filter({ hasText: 'case 0' }).waitFor();
      const made = await view.page.locator('#canvas .row').evaluateAll((rows) => rows.map((r) => ((r as unknown as { poolMark?: number }).poolMark = 1)).length);
      await view.page.locator('#viewport').evaluate((v) => void ((v as unknown as { scrollTop: number }).scrollTop = 500 * 24));
      const middle = view.page.locator('#canvas .row[aria-rowindex="503"]');
      await middle.locator('.col-case').filter({ hasText: 'case 500' }).waitFor();
      const marks = await view.page.locator('#canvas .row').evaluateAll((rows) => rows.map((r) => (r as unknown as { poolMark?: number }).poolMark ?? 0));
      assert.equal(marks.length, made, 'no row element was added');
      assert.ok(marks.every((m) => m === 1), 'every row element is one made before the scroll');
      const heads = await view.page.locator('.head-names .col').evaluateAll((cells) => cells.map((c) => Math.round((c as unknown as { getBoundingClientRect(): { left: number } }).getBoundingClientRect().left)));
      const cells = await middle.locator('.col').evaluateAll((cells) => cells.map((c) => Math.round((c as unknown as { getBoundingClientRect(): { left: number } }).getBoundingClientRect().left)));
      assert.deepEqual(cells, heads);
      await view.page.locator('#viewport').evaluate((v) => void ((v as unknown as { scrollTop: number }).scrollTop = 0));
    });

    it('offers Cancel while jobs run, Start before anything ran, and Resume when the run stopped with work left', async () => {
      await view.post({ type: 'progress', load: 2, progress: { text: 'Waiting for 37 jobs', running: true, cancellable: true, action: null } });
      await view.page.locator('#cancel').waitFor({ state: 'visible' });
      assert.equal(await view.page.locator('#resume').isHidden(), true);
      await view.page.locator('#cancel').click();
      assert.deepEqual(await view.next('cancel'), { type: 'cancel', load: 2 });
      await view.post({ type: 'progress', load: 2, progress: { text: 'Not started: 3 cases to start.', running: false, cancellable: false, action: 'start' } });
      await view.page.locator('#resume').filter({ hasText: /^Start$/ }).waitFor({ state: 'visible' });
      await view.post({ type: 'progress', load: 2, progress: { text: 'Interrupted: 3 batches not started', running: false, cancellable: false, action: 'resume' } });
      await view.page.locator('#resume').filter({ hasText: /^Resume$/ }).click();
      assert.deepEqual(await view.next('resume'), { type: 'resume', load: 2 });
      await view.page.locator('#export-markdown').click();
      assert.deepEqual(await view.next('export'), { type: 'export', load: 2, format: 'markdown' });
    });

    it('counts the labelled cases that became right, became wrong and stayed wrong, and filters the table to them from the keyboard', async () => {
      const moves = view.page.locator('#transitions .transition-moves');
      await moves.filter({ hasText: '100 became right' }).waitFor();
      assert.match((await moves.textContent()) ?? '', /Before → After the edit100 became right1 became wrong0 stayed wrongof 999 labelled cases both finished/);
      const becameWrong = view.page.getByRole('button', { name: /^1 case became wrong/ });
      await becameWrong.focus();
      await view.page.keyboard.press('Enter');
      await view.page.locator('#count').filter({ hasText: '1 of 1,000 cases' }).waitFor();
      assert.equal(await view.page.locator('#canvas .row').first().locator('.col-case').textContent(), HOSTILE);
      assert.equal(await becameWrong.getAttribute('aria-pressed'), 'true');
      assert.equal(await view.page.evaluate(() => (globalThis as unknown as { document: { activeElement: { getAttribute(name: string): string | null } | null } }).document.activeElement?.getAttribute('aria-label')), '1 case became wrong: show only them', 'focus stays on the filter pressed');
      await view.page.keyboard.press('Enter');
      await view.page.locator('#count').filter({ hasText: /^1,000 cases$/ }).waitFor();
      assert.equal(await view.page.getByRole('button', { name: /^0 cases stayed wrong/ }).isDisabled(), true, 'an empty move is no filter');
    });

    it('shows the outcome before × the outcome after with counts, as text, each count a filter', async () => {
      const table = view.page.locator('#transitions table.transition-table');
      const heads = await table.locator('th').allTextContents();
      assert.deepEqual(heads, ['', HOSTILE, 'Approve', 'Escalate', 'Refund', 'Approve'], 'the outcomes after (one a service value with markup, one the row the extension repainted above), then the one before');
      assert.equal(await table.locator('img').count(), 0);
      await table.getByRole('button', { name: /^100 cases Approve on Before and Escalate on After the edit/ }).click();
      await view.page.locator('#count').filter({ hasText: '100 of 1,000 cases' }).waitFor();
      assert.equal(await view.page.locator('#canvas .row').nth(1).locator('.col-case').textContent(), 'case 10');
      await table.getByRole('button', { name: /^100 cases/ }).click();
      await view.page.locator('#count').filter({ hasText: /^1,000 cases$/ }).waitFor();
      assert.deepEqual(await view.violations(), []);
    });

    it('offers This Is Right on each target’s outcome of the selected case, and Set Expected…, after the table in the tab order', async () => {
      await view.page.locator('#canvas .row').first().click();
      const bar = view.page.locator('#label-bar');
      await bar.locator('.label-case').filter({ hasText: 'case 0: expected Escalate' }).waitFor();
      assert.equal(await bar.getByRole('button', { name: "This Is Right: After the edit's Escalate" }).isDisabled(), true, 'the outcome it already expects');
      // A check mark only on the outcome the case expects; Before's Approve is wrong for a case expecting Escalate.
      assert.deepEqual(await bar.locator('.label-right').allInnerTexts(), ['This Is Right: Before: Approve', '✓ After the edit: Escalate (as expected)']);
      await bar.getByRole('button', { name: "This Is Right: Before's Approve" }).click();
      assert.deepEqual(await view.next('label'), { type: 'label', load: 2, index: 0, target: 0, key: 0, action: 'right' });
      await view.page.locator('#table').focus();
      await view.page.keyboard.press('ArrowDown');
      await bar.locator('.label-case').filter({ hasText: 'case 1: expected Approve' }).waitFor();
      await view.page.keyboard.press('Tab');
      await view.page.keyboard.press('Enter');
      assert.deepEqual(await view.next('label'), { type: 'label', load: 2, index: 1, target: 1, key: 0, action: 'set' });
    });

    it('walks the unlabelled cases by keyboard: a number picks a disposition, Enter agrees, S skips, Backspace goes back, Escape stops', async () => {
      const record = bigComparison(20);
      for (const i of [2, 5, 6]) delete record.cases[i]!.expected;
      await view.post(message(record, 3));
      await view.page.locator('#count').filter({ hasText: '20 cases' }).waitFor();
      await view.page.locator('#canvas .row[aria-rowindex="3"]').click();
      await view.page.locator('#label-cases').click();
      assert.deepEqual(await view.next('labelMode'), { type: 'labelMode', load: 3 });
      assert.deepEqual(await view.next('inputs'), { type: 'inputs', load: 3, index: 2 });
      await view.post({ type: 'dispositions', load: 3, values: ['Approve', 'Escalate', 'Refund'] });
      await view.post({ type: 'inputs', load: 3, index: 2, inputs: [['t', HOSTILE]] });
      const pass = view.page.locator('#label-pass');
      await pass.locator('.pass-inputs').filter({ hasText: HOSTILE }).waitFor();
      assert.equal(await pass.locator('.pass-progress').textContent(), '17 of 20 labelled');
      assert.equal(await pass.locator('.pass-case').textContent(), 'case 2');
      assert.deepEqual(await pass.locator('.pass-choices li').allTextContents(), ['1Approve', '2Escalate', '3Refund']);
      assert.equal(await pass.locator('img').count(), 0, 'inputs are text');

      await view.page.keyboard.press('2');
      assert.deepEqual(await view.next('labelAs'), { type: 'labelAs', load: 3, index: 2, value: 'Escalate' });
      await pass.locator('.pass-case').filter({ hasText: 'case 5' }).waitFor();
      await view.page.keyboard.press('s');
      await pass.locator('.pass-case').filter({ hasText: 'case 6' }).waitFor();
      await view.page.keyboard.press('Backspace');
      await pass.locator('.pass-case').filter({ hasText: 'case 5' }).waitFor();
      await view.page.keyboard.press('Enter');
      assert.deepEqual(await view.next('label'), { type: 'label', load: 3, index: 5, target: 1, key: 0, action: 'right' });
      await pass.locator('.pass-case').filter({ hasText: 'case 6' }).waitFor();
      // The label lands: the extension sends the row with its expectation, and the progress moves.
      const labelled = comparisonView(record).rows[2]!;
      await view.post({ type: 'rows', load: 3, rows: [{ index: 2, row: { ...labelled, expected: 'Escalate' } }], summaries: null, progress: null });
      await pass.locator('.pass-progress').filter({ hasText: '18 of 20 labelled' }).waitFor();
      await view.page.keyboard.press('Escape');
      await pass.waitFor({ state: 'hidden' });
    });

    it('tells VS Code’s context menu of a target’s cell which case, target and output it is', async () => {
      const cell = view.page.locator('#canvas .row[aria-rowindex="4"] .col-key').nth(1);
      const context = JSON.parse((await cell.getAttribute('data-vscode-context')) ?? '{}') as Record<string, unknown>;
      assert.deepEqual(context, { webviewSection: 'comparisonCell', caseIndex: 1, target: 1, key: 0, comparisonCellDone: true, preventDefaultContextMenuItems: true });
      assert.equal(await view.page.locator('#canvas .row[aria-rowindex="4"] .col-case').getAttribute('data-vscode-context'), null, 'the case column has no target to label from');
    });

    it('shows a reviewer’s correction beside the label where they disagree, or where nothing is expected, as text', async () => {
      const record = bigComparison(3);
      record.cases[0]!.runs.before!.reviewed = HOSTILE; // expects Escalate: they disagree
      record.cases[1]!.runs.before!.reviewed = 'approve'; // expects Approve: they agree
      delete record.cases[2]!.expected;
      record.cases[2]!.runs.before!.reviewed = 'Escalate'; // nothing expected yet
      await view.post(message(record, 7));
      await view.page.locator('#count').filter({ hasText: /^3 cases$/ }).waitFor();
      const expected = view.page.locator('#canvas .row .col-expected');
      // The page keeps a pool of row elements: the first three show the cases.
      assert.deepEqual((await expected.allTextContents()).slice(0, 3), [`Escalate (reviewer: ${HOSTILE})`, 'Approve', '(reviewer: Escalate)']);
      const classes = await Promise.all([0, 1, 2].map((i) => expected.nth(i).getAttribute('class')));
      assert.deepEqual(classes.map((c) => /\breview-disagree\b/.test(c ?? '')), [true, false, false]);
      assert.match((await expected.nth(1).getAttribute('title')) ?? '', /corrected this case's job to approve, as the case expects/);
      await view.page.locator('#canvas .row').first().click();
      const bar = view.page.locator('#label-bar .label-case');
      await bar.filter({ hasText: `case 0: expected Escalate · A reviewer corrected this case's job to ${HOSTILE}, but the case expects Escalate: they disagree.` }).waitFor();
      assert.equal(await view.page.locator('#canvas img, #label-bar img').count(), 0);
      assert.deepEqual(await view.violations(), []);
    });

    it('says "cached" for a target whose jobs were answered from the cache, never a cost of 0 or times of 0 ms', async () => {
      const record = bigComparison(20);
      for (const c of record.cases) c.runs.now = { ...c.runs.now!, status: JobStatus.CACHED, cost: 0, inputTokens: 0, outputTokens: 0, durationMs: 0, outputs: [{ key: 'disposition', value: 'Approve' }] };
      const summary = comparisonView(record).summaries[1]!;
      assert.deepEqual([summary.cached, summary.cost, summary.p50Ms], [20, 0, null], 'cached jobs are counted apart, out of cost and durations');
      // A later load than any test before: the page takes only the newest.
      await view.post(message(record, 1000));
      await view.page.locator('#count').filter({ hasText: '20 cases' }).waitFor();
      const card = (await view.page.locator('.card').allTextContents())[1]!;
      assert.match(card, /Costcached/);
      assert.match(card, /p50 \/ p95cached/);
      assert.doesNotMatch(card, /0\.0000|0 ms/);
    });
  });
});
