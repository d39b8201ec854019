/**
 * A `multipart/form-data` body streamed from disk: text fields first, then the files, never a whole file
 * in memory. The length is computed up front so the service gets a Content-Length, not a chunked body.
 */
import { randomBytes } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { LocalFileError } from '../uploads/localFile';

/** A request body the gateway opens afresh for every attempt. */
export interface StreamBody {
  contentType: string;
  contentLength: number;
  /** A new body; `touch` is called whenever the receiver takes more bytes. */
  open(touch: () => void): BodySource;
}

/** One attempt's body: the chunks to send, and `destroy()` to stop reading (a `Readable` is one too). */
export interface BodySource extends AsyncIterable<Uint8Array> {
  destroy(): void;
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
    open: (touch) =>
      new MultipartSource(segments, (sent) => {
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

/**
 * Reads per chunk. Large reads are what make an upload as fast as curl: each chunk is one read from
 * disk and one write to the socket, and undici asks for the next only once the socket drained.
 */
export const UPLOAD_CHUNK_BYTES = 2 * 1024 * 1024;

/**
 * The segments (built bytes and files, in order) as an async iterable that undici sends directly (no stream in between). The next
 * chunk is read only when undici asks for it, so memory stays at two chunks whatever the file's size.
 * Progress counts the bytes handed to the socket.
 *
 * Two buffers take turns, because a fresh buffer per chunk is memory outside V8's heap that V8
 * answers with a major collection every few dozen megabytes (~40 per GiB). Refilling a buffer is
 * safe once the consumer has asked for the chunk after it: undici writes each chunk and, when the
 * socket did not take it whole at once, waits for the socket to drain before asking for the next,
 * so a buffer two chunks back has left the process. The gateway is the only consumer of this body.
 */
class MultipartSource implements BodySource {
  private handle: Promise<FileHandle> | undefined;
  private destroyed = false;
  // Allocated on the first file's first read, sized for the largest file, and shared by every file.
  private buffers: [Buffer, Buffer] | undefined;

  constructor(
    private readonly segments: readonly Segment[],
    private readonly progress: (sentBytes: number) => void,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array, void, undefined> {
    let sent = 0;
    this.progress(sent);
    try {
      for (const segment of this.segments) {
        if (Buffer.isBuffer(segment)) {
          yield segment;
          this.progress((sent += segment.length));
          continue;
        }
        for await (const chunk of this.readFile(segment.filePath, segment.size)) {
          yield chunk;
          this.progress((sent += chunk.length));
        }
      }
    } finally {
      this.destroy();
    }
  }

  private async *readFile(filePath: string, size: number): AsyncGenerator<Uint8Array, void, undefined> {
    const file = await this.open(filePath);
    try {
      const buffers = (this.buffers ??= this.allocate());
      for (let position = 0, turn = 0; position < size; turn ^= 1) {
        const buffer = buffers[turn] as Buffer;
        const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, size - position), position).catch((error: unknown) => {
          throw new LocalFileError(filePath, error);
        });
        this.checkLive();
        if (bytesRead === 0) throw changedWhileSending(filePath);
        position += bytesRead;
        yield bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
      }
      // A file that grew would send other bytes than announced: fail rather than cut it silently.
      if ((await file.read(Buffer.alloc(1), 0, 1, size)).bytesRead > 0) throw changedWhileSending(filePath);
    } finally {
      this.closeFile();
    }
  }

  private allocate(): [Buffer, Buffer] {
    const largest = Math.max(1, ...this.segments.map((s) => (Buffer.isBuffer(s) ? 0 : s.size)));
    const size = Math.min(UPLOAD_CHUNK_BYTES, largest);
    return [Buffer.allocUnsafe(size), Buffer.allocUnsafe(size)];
  }

  /** Stops reading and closes the file (a read in flight finishes first; its bytes are never sent). */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.closeFile();
  }

  private closeFile(): void {
    const handle = this.handle;
    this.handle = undefined;
    void handle?.then((h) => h.close()).catch(() => undefined);
  }

  private async open(filePath: string): Promise<FileHandle> {
    this.checkLive();
    // The file may vanish or be locked after it was looked at: say which and why, in a sentence.
    this.handle = fs.open(filePath, 'r').catch((error: unknown) => {
      throw new LocalFileError(filePath, error);
    });
    return this.handle;
  }

  private checkLive(): void {
    if (this.destroyed) throw new Error('The upload was stopped.');
  }
}

function changedWhileSending(filePath: string): Error {
  return new Error(`${path.basename(filePath)} changed while it was being uploaded; upload it again.`);
}
