import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = join(__dirname, '..', '..', '..');

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path, keep);
    return keep(name) ? [path] : [];
  });
}

/** The prose of a file: all of a Markdown file, the comments of code, without quoted examples. */
function proseOf(file: string): string {
  const text = readFileSync(file, 'utf8');
  const prose = file.endsWith('.md') ? text : (text.match(/\/\*[\s\S]*?\*\/|\/\/.*$/gm) ?? []).join('\n');
  return prose.replace(/"[^"\n]*"|'[^'\n]*'/g, '');
}

/** Every `something.md` a reader of this file is sent to. */
function markdownNamesIn(text: string): string[] {
  return [...text.matchAll(/[\w./-]*[\w-]\.md\b/g)].map((m) => m[0]);
}

/** A name resolves when it is a file beside the one citing it, or from the repository's root. */
function resolves(name: string, citedFrom: string): boolean {
  const bare = name.replace(/^\.\//, '');
  return [join(dirname(citedFrom), bare), join(root, bare), join(root, 'docs', bare)].some((p) => existsSync(p));
}

describe('Documents the project sends readers to', () => {
  const sources = [
    join(root, 'README.md'),
    ...filesUnder(join(root, 'docs'), (n) => n.endsWith('.md')),
    ...filesUnder(join(root, 'src'), (n) => n.endsWith('.ts')),
  ];

  it('are all in the repository (the README and comments cite no document we do not ship)', () => {
    const missing = sources.flatMap((file) =>
      markdownNamesIn(proseOf(file))
        .filter((name) => !resolves(name, file))
        .map((name) => `${relative(root, file)} cites ${name}`),
    );
    assert.deepEqual(missing, []);
  });

  it('include docs/service.md, which says what we rely on about the service', () => {
    const text = readFileSync(join(root, 'docs', 'service.md'), 'utf8');
    for (const heading of ['## Endpoints', '## Shapes that differ', '## Endpoints the interface omits', '## Conventions', '## Job lifecycle', '## Our decisions']) {
      assert.ok(text.includes(heading), `docs/service.md has a section "${heading}"`);
    }
  });
});
