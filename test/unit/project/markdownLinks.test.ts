// Every relative link of the README and the pages of docs/ leads somewhere: a file of the repository,
// and, for a link into a Markdown page, one of that page's headings.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = join(__dirname, '..', '..', '..');

/** The README and every page of docs/. */
function pages(): string[] {
  return [join(root, 'README.md'), ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(root, 'docs', f))];
}

/** A page's text without fenced code blocks, where `#` starts no heading. */
function outsideFences(text: string): string {
  return text.replace(/^(```|~~~)[\s\S]*?^\1/gm, '');
}

/** A page's text without code blocks and code spans, where brackets are not links. */
function outsideCode(text: string): string {
  return outsideFences(text).replace(/`[^`\n]*`/g, '');
}

/** The targets of a page's links and images (`[…](target)`, `![…](target)`). */
function linkTargets(text: string): string[] {
  return [...outsideCode(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

/** The anchor a heading gets, as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchor(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown page's headings; a repeated heading gets -1, -2… as on GitHub. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of outsideFences(readFileSync(file, 'utf8')).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = headingAnchor(m[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** What is wrong with one link of `page`, or undefined when it leads somewhere. */
function problemWith(page: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
  const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
  const file = pathPart === '' ? page : resolve(dirname(page), decodeURIComponent(pathPart));
  if (file !== root && !file.startsWith(root + sep)) return 'leads out of the repository';
  if (!existsSync(file)) return 'names no file';
  if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(file).has(anchor)) return `names no heading of ${relative(root, file)}`;
  return undefined;
}

describe('Links of the README and docs/', () => {
  it('make GitHub’s anchors of headings', () => {
    assert.equal(headingAnchor('The sandbox’s engine'), 'the-sandboxs-engine');
    assert.equal(headingAnchor('MCP: `agent-workbench mcp`'), 'mcp-agent-workbench-mcp');
    assert.equal(headingAnchor('The loop: edit a policy → run → read'), 'the-loop-edit-a-policy--run--read');
  });

  it('each lead to a file of the repository, and to a heading of the page they name', () => {
    const broken = pages().flatMap((page) =>
      linkTargets(readFileSync(page, 'utf8'))
        .map((target) => ({ target, problem: problemWith(page, target) }))
        .filter((link) => link.problem !== undefined)
        .map((link) => `${relative(root, page)}: (${link.target}) ${link.problem}`),
    );
    assert.deepEqual(broken, []);
  });

  it('are checked: the README has links into docs/', () => {
    assert.ok(linkTargets(readFileSync(join(root, 'README.md'), 'utf8')).filter((t) => t.startsWith('docs/')).length >= 10);
  });
});
