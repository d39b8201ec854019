/**
 * The part of Markdown a job's summary uses (headings, paragraphs, lists, quotes, code blocks, rules;
 * **strong**, *emphasis*, `code` inside a line), read into plain blocks and spans. The job view builds
 * elements from them with textContent, so no text of the service ever becomes markup: links, images and
 * HTML stay the characters they are. Anything else is a paragraph of its own text.
 */

export type InlineSpan = { kind: 'text' | 'strong' | 'em' | 'code'; text: string };

export type MarkdownBlock =
  | { kind: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; spans: InlineSpan[] }
  | { kind: 'paragraph'; spans: InlineSpan[] }
  | { kind: 'list'; ordered: boolean; items: InlineSpan[][] }
  | { kind: 'quote'; spans: InlineSpan[] }
  | { kind: 'code'; text: string }
  | { kind: 'rule' };

/** More blocks than this and the rest is one paragraph of text: a summary, not a book. */
export const MAX_BLOCKS = 2_000;

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const NUMBERED = /^\s{0,3}\d{1,9}[.)]\s+(.*)$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const FENCE = /^\s{0,3}(```|~~~)/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;

/** The blocks of a Markdown text. */
export function markdownBlocks(text: string): MarkdownBlock[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: MarkdownBlock[] = [];
  let i = 0;
  while (i < lines.length) {
    if (blocks.length >= MAX_BLOCKS) {
      blocks.push({ kind: 'paragraph', spans: [{ kind: 'text', text: lines.slice(i).join('\n') }] });
      break;
    }
    const line = lines[i]!;
    if (!line.trim()) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trimStart().startsWith(fence[1]!)) body.push(lines[i++]!);
      i++; // the closing fence (or the end)
      blocks.push({ kind: 'code', text: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1]!.length as 1 | 2 | 3 | 4 | 5 | 6, spans: inlineSpans(heading[2]!) });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ kind: 'rule' });
      i++;
      continue;
    }
    const ordered = NUMBERED.test(line);
    if (ordered || BULLET.test(line)) {
      const pattern = ordered ? NUMBERED : BULLET;
      const items: InlineSpan[][] = [];
      while (i < lines.length && pattern.test(lines[i]!)) {
        let item = pattern.exec(lines[i]!)![1]!;
        i++;
        // Indented lines that follow continue the item.
        while (i < lines.length && /^\s{2,}\S/.test(lines[i]!) && !BULLET.test(lines[i]!) && !NUMBERED.test(lines[i]!)) item += ` ${lines[i++]!.trim()}`;
        items.push(inlineSpans(item));
      }
      blocks.push({ kind: 'list', ordered, items });
      continue;
    }
    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) quoted.push(QUOTE.exec(lines[i++]!)![1]!);
      blocks.push({ kind: 'quote', spans: inlineSpans(quoted.join(' ')) });
      continue;
    }
    const paragraph: string[] = [];
    while (i < lines.length && lines[i]!.trim() && !startsBlock(lines[i]!)) paragraph.push(lines[i++]!.trim());
    blocks.push({ kind: 'paragraph', spans: inlineSpans(paragraph.join(' ')) });
  }
  return blocks;
}

function startsBlock(line: string): boolean {
  return HEADING.test(line) || FENCE.test(line) || RULE.test(line) || BULLET.test(line) || NUMBERED.test(line) || QUOTE.test(line);
}

/** `code`, **strong** (or __strong__), *em* (or _em_) within one line; everything else is text. */
export function inlineSpans(text: string): InlineSpan[] {
  const spans: InlineSpan[] = [];
  const push = (kind: InlineSpan['kind'], value: string): void => {
    if (!value) return;
    const last = spans.at(-1);
    // Entities are text in Markdown (a template that HTML-escapes writes "&lt;"): the reader sees "<". Code keeps them.
    const shown = kind === 'code' ? value : decodeEntities(value);
    if (kind === 'text' && last?.kind === 'text') last.text += shown;
    else spans.push({ kind, text: shown });
  };
  const pattern = /`([^`]+)`|\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__|\*(?=\S)([^*]+?)(?<=\S)\*|(?<![\w])_(?=\S)([^_]+?)(?<=\S)_(?![\w])/g;
  let at = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    push('text', text.slice(at, match.index));
    if (match[1] !== undefined) push('code', match[1]);
    else if (match[2] !== undefined || match[3] !== undefined) push('strong', (match[2] ?? match[3])!);
    else push('em', (match[4] ?? match[5])!);
    at = match.index + match[0].length;
  }
  push('text', text.slice(at));
  return spans;
}

/** Named entities a summary template's HTML escaping and common typography write. */
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', copy: '©', reg: '®', trade: '™', hellip: '…', mdash: '—', ndash: '–',
  lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»', euro: '€', pound: '£', times: '×', deg: '°', middot: '·', bull: '•',
};

/**
 * Entity references as the characters they stand for (`&lt;` `&#60;` `&#x3C;` → `<`), as a Markdown
 * renderer reads them; an unknown name stays as written, an invalid code point is U+FFFD. The result
 * is shown as text, never parsed as markup.
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/g, (whole, dec?: string, hex?: string, name?: string) => {
    if (name !== undefined) return NAMED_ENTITIES[name] ?? whole;
    const code = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex!, 16);
    return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? '\ufffd' : String.fromCodePoint(code);
  });
}

/** Whether a value of this data type is Markdown to be shown rendered. */
export function isMarkdownType(dataType: string | null | undefined): boolean {
  return /^text\/(x-)?markdown\b/i.test(dataType ?? '');
}
