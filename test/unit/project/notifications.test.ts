import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(__dirname, '..', '..', '..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The text of the first argument of every notification call (show…Message), as written in the source. */
function notificationTexts(text: string): string[] {
  return [...text.matchAll(/window\.show(?:Information|Warning|Error)Message\(\s*(`(?:\\.|\$\{(?:[^{}]|\{[^}]*\})*\}|[^`\\])*`|'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*")/g)].map((m) => m[1]!);
}

describe('Notifications', () => {
  it('are plain text: no Markdown a notification would show as backticks or stars', () => {
    const offenders = filesUnder(join(root, 'src', 'extension')).flatMap((file) =>
      notificationTexts(readFileSync(file, 'utf8'))
        .filter((message) => /\\`|\*\*|\]\(/.test(message.replace(/\$\{(?:[^{}]|\{[^}]*\})*\}/g, '')))
        .map((message) => `${relative(root, file)}: ${message.slice(0, 120)}`),
    );
    assert.deepEqual(offenders, []);
  });
});
