// Hostile text for the browser tests: markup that would run or add elements if a value were ever parsed as HTML.
import type { Workbench } from './workbench';

export const IMG = `<img src=x onerror="document.title='pwned'">`;
export const SCRIPT = `<script>document.title='pwned'</script>`;
export const SVG = `<svg onload="document.title='pwned'"></svg>`;

/** Elements a payload would create, in the page and in every webview frame. */
export async function payloadElements(workbench: Workbench): Promise<number> {
  let count = 0;
  for (const frame of workbench.page.frames()) {
    count += await frame.locator('img[src="x"], svg[onload]').count().catch(() => 0);
    count += await frame.locator('script', { hasText: 'pwned' }).count().catch(() => 0);
  }
  return count;
}
