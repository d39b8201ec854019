/** How deep JSON nests, found without a parser (no dependencies: test sets and bundles use it alone). */

/** A problem at a place of a text, in the shape of the JSON checker's problems. */
export interface NestingProblem {
  path: (string | number)[];
  message: string;
  offset: number;
  length: number;
}

/** How deep arrays and objects may nest: deeper is a problem, never a parser's stack overflow. */
export const MAX_JSON_DEPTH = 64;

/** The first place where a JSON text nests deeper than {@link MAX_JSON_DEPTH}, found in one pass without recursion. */
export function nestingProblem(text: string, maxDepth = MAX_JSON_DEPTH): NestingProblem | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return { path: [], message: `Nested more than ${maxDepth} levels deep: not checked further. Flatten the structure.`, offset: i, length: 1 };
    } else if (c === 0x5d || c === 0x7d) depth = Math.max(0, depth - 1);
  }
  return undefined;
}

