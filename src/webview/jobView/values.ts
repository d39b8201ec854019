// Service values on the page: JSON as a foldable tree, long text folded to a readable height. Every
// string goes in with textContent; nothing from the service ever becomes markup.
import { markdownBlocks, type InlineSpan, type MarkdownBlock } from '../../core/jobView/markdownBlocks';
import type { ShownValue } from '../../core/jobView/model';
import { el as make } from './elements';

/** JSON longer than this is shown as pretty text rather than a tree (a tree of a huge document is slow to build). */
const MAX_TREE_CHARS = 200_000;
/** Text taller than this starts folded, with a button to show it all. */
const FOLDED_LINES = 24;
/** Objects and arrays nested deeper than this start closed. */
const OPEN_DEPTH = 2;

/** The element showing one value. */
export function valueElement(value: ShownValue, label: string): HTMLElement {
  if (value.kind === 'json' && value.text.length <= MAX_TREE_CHARS) {
    try {
      const tree = make('div', 'json-tree');
      tree.setAttribute('aria-label', label);
      tree.append(jsonNode(JSON.parse(value.text) as unknown, null, 0));
      return tree;
    } catch {
      // Cut or not JSON after all: shown as text below.
    }
  }
  if (value.kind === 'markdown') return markdownElement(value, label);
  return textBlock(value, label);
}

/** Markdown rendered from its blocks, every piece of text as textContent; a button shows the source. */
function markdownElement(value: ShownValue, label: string): HTMLElement {
  const wrap = make('div', 'value-wrap');
  const rendered = make('div', 'value markdown');
  rendered.tabIndex = 0;
  rendered.setAttribute('aria-label', label);
  for (const block of markdownBlocks(value.text)) rendered.append(blockElement(block));
  const source = textBlock({ ...value, kind: 'text' }, `${label} (Markdown source)`);
  source.hidden = true;
  const toggle = make('button', 'link-button', 'Show Markdown source');
  toggle.type = 'button';
  toggle.addEventListener('click', () => {
    source.hidden = !source.hidden;
    rendered.hidden = !source.hidden;
    toggle.textContent = source.hidden ? 'Show Markdown source' : 'Show rendered';
  });
  wrap.append(rendered, source, toggle);
  return wrap;
}

function blockElement(block: MarkdownBlock): HTMLElement {
  switch (block.kind) {
    case 'heading':
      return withSpans(make(`h${Math.min(block.level + 2, 6)}` as 'h3', 'md-heading'), block.spans);
    case 'paragraph':
      return withSpans(make('p', 'md-paragraph'), block.spans);
    case 'quote':
      return withSpans(make('blockquote', 'md-quote'), block.spans);
    case 'code':
      return make('pre', 'md-code', block.text);
    case 'rule':
      return make('hr', 'md-rule');
    case 'list': {
      const list = make(block.ordered ? 'ol' : 'ul', 'md-list');
      for (const item of block.items) list.append(withSpans(make('li', 'md-item'), item));
      return list;
    }
  }
}

function withSpans<T extends HTMLElement>(parent: T, spans: readonly InlineSpan[]): T {
  for (const span of spans) parent.append(span.kind === 'text' ? document.createTextNode(span.text) : make(span.kind === 'em' ? 'em' : span.kind, 'md-inline', span.text));
  return parent;
}

function textBlock(value: ShownValue, label: string): HTMLElement {
  const wrap = make('div', 'value-wrap');
  const pre = make('pre', value.kind === 'json' ? 'value code' : 'value', value.text === '' ? '(empty)' : value.text);
  pre.tabIndex = 0;
  pre.setAttribute('aria-label', label);
  if (value.text === '') pre.classList.add('empty');
  wrap.append(pre);
  if (value.lines > FOLDED_LINES) {
    pre.classList.add('folded');
    const toggle = make('button', 'link-button', `Show all ${value.lines.toLocaleString('en-US')} lines`);
    toggle.type = 'button';
    toggle.addEventListener('click', () => {
      const folded = pre.classList.toggle('folded');
      toggle.textContent = folded ? `Show all ${value.lines.toLocaleString('en-US')} lines` : 'Show less';
    });
    wrap.append(toggle);
  }
  return wrap;
}

function jsonNode(value: unknown, key: string | null, depth: number): HTMLElement {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value as Record<string, unknown>);
    const details = make('details', 'json-node');
    details.open = depth < OPEN_DEPTH;
    const summary = make('summary', 'json-summary');
    if (key !== null) summary.append(make('span', 'json-key', `${key}: `));
    const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
    summary.append(make('span', 'json-punct', `${open}`), make('span', 'json-count', ` ${entries.length} ${Array.isArray(value) ? 'item' : 'key'}${entries.length === 1 ? '' : 's'} `), make('span', 'json-punct', close));
    details.append(summary);
    const children = make('div', 'json-children');
    for (const [k, v] of entries) children.append(jsonNode(v, Array.isArray(value) ? null : k, depth + 1));
    details.append(children);
    return details;
  }
  const line = make('div', 'json-leaf');
  if (key !== null) line.append(make('span', 'json-key', `${key}: `));
  const kind = value === null ? 'null' : typeof value;
  line.append(make('span', `json-${kind}`, typeof value === 'string' ? JSON.stringify(value) : String(value)));
  return line;
}
