import busboy from 'busboy';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { HttpError, tooLarge } from './errors';

/** A file part written to a temporary file in the files folder (commit it by renaming, or discard it). */
export interface ReceivedFile {
  field: string;
  /** The client's file name without any folder part; shown to users, never used on disk. */
  fileName: string;
  mimeType: string;
  size: number;
  sha256?: string;
  tempPath: string;
}

/** The text fields (last value wins) and the files of a multipart form. */
export interface MultipartForm {
  fields: Map<string, string>;
  files: ReceivedFile[];
}

export interface MultipartOptions {
  /** Where temporary files go: the files folder itself, so that committing is a rename. */
  tempDir: string;
  maxFileBytes: number;
  maxFiles: number;
  hash?: boolean;
}

/** The prefix of temporary upload files; anything so named is debris of an interrupted upload. */
export const PART_PREFIX = '.part-';

/**
 * Receives a multipart form, writing each file to disk as it streams in. Resolves only when the
 * whole form arrived and every file is on disk; on any failure (a cut connection, a file over the
 * limit, a malformed form) every temporary file is removed and the promise rejects.
 */
export function receiveMultipart(req: IncomingMessage, options: MultipartOptions): Promise<MultipartForm> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: { fileSize: options.maxFileBytes, files: options.maxFiles, fields: 100, fieldSize: 1024 * 1024, parts: 200 },
      });
    } catch (error) {
      req.resume();
      reject(new HttpError(400, { detail: `Multipart form parse error - ${(error as Error).message}` }));
      return;
    }
    new FormReceiver(req, parser, options, resolve, reject).start();
  });
}

/** One multipart request being received: the files written so far, and how it ends. */
class FormReceiver {
  private readonly form: MultipartForm = { fields: new Map(), files: [] };
  private readonly writes: Promise<void>[] = [];
  private readonly outputs: fs.WriteStream[] = [];
  private settled = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly parser: busboy.Busboy,
    private readonly options: MultipartOptions,
    private readonly resolve: (form: MultipartForm) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  start(): void {
    const { parser, req, options } = this;
    const fail = (error: unknown) => this.fail(error);
    parser.on('file', (field, stream, info) => this.receiveFile(field, stream, info.filename, info.mimeType));
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(new HttpError(400, { [name]: ['This form field is longer than 1 MB.'] }));
      else this.form.fields.set(name, value);
    });
    parser.on('filesLimit', () => fail(new HttpError(400, { file: [`Send at most ${options.maxFiles} file(s) per request.`] })));
    parser.on('fieldsLimit', () => fail(new HttpError(400, { non_field_errors: ['Too many form fields.'] })));
    parser.on('partsLimit', () => fail(new HttpError(400, { non_field_errors: ['Too many form parts.'] })));
    parser.on('error', (error: Error) => fail(new HttpError(400, { detail: `Multipart form parse error - ${error.message}` })));
    parser.on('close', () => void Promise.all(this.writes).then(() => this.succeed(), fail));
    req.on('aborted', () => fail(new HttpError(400, { detail: 'The upload was interrupted.' })));
    req.on('close', () => {
      if (!req.complete) fail(new HttpError(400, { detail: 'The upload was interrupted.' }));
    });
    req.pipe(parser);
  }

  private receiveFile(field: string, stream: NodeJS.ReadableStream, fileName: string | undefined, mimeType: string): void {
    // A form that ends inside a file part destroys the part's stream with an error: unheard, it would end the process.
    stream.on('error', (error: Error) => this.fail(new HttpError(400, { detail: `Multipart form parse error - ${error.message}` })));
    if (this.settled) return void stream.resume();
    const tempPath = path.join(this.options.tempDir, `${PART_PREFIX}${randomUUID()}`);
    const file: ReceivedFile = { field, fileName: baseName(fileName), mimeType, size: 0, tempPath };
    this.form.files.push(file);
    const out = fs.createWriteStream(tempPath, { flags: 'wx', highWaterMark: WRITE_BUFFER_BYTES });
    this.outputs.push(out);
    this.writes.push(writeFile(stream, out, file, this.options, (error) => this.fail(error)));
  }

  private succeed(): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve(this.form);
  }

  private fail(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.req.unpipe(this.parser);
    // Discard the rest of the body so the answer can be read by a client still sending.
    this.req.resume();
    for (const out of this.outputs) out.destroy();
    // Wait for open write streams to close before deleting what they wrote.
    void Promise.allSettled(this.writes).then(() => {
      for (const file of this.form.files) fs.rmSync(file.tempPath, { force: true });
      this.reject(error);
    });
  }
}

/** Received bytes gathered into one write (a socket hands them over ~64 KB at a time). */
const WRITE_BATCH_BYTES = 1024 * 1024;
/** Bytes waiting for the disk before the upload's stream is paused. */
const WRITE_BUFFER_BYTES = 4 * 1024 * 1024;

/**
 * Writes a file part to disk in batches: the chunks that arrive in one turn of the event loop (or up
 * to 1 MiB) go out in one writev, instead of one write per socket read (~16,000 per GiB).
 */
function writeFile(stream: NodeJS.ReadableStream, out: fs.WriteStream, file: ReceivedFile, options: MultipartOptions, fail: (e: unknown) => void): Promise<void> {
  let hash = options.hash ? createHash('sha256') : undefined;
  let batched = 0;
  const flush = (): void => {
    if (batched === 0) return;
    batched = 0;
    out.uncork();
  };
  stream.on('data', (chunk: Buffer) => {
    file.size += chunk.length;
    // A part cut short may still deliver data after its output closed (and the digest was taken).
    hash?.update(chunk);
    if (batched === 0) {
      out.cork();
      setImmediate(flush);
    }
    batched += chunk.length;
    if (!out.write(chunk)) {
      stream.pause();
      out.once('drain', () => stream.resume());
    }
    if (batched >= WRITE_BATCH_BYTES) flush();
  });
  stream.on('end', () => {
    flush();
    out.end();
  });
  stream.on('limit', () => fail(tooLarge(options.maxFileBytes, 'The uploaded file')));
  return new Promise<void>((resolve, reject) => {
    out.on('error', (error) => {
      fail(error);
      reject(error);
    });
    out.on('close', () => {
      if (hash) file.sha256 = hash.digest('hex');
      hash = undefined;
      resolve();
    });
  });
}

/**
 * The last path segment of a client-sent file name (browsers and some tools send full paths), without
 * characters that do not print (NUL, line breaks, direction overrides), as Django's parser cleans it.
 */
/** Longest file name an upload may carry. */
export const FILE_NAME_MAX = 1024;

/** Why a received file's name cannot be kept (DRF's FileField words), or undefined when it can. */
export function fileNameProblem(file: ReceivedFile): string | undefined {
  if (file.fileName === '') return 'No filename could be determined.';
  if (file.fileName.length > FILE_NAME_MAX) return `Ensure this filename has at most ${FILE_NAME_MAX} characters (it has ${file.fileName.length}).`;
  return undefined;
}

function baseName(name: string | undefined): string {
  const cleaned = (name ?? '').split(/[\\/]/).pop() ?? '';
  const printable = cleaned.replace(/[\p{C}\p{Zl}\p{Zp}]|(?! )\p{Zs}/gu, '').trim();
  return printable === '.' || printable === '..' ? '' : printable;
}
