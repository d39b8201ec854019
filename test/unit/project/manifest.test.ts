import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NODE_ONLY_COMMANDS, TRUSTED_COMMANDS } from '../../../src/extension/constants';

interface Command { command: string; title: string; category?: string; enablement?: string }
interface PaletteEntry { command: string; when?: string }
const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: { commands: Command[]; menus: { commandPalette?: PaletteEntry[] } };
  capabilities?: { untrustedWorkspaces?: { supported: boolean | 'limited'; description?: string } };
};
const commands = manifest.contributes.commands;
const palette = manifest.contributes.menus.commandPalette ?? [];

/** A command shows in the palette unless its palette entry says `when: false`. */
const inPalette = (id: string): boolean => palette.find((entry) => entry.command === id)?.when !== 'false';
const paletteTitle = (c: Command): string => (c.category ? `${c.category}: ${c.title}` : c.title);

describe('The command palette (package.json)', () => {
  it('shows every command under a title of its own, saying what it acts on', () => {
    const byTitle = new Map<string, string[]>();
    for (const c of commands.filter((c) => inPalette(c.command))) byTitle.set(paletteTitle(c), [...(byTitle.get(paletteTitle(c)) ?? []), c.command]);
    const repeated = [...byTitle].filter(([, ids]) => ids.length > 1).map(([title, ids]) => `"${title}": ${ids.join(', ')}`);
    assert.deepEqual(repeated, []);
  });

  it('hides the commands that only work on a tree node or a page cell', () => {
    assert.deepEqual(NODE_ONLY_COMMANDS.filter(inPalette), []);
  });

  it('knows every node-only command it hides (no stale ids)', () => {
    const declared = new Set(commands.map((c) => c.command));
    assert.deepEqual(NODE_ONLY_COMMANDS.filter((id) => !declared.has(id)), []);
  });
});

describe('Workspace trust (package.json)', () => {
  it('declares limited support for Restricted Mode and says what needs trust', () => {
    const untrusted = manifest.capabilities?.untrustedWorkspaces;
    assert.equal(untrusted?.supported, 'limited');
    assert.match(untrusted?.description ?? '', /Running agents.*uploading files need a trusted workspace/);
  });

  it('disables exactly the commands that run, upload, start or cancel jobs, or write labels into test sets, when the workspace is not trusted', () => {
    const gated = commands.filter((c) => /\bisWorkspaceTrusted\b/.test(c.enablement ?? '')).map((c) => c.command).sort();
    assert.deepEqual(gated, [...TRUSTED_COMMANDS].sort());
  });
});
