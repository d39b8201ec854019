// A streaming CSV reader (RFC 4180: `,` between fields, `"` around fields that hold `,`, `"` or line
// breaks, `""` for a quote inside them, CRLF or LF between records). Text goes in by chunks, whole
// records come out, so a 100 MB file never sits in memory as one string.

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

/** Reads records from text given in chunks of any size. */
export class CsvReader {
  private field = '';
  private record: string[] = [];
  private inQuotes = false;
  /** The last character was the closing quote of a quoted field (a second one means a literal quote). */
  private quoteSeen = false;
  private lastWasCr = false;
  private started = false;
  /** The record being read had a quoted field (`""` alone on a line is a record, a blank line is not). */
  private quotedRecord = false;
  /** The 1-based line where the record being read began, for messages. */
  line = 1;

  /** Feeds text; answers the records it completed. */
  push(text: string): string[][] {
    const out: string[][] = [];
    let i = 0;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    let runStart = i;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.inQuotes) {
        if (c === QUOTE) {
          this.field += text.slice(runStart, i);
          this.inQuotes = false;
          this.quoteSeen = true;
          runStart = i + 1;
        }
        continue;
      }
      if (c === QUOTE) {
        // `""` inside a quoted field: one literal quote, and the field goes on.
        if (this.quoteSeen) this.field += '"';
        else this.field += text.slice(runStart, i);
        this.inQuotes = true;
        this.quotedRecord = true;
        this.quoteSeen = false;
        runStart = i + 1;
        continue;
      }
      this.quoteSeen = false;
      if (c === COMMA) {
        this.record.push(this.field + text.slice(runStart, i));
        this.field = '';
        runStart = i + 1;
      } else if (c === LF || c === CR) {
        if (c === LF && this.lastWasCr) {
          this.lastWasCr = false;
          runStart = i + 1;
          continue;
        }
        this.endRecord(text.slice(runStart, i), out);
        this.lastWasCr = c === CR;
        runStart = i + 1;
        continue;
      }
      this.lastWasCr = false;
    }
    this.field += text.slice(runStart);
    return out;
  }

  /** Ends the text: answers the last record when it had no line break after it. */
  end(): string[][] {
    const out: string[][] = [];
    if (this.field !== '' || this.record.length > 0 || this.quoteSeen) this.endRecord('', out);
    return out;
  }

  private endRecord(rest: string, out: string[][]): void {
    this.record.push(this.field + rest);
    this.field = '';
    this.quoteSeen = false;
    this.line++;
    // A blank line is not a record of one empty field.
    if (this.quotedRecord || !(this.record.length === 1 && this.record[0] === '')) out.push(this.record);
    this.record = [];
    this.quotedRecord = false;
  }
}
