/**
 * A `multipart/form-data` body streamed from disk: text fields first, then the file, never the whole file
 * in memory. The length is computed up front so the service gets a Content-Length, not a chunked body.
 */
import { randomBytes } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

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
  const parts = { head: Buffer.from(head), tail: Buffer.from(`\r\n--${boundary}--\r\n`), filePath: file.filePath, size: file.size };
  const contentLength = parts.head.length + file.size + parts.tail.length;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    contentLength,
    open: (touch) => new MultipartSource(parts, (sent) => {
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
  size: number;
}

/**
 * Reads per chunk. Large reads are what make an upload as fast as curl: each chunk is one read from
 * disk and one write to the socket, and undici asks for the next only once the socket drained.
 */
export const UPLOAD_CHUNK_BYTES = 2 * 1024 * 1024;

/**
 * Head, file, tail as an async iterable that undici sends directly (no stream in between). The next
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

  constructor(private readonly parts: Parts, private readonly progress: (sentBytes: number) => void) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array, void, undefined> {
    const { head, tail, size } = this.parts;
    let sent = 0;
    this.progress(sent);
    yield head;
    this.progress((sent += head.length));
    const file = await this.open();
    try {
      const buffers = [Buffer.allocUnsafe(Math.min(UPLOAD_CHUNK_BYTES, size)), Buffer.allocUnsafe(Math.min(UPLOAD_CHUNK_BYTES, size))];
      for (let position = 0, turn = 0; position < size; turn ^= 1) {
        const buffer = buffers[turn] as Buffer;
        const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, size - position), position);
        this.checkLive();
        if (bytesRead === 0) throw changedWhileSending(this.parts.filePath);
        position += bytesRead;
        yield bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
        this.progress((sent += bytesRead));
      }
      // A file that grew would send other bytes than announced: fail rather than cut it silently.
      if ((await file.read(Buffer.alloc(1), 0, 1, size)).bytesRead > 0) throw changedWhileSending(this.parts.filePath);
    } finally {
      this.destroy();
    }
    yield tail;
    this.progress((sent += tail.length));
  }

  /** Stops reading and closes the file (a read in flight finishes first; its bytes are never sent). */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    void this.handle?.then((h) => h.close()).catch(() => undefined);
  }

  private open(): Promise<FileHandle> {
    this.checkLive();
    this.handle = fs.open(this.parts.filePath, 'r');
    return this.handle;
  }

  private checkLive(): void {
    if (this.destroyed) throw new Error('The upload was stopped.');
  }
}

function changedWhileSending(filePath: string): Error {
  return new Error(`${path.basename(filePath)} changed while it was being uploaded; upload it again.`);
}
