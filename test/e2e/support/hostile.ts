// Hostile text for the browser tests: markup that would run or add elements if a value were ever parsed as HTML.
import * as assert from 'node:assert/strict';
import type { Workbench } from './workbench';

export const IMG = `<img src=x onerror="document.title='pwned'">`;
export const SCRIPT = `<script>document.title='pwned'</script>`;
export const SVG = `<svg onload="document.title='pwned'"></svg>`;

/**
 * What a payload would leave, in the top page and in every frame — the webviews' own frames (the
 * outer `iframe.webview` and its `#active-frame`) included: an element it created, or the title it
 * set. A payload runs in the document it was put in, so each frame's own title is read, not only the
 * top page's. Lists each trace with the frame's URL; empty when nothing ran.
 */
export async function payloadTraces(workbench: Workbench): Promise<string[]> {
  const traces: string[] = [];
  for (const frame of workbench.page.frames()) {
    const where = frame === workbench.page.mainFrame() ? 'the workbench page' : `frame ${frame.url().slice(0, 120)}`;
    const elements = (await frame.locator('img[src="x"], svg[onload]').count()) + (await frame.locator('script', { hasText: 'pwned' }).count());
    if (elements > 0) traces.push(`${elements} payload element(s) in ${where}`);
    // A frame that goes away meanwhile (a webview reloading) has nothing to report. The whole title,
    // not a part of it: the window title shows the hostile names themselves, as text.
    const title = await frame.evaluate(() => document.title).catch(() => '');
    if (title === 'pwned') traces.push(`a payload set the title of ${where}`);
  }
  return traces;
}

/** Fails when a payload ran anywhere; also checks that the check saw the webview frames at all. */
export async function assertNothingRan(workbench: Workbench, webviewOpen: boolean): Promise<void> {
  assert.deepEqual(await payloadTraces(workbench), []);
  if (webviewOpen) assert.ok(workbench.page.frames().some((f) => /active-frame|fake\.html/.test(f.name() + f.url())), 'the webview\'s own frame was checked');
}
