/**
 * The write journal of a file-backed sandbox: every committed change is appended here and forced to
 * disk before the request that made it is answered, so an answered write survives a crash (SIGKILL,
 * a window closed abruptly). The database file is a snapshot; the journal holds what came after it,
 * and is folded into the next snapshot and emptied.
 */
import * as fs from 'node:fs';
import type { SqlParams } from './database';

/** One writing statement as it ran: its SQL and parameters (none for a script of several statements). */
export type JournalEntry = readonly [sql: string, params?: SqlParams];

/** The meta key of the last journal sequence number folded into the snapshot. */
export const FOLDED_SEQUENCE_KEY = 'journal_folded_sequence';

type StoredParam = string | number | null | { b64: string };

/** Appends committed units (one line each, numbered) and fsyncs each before returning. */
export class WriteJournal {
  private fd: number;
  private bytes: number;

  constructor(private readonly file: string, private sequence: number) {
    this.fd = fs.openSync(file, 'a');
    this.bytes = fs.fstatSync(this.fd).size;
  }

  /** The number of the last unit appended. */
  get lastSequence(): number {
    return this.sequence;
  }

  /** Bytes waiting to be folded into the snapshot. */
  get size(): number {
    return this.bytes;
  }

  /** Appends one committed unit and forces it to disk: only then may the write be answered. */
  append(entries: readonly JournalEntry[]): void {
    const line = `${JSON.stringify({ n: this.sequence + 1, w: entries.map(([sql, params]) => [sql, params ? params.map(storeParam) : null]) })}\n`;
    fs.writeSync(this.fd, line);
    fs.fdatasyncSync(this.fd);
    this.sequence++;
    this.bytes += Buffer.byteLength(line);
  }

  /** Empties the journal once a snapshot holds everything in it. */
  clear(): void {
    fs.ftruncateSync(this.fd, 0);
    fs.fsyncSync(this.fd);
    this.bytes = 0;
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

/** A unit read back from the journal. */
export interface JournalUnit {
  sequence: number;
  entries: JournalEntry[];
}

/**
 * The units of a journal file, in order. A last line cut short by a crash was never acknowledged
 * (the answer waits for the fsync) and is dropped; damage anywhere else is an error.
 */
export function readJournal(file: string): JournalUnit[] {
  if (!fs.existsSync(file)) return [];
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const units: JournalUnit[] = [];
  lines.forEach((line, i) => {
    if (!line) return;
    try {
      const unit = JSON.parse(line) as { n: number; w: [string, StoredParam[] | null][] };
      units.push({ sequence: unit.n, entries: unit.w.map(([sql, params]) => (params ? [sql, params.map(loadParam)] : [sql])) });
    } catch (error) {
      const isLast = lines.slice(i + 1).every((rest) => rest === '');
      if (!isLast) throw new Error(`${file} is damaged at line ${i + 1} (${(error as Error).message}); move it away to start from the last snapshot.`);
    }
  });
  return units;
}

function storeParam(value: SqlParams[number]): StoredParam {
  return value instanceof Uint8Array ? { b64: Buffer.from(value).toString('base64') } : value;
}

function loadParam(value: StoredParam): SqlParams[number] {
  return value !== null && typeof value === 'object' ? new Uint8Array(Buffer.from(value.b64, 'base64')) : value;
}
