import { findNodeAtLocation, getNodeValue, parseTree, type ParseError } from 'jsonc-parser';

/** Where the summary template sits in a policy document. */
export const TEMPLATE_PATH = ['summary_template', 'template'] as const;

/** The template string of a policy document and where its JSON string literal is. */
export interface TemplateInDocument {
  /** The template as Handlebars sees it (escapes decoded). */
  template: string;
  /** Offset of the literal's opening quote in the document. */
  literalOffset: number;
  /** Length of the literal, quotes included. */
  literalLength: number;
  /** The whole document's value, read leniently (for building a sample); undefined when unreadable. */
  content: unknown;
  /** Whether the document is strict JSON (the template is still found in a document with errors elsewhere). */
  validJson: boolean;
}

export type TemplateLookup =
  | { kind: 'found'; found: TemplateInDocument }
  | { kind: 'missing'; content: unknown; validJson: boolean }
  | { kind: 'notString'; content: unknown; validJson: boolean; literalOffset: number; literalLength: number };

/**
 * Finds `summary_template.template` in a policy document. The parse is lenient, so a typo elsewhere in
 * the document (common while typing) does not hide the preview of an intact template.
 */
export function findTemplate(text: string): TemplateLookup {
  const errors: ParseError[] = [];
  // Strict options only decide `validJson`: the tree is built past errors either way.
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  const content: unknown = root ? getNodeValue(root) : undefined;
  const validJson = errors.length === 0 && root !== undefined;
  const node = root ? findNodeAtLocation(root, [...TEMPLATE_PATH]) : undefined;
  if (!node) return { kind: 'missing', content, validJson };
  if (node.type !== 'string' || text.charCodeAt(node.offset) !== 34 /* " */) {
    return { kind: 'notString', content, validJson, literalOffset: node.offset, literalLength: node.length };
  }
  return { kind: 'found', found: { template: String(node.value), literalOffset: node.offset, literalLength: node.length, content, validJson } };
}

/**
 * The document offset of a character of the template: walks the literal's escapes (`\n`, `\"`, `\\`,
 * `\u00e9`…), so a place in the decoded template lands on the exact source characters.
 */
export function documentOffset(text: string, found: Pick<TemplateInDocument, 'literalOffset' | 'literalLength'>, templateOffset: number): number {
  const end = found.literalOffset + found.literalLength - 1; // the closing quote
  let raw = found.literalOffset + 1;
  for (let decoded = 0; decoded < templateOffset && raw < end; decoded++) raw += escapeLength(text, raw);
  return Math.min(raw, end);
}

/** The document range of a template range (a length of at least one character, so it can be underlined). */
export function documentRange(
  text: string,
  found: Pick<TemplateInDocument, 'literalOffset' | 'literalLength'>,
  templateOffset: number,
  templateLength: number,
): { offset: number; length: number } {
  const start = documentOffset(text, found, templateOffset);
  const end = documentOffset(text, found, templateOffset + Math.max(templateLength, 0));
  return { offset: start, length: Math.max(end - start, 1) };
}

/** How many source characters the template character at `raw` takes. */
function escapeLength(text: string, raw: number): number {
  if (text.charCodeAt(raw) !== 92 /* \ */) return 1;
  return text.charAt(raw + 1) === 'u' ? 6 : 2;
}

