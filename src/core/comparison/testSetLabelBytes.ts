/**
 * A label written into a test set file that is not open: the same edit as `writeLabel`, made on the
 * file's bytes, so every byte outside the labelled case's line (its row, and for CSV the header's end
 * when a label column is new) stays as it was — a BOM, CRLF and LF line ends mixed, bytes that are not
 * UTF-8. Decoding the whole file and encoding it back would drop the BOM and turn such bytes into U+FFFD.
 */
import { writeLabel, type LabelEdit, type LabelResult } from './testSetLabel';

/** The label's result on the file's text, the text it was worked out on, and the file's new bytes when it was written. */
export interface LabelBytesResult {
  result: LabelResult;
  text: string;
  bytes?: Uint8Array;
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const LF = 0x0a;

/** Writes a label into a test set file's bytes (JSONL or CSV by its name), keeping every byte of the other lines. */
export function writeLabelBytes(fileName: string, bytes: Uint8Array, edit: LabelEdit): LabelBytesResult {
  const bom = UTF8_BOM.every((b, i) => bytes[i] === b) ? UTF8_BOM.length : 0;
  const lines = decodedLines(bytes, bom);
  const text = lines.map((l) => l.text).join('\n');
  const result = writeLabel(fileName, text, edit);
  if (!result.ok) return { result, text };
  const encoder = new TextEncoder();
  const spliced = [...result.replacements]
    .sort((a, b) => a.start - b.start)
    .map((r) => ({ start: byteOffset(lines, r.start), end: byteOffset(lines, r.end), bytes: encoder.encode(r.text) }));
  return { result, text, bytes: splice(bytes, spliced) };
}

interface DecodedLine {
  /** The line's text, a CR at its end kept (the LF is not). */
  text: string;
  /** Offsets of the line in the text and in the bytes. */
  charStart: number;
  byteStart: number;
  byteEnd: number;
  /** Whether the line's bytes are UTF-8, so that any offset in it maps to a byte. */
  utf8: boolean;
}

// Each line decoded on its own: an LF is never part of a UTF-8 sequence, so a line that is not UTF-8
// cannot shift the offsets of the others.
function decodedLines(bytes: Uint8Array, from: number): DecodedLine[] {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const strict = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });
  const lines: DecodedLine[] = [];
  let charStart = 0;
  for (let start = from; ; ) {
    const lf = bytes.indexOf(LF, start);
    const end = lf < 0 ? bytes.length : lf;
    const raw = bytes.subarray(start, end);
    let utf8 = true;
    try {
      strict.decode(raw);
    } catch {
      utf8 = false;
    }
    const text = decoder.decode(raw);
    lines.push({ text, charStart, byteStart: start, byteEnd: end, utf8 });
    charStart += text.length + 1;
    if (lf < 0) return lines;
    start = lf + 1;
  }
}

// The byte offset of a text offset: exact at a line's start and end (where every edit starts and ends);
// inside a line only when the line is UTF-8.
function byteOffset(lines: readonly DecodedLine[], offset: number): number {
  let i = lines.length - 1;
  while (i > 0 && lines[i]!.charStart > offset) i--;
  const line = lines[i]!;
  const within = offset - line.charStart;
  if (within === 0) return line.byteStart;
  if (within === line.text.length) return line.byteEnd;
  if (within === line.text.length - 1 && line.text.endsWith('\r')) return line.byteEnd - 1;
  if (!line.utf8) throw new Error(`A label edit fell inside a line that is not UTF-8 (at ${offset}): nothing was written.`);
  return line.byteStart + new TextEncoder().encode(line.text.slice(0, within)).length;
}

// The bytes with non-overlapping ranges (in order) replaced.
function splice(bytes: Uint8Array, edits: readonly { start: number; end: number; bytes: Uint8Array }[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const e of edits) {
    parts.push(bytes.subarray(at, e.start), e.bytes);
    at = e.end;
  }
  parts.push(bytes.subarray(at));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}
