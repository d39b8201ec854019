/**
 * A `multipart/form-data` body streamed from disk: text fields first, then the file, never the whole file
 * in memory. The length is computed up front so the service gets a Content-Length, not a chunked body.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { LocalFileError } from '../uploads/localFile';

/** A request body the gateway opens afresh for every attempt. */
export interface StreamBody {
  contentType: string;
  contentLength: number;
  /** A new stream of the body; `touch` is called whenever the receiver takes more bytes. */
  open(touch: () => void): Readable;
}

/** The file part of a form. */
export interface FilePart {
  field: string;
  filePath: string;
  fileName: string;
  size: number;
}

const CONTENT_TYPES: Record<string, string> = {
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.jsonl': 'application/x-ndjson',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.parquet': 'application/vnd.apache.parquet',
  '.zip': 'application/zip',
};

/** Builds the body for text fields (in order) and one file, reporting bytes taken by the receiver. */
export function multipartBody(
  fields: ReadonlyArray<readonly [string, string]>,
  file: FilePart,
  onProgress?: (sentBytes: number, totalBytes: number) => void,
): StreamBody {
  const boundary = `----AgentWorkbench${randomBytes(12).toString('hex')}`;
  let head = '';
  for (const [name, value] of fields) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`;
  }
  const type = CONTENT_TYPES[path.extname(file.fileName).toLowerCase()] ?? 'application/octet-stream';
  head += `--${boundary}\r\nContent-Disposition: form-data; name="${quote(file.field)}"; filename="${quote(file.fileName)}"\r\nContent-Type: ${type}\r\n\r\n`;
  const parts = { head: Buffer.from(head), tail: Buffer.from(`\r\n--${boundary}--\r\n`), filePath: file.filePath };
  const contentLength = parts.head.length + file.size + parts.tail.length;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    contentLength,
    open: (touch) => new MultipartStream(parts, (sent) => {
      touch();
      onProgress?.(sent, contentLength);
    }),
  };
}

/** As browsers do: quotes and line breaks in names are percent-encoded, everything else goes as UTF-8. */
function quote(name: string): string {
  return name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

interface Parts {
  head: Buffer;
  tail: Buffer;
  filePath: string;
}

/** Head, file, tail; reads the file only as fast as the receiver takes the bytes. */
class MultipartStream extends Readable {
  private file: fs.ReadStream | undefined;
  private pushed = 0;
  private reported = -1;

  constructor(private readonly parts: Parts, private readonly progress: (sentBytes: number) => void) {
    super({ highWaterMark: 64 * 1024 });
    this.once('end', () => this.report());
  }

  override _read(): void {
    this.report();
    if (this.file) {
      this.file.resume();
      return;
    }
    this.forward(this.parts.head);
    const file = fs.createReadStream(this.parts.filePath, { highWaterMark: 256 * 1024 });
    this.file = file;
    file.on('data', (chunk) => {
      if (!this.forward(chunk as Buffer)) file.pause();
    });
    file.once('end', () => {
      this.forward(this.parts.tail);
      this.push(null);
    });
    // The file may vanish or be locked after it was looked at: say which and why, in a sentence.
    file.once('error', (err) => this.destroy(new LocalFileError(this.parts.filePath, err)));
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.file?.destroy();
    callback(error);
  }

  private forward(chunk: Buffer): boolean {
    this.pushed += chunk.length;
    return this.push(chunk);
  }

  /** Bytes the receiver has taken: pushed minus what still waits in our buffer. */
  private report(): void {
    const sent = this.pushed - this.readableLength;
    if (sent === this.reported) return;
    this.reported = sent;
    this.progress(sent);
  }
}
