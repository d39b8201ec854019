// A page object for the VS Code workbench as code-server serves it (VS Code 1.100): what a person
// does (open a view, run a command, answer a prompt, read the status bar) in a few stable selectors.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { resultsDir } from '../../harness/index.mjs';

const QUICK_INPUT = '.quick-input-widget';

/** Escapes `text` for use inside a RegExp. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class Workbench {
  constructor(readonly page: Page) {}

  /** Loads the workbench at `url` and waits until its parts are laid out and usable. */
  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await this.waitForWorkbench();
  }

  /** Reloads the window the way a user does (`workbench.action.reloadWindow`) and waits for it to come back. */
  async reloadWindow(): Promise<void> {
    const navigated = this.page.waitForEvent('framenavigated', { predicate: (frame) => frame === this.page.mainFrame(), timeout: 60_000 });
    await this.runCommand('Developer: Reload Window');
    await navigated;
    await this.waitForWorkbench();
  }

  private async waitForWorkbench(): Promise<void> {
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await this.page.locator('.part.activitybar [role="tab"]').first().waitFor({ timeout: 60_000 });
    await this.page.locator('.part.statusbar').waitFor();
    // The remote indicator fills in once the extension host is connected.
    await this.page.locator('#status\\.host').waitFor({ timeout: 60_000 });
  }

  /** The activity-bar entry whose label starts with `title` (labels may end in a key binding). */
  activityBarItem(title: string): Locator {
    return this.page.locator('.part.activitybar [role="tab"]').filter({
      has: this.page.locator(`a.action-label[aria-label^="${title}"]`),
    });
  }

  /** Opens the view container `title` in the side bar (a click on an open one would close it). */
  async openActivity(title: string): Promise<void> {
    const item = this.activityBarItem(title);
    await item.waitFor({ timeout: 30_000 });
    const sideBarShown = await this.page.locator('.part.sidebar').isVisible();
    if ((await item.getAttribute('aria-selected')) !== 'true' || !sideBarShown) {
      await item.click();
      // The pointer left on the activity bar raises its hover ("Explorer (Ctrl+Shift+E)"), which then
      // takes the next click meant for a row of the side bar: move it to the panel-free editor area.
      const editor = await this.page.locator('.part.editor').boundingBox();
      if (editor) await this.page.mouse.move(editor.x + editor.width / 2, editor.y + editor.height - 5);
      await this.page.locator('.monaco-hover, .context-view .hover-contents').first().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
    }
    await this.page.locator('.part.sidebar').waitFor();
  }

  /** The side-bar section (view) whose header reads `name`. */
  view(name: string): Locator {
    return this.page.locator('.part.sidebar .pane').filter({
      has: this.page.locator('.pane-header h3.title', { hasText: new RegExp(`^${literal(name)}$`, 'i') }),
    });
  }

  /** Collapses a side-bar section (view), leaving its room to the others. */
  async collapseView(name: string): Promise<void> {
    const header = this.view(name).locator('.pane-header');
    await header.waitFor();
    if ((await header.getAttribute('aria-expanded')) === 'true') await header.click();
  }

  /** The titles of the sections shown in the side bar, top to bottom. */
  async viewTitles(): Promise<string[]> {
    // textContent, not innerText: the headers are upper-cased by CSS only.
    return this.page.locator('.part.sidebar .pane-header h3.title').allTextContents();
  }

  /** Runs a command by its palette label ("Agent Workbench: Sign In") through F1, like a user. */
  async runCommand(label: string): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.press('F1');
    const input = this.page.locator(`${QUICK_INPUT} input.input`);
    await input.waitFor();
    await input.fill(`>${label}`);
    // Titles may end in "…"; pick the row itself rather than trusting Enter on a list still filtering.
    const row = this.page.locator(`${QUICK_INPUT} .monaco-list-row`).filter({
      has: this.page.locator('.label-name', { hasText: new RegExp(`^${literal(label)}…?$`) }),
    });
    await row.first().waitFor({ timeout: 15_000 });
    await row.first().click();
  }

  /**
   * Waits for the quick input (an input box or a password box) whose title or prompt matches
   * `expect`, types `text` and presses Enter.
   */
  async answerInput(text: string, expect?: RegExp): Promise<void> {
    const widget = this.page.locator(QUICK_INPUT);
    await widget.waitFor();
    if (expect) await widget.filter({ hasText: expect }).waitFor({ timeout: 15_000 });
    const input = widget.locator('input.input');
    await input.fill(text);
    await input.press('Enter');
  }

  /** The quick input's text box (its `type` is "password" for a password box). */
  quickInputBox(): Locator {
    return this.page.locator(`${QUICK_INPUT} input.input`);
  }

  /** Waits until the quick input has closed (its command accepted the answer). */
  async waitForQuickInputClosed(timeout = 30_000): Promise<void> {
    await this.page.locator(QUICK_INPUT).waitFor({ state: 'hidden', timeout });
  }

  /** The messages of the notification toasts on screen. */
  async notifications(): Promise<string[]> {
    return this.page.locator('.notification-toast .notification-list-item-message').allInnerTexts();
  }

  /** Waits for a notification toast whose message contains or matches `pattern`; returns its text. */
  async waitForNotification(pattern: string | RegExp, timeout = 30_000): Promise<string> {
    const toast = this.page.locator('.notification-toast .notification-list-item-message', { hasText: pattern });
    await toast.first().waitFor({ timeout });
    return toast.first().innerText();
  }

  /** The texts of the status bar items, left to right. */
  async statusBarTexts(): Promise<string[]> {
    const texts = await this.page.locator('.part.statusbar .statusbar-item').allInnerTexts();
    return texts.map((text) => text.trim()).filter((text) => text.length > 0);
  }

  /** Waits for a status bar item whose text contains or matches `pattern`; returns its text. */
  async waitForStatusBarText(pattern: string | RegExp, timeout = 30_000): Promise<string> {
    const item = this.page.locator('.part.statusbar .statusbar-item', { hasText: pattern });
    try {
      await item.first().waitFor({ timeout });
    } catch (error) {
      // The log of a run keeps only its end: say what the window showed instead.
      const shown = await this.statusBarTexts().catch(() => []);
      const toasts = await this.notifications().catch(() => []);
      const input = await this.page.locator('.quick-input-widget:visible .quick-input-title, .quick-input-widget:visible input').allInnerTexts().catch(() => []);
      throw new Error(`no status bar item matched ${String(pattern)} within ${timeout} ms; the status bar showed ${JSON.stringify(shown)}, notifications ${JSON.stringify(toasts)}${input.length ? `, an open input ${JSON.stringify(input)}` : ''} (${(error as Error).message.split('\n')[0]})`);
    }
    return (await item.first().innerText()).trim();
  }

  /** The tree row in view `viewName` whose label is `label` (a string matches the whole label). */
  treeItem(viewName: string, label: string | RegExp): Locator {
    const name = typeof label === 'string' ? new RegExp(`^${literal(label)}$`) : label;
    return this.view(viewName)
      .locator('.monaco-list-row[role="treeitem"]')
      .filter({ has: this.page.locator('.label-name', { hasText: name }) });
  }

  /** Waits for a tree item and expands it (a no-op when it is already expanded). */
  async expand(item: Locator): Promise<void> {
    await item.first().waitFor({ timeout: 30_000 });
    if ((await item.first().getAttribute('aria-expanded')) === 'false') {
      await item.first().locator('.monaco-tl-twistie').click();
    }
    await item.first().and(this.page.locator('[aria-expanded="true"]')).waitFor({ timeout: 30_000 });
  }

  /** Waits for a tree item and collapses it (a no-op when it is already collapsed). */
  async collapse(item: Locator): Promise<void> {
    await item.first().waitFor({ timeout: 30_000 });
    if ((await item.first().getAttribute('aria-expanded')) === 'true') {
      await item.first().locator('.monaco-tl-twistie').click();
    }
    await item.first().and(this.page.locator('[aria-expanded="false"]')).waitFor({ timeout: 30_000 });
  }

  /** Right-clicks `target` and chooses the context-menu entry `entry`. */
  async contextMenu(target: Locator, entry: string | RegExp): Promise<void> {
    await target.first().click({ button: 'right' });
    // The web workbench draws its menus in a shadow root; role locators pierce it.
    const item = this.page.getByRole('menuitem', { name: entry });
    await item.first().waitFor({ timeout: 15_000 });
    // A pointer click on a menu item does not always register in the web workbench; a hovered item
    // is the focused one, and Enter runs it, as it does for a keyboard user.
    await item.first().hover();
    await this.page.keyboard.press('Enter');
    await this.page.locator('.context-view.monaco-menu-container').waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
  }

  /** Clicks the inline action (an icon shown on hover) of a tree row whose label matches. */
  async inlineAction(row: Locator, label: RegExp): Promise<void> {
    await row.first().hover();
    const actions = row.first().locator('.actions a.action-label');
    const count = await actions.count();
    const labels: string[] = [];
    for (let i = 0; i < count; i++) labels.push((await actions.nth(i).getAttribute('aria-label')) ?? '');
    const index = labels.findIndex((l) => label.test(l));
    if (index < 0) throw new Error(`no inline action matching ${label} among: ${labels.join(', ')}`);
    await actions.nth(index).click();
  }

  /** The labels of the open context menu's entries (for diagnosing a missing entry). */
  async menuEntries(): Promise<string[]> {
    return this.page.getByRole('menuitem').allTextContents();
  }

  /** Saves a screenshot of the whole page to test-results/screenshots/<name>.png; returns its path. */
  async screenshot(name: string): Promise<string> {
    const dir = path.join(resultsDir, 'screenshots');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${name.replace(/[^\w.-]+/g, '-')}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }
}
