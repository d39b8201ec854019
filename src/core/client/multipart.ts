/**
 * A `multipart/form-data` body streamed from disk: text fields first, then the files, never a whole file
 * in memory. The length is computed up front so the service gets a Content-Length, not a chunked body.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readable } from 'node:stream';

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
  /** Defaults to the type known for the file name's extension. */
  contentType?: string;
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

type Progress = (sentBytes: number, totalBytes: number) => void;

/** Builds the body for text fields (in order) and one file, reporting bytes taken by the receiver. */
export function multipartBody(fields: ReadonlyArray<readonly [string, string]>, file: FilePart, onProgress?: Progress): StreamBody {
  return multipartForm(fields, [file], onProgress);
}

/** Builds the body for text fields (in order) and then files (in order), reporting bytes taken by the receiver. */
export function multipartForm(fields: ReadonlyArray<readonly [string, string]>, files: readonly FilePart[], onProgress?: Progress): StreamBody {
  const boundary = `----AgentWorkbench${randomBytes(12).toString('hex')}`;
  let text = '';
  for (const [name, value] of fields) {
    text += `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`;
  }
  const segments: Segment[] = [];
  files.forEach((file, i) => {
    const type = file.contentType ?? CONTENT_TYPES[path.extname(file.fileName).toLowerCase()] ?? 'application/octet-stream';
    // The line break that ends the previous file's part opens this one's delimiter.
    const before = i === 0 ? text : '\r\n';
    const head = `${before}--${boundary}\r\nContent-Disposition: form-data; name="${quote(file.field)}"; filename="${quote(file.fileName)}"\r\nContent-Type: ${type}\r\n\r\n`;
    segments.push(Buffer.from(head), { filePath: file.filePath, size: file.size });
  });
  segments.push(Buffer.from(files.length === 0 ? `${text}--${boundary}--\r\n` : `\r\n--${boundary}--\r\n`));
  const contentLength = segments.reduce((sum, s) => sum + (Buffer.isBuffer(s) ? s.length : s.size), 0);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    contentLength,
    open: (touch) => new MultipartStream(segments, (sent) => {
      touch();
      onProgress?.(sent, contentLength);
    }),
  };
}

/** As browsers do: quotes and line breaks in names are percent-encoded, everything else goes as UTF-8. */
function quote(name: string): string {
  return name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Bytes we built, or a file read from disk when its turn comes. */
type Segment = Buffer | { filePath: string; size: number };

/** The segments in order; reads each file only as fast as the receiver takes the bytes. */
class MultipartStream extends Readable {
  private file: fs.ReadStream | undefined;
  private next = 0;
  private pushed = 0;
  private reported = -1;

  constructor(private readonly segments: readonly Segment[], private readonly progress: (sentBytes: number) => void) {
    super({ highWaterMark: 64 * 1024 });
    this.once('end', () => this.report());
  }

  override _read(): void {
    this.report();
    if (this.file) {
      this.file.resume();
      return;
    }
    this.pump();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.file?.destroy();
    callback(error);
  }

  /** Pushes built bytes up to the next file, then opens that file; ends after the last segment. */
  private pump(): void {
    for (;;) {
      const segment = this.segments[this.next++];
      if (segment === undefined) {
        this.push(null);
        return;
      }
      if (Buffer.isBuffer(segment)) {
        this.forward(segment);
        continue;
      }
      const file = fs.createReadStream(segment.filePath, { highWaterMark: 256 * 1024 });
      this.file = file;
      file.on('data', (chunk) => {
        if (!this.forward(chunk as Buffer)) file.pause();
      });
      file.once('end', () => {
        this.file = undefined;
        this.pump();
      });
      file.once('error', (err) => this.destroy(err));
      return;
    }
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
