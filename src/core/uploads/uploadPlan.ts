import { bytes, endSentence } from '../format';
import { MAX_FILE_NAME_LENGTH, MAX_FILE_SIZE } from '../limits';

/** A file the user chose, as found on disk. */
export interface CandidateFile {
  path: string;
  name: string;
  size: number;
  isFile: boolean;
  /** Why it could not be read when it was looked at (see localFile.ts). */
  unreadable?: string;
}

export interface RefusedFile {
  path: string;
  name: string;
  reason: string;
}

/**
 * Sorts the chosen files into those that can be sent and those refused before anything is sent,
 * with the reason: unreadable, a folder, a name over 1,024 characters, a size the service's size field cannot hold.
 */
export function checkFiles(files: readonly CandidateFile[]): { accepted: CandidateFile[]; refused: RefusedFile[] } {
  const accepted: CandidateFile[] = [];
  const refused: RefusedFile[] = [];
  for (const file of files) {
    const reason = file.unreadable
      ? file.unreadable
      : !file.isFile
      ? 'it is a folder (choose the files inside it)'
      : file.name.length > MAX_FILE_NAME_LENGTH
        ? `its name has ${file.name.length.toLocaleString('en-US')} characters; the service accepts at most ${MAX_FILE_NAME_LENGTH.toLocaleString('en-US')}`
        : file.size > MAX_FILE_SIZE
          ? `it is ${bytes(file.size)}; the service records sizes up to ${bytes(MAX_FILE_SIZE)} (2,147,483,647 bytes)`
          : undefined;
    if (reason) refused.push({ path: file.path, name: file.name, reason });
    else accepted.push(file);
  }
  return { accepted, refused };
}

/** The question to ask before a large upload, or undefined when it is small enough to just go. */
export function confirmationQuestion(files: readonly CandidateFile[], limits: { maxCount: number; maxBytes: number }, datasetName: string): string | undefined {
  const total = files.reduce((sum, f) => sum + f.size, 0);
  if (files.length <= limits.maxCount && total <= limits.maxBytes) return undefined;
  return `Upload ${files.length.toLocaleString('en-US')} file${files.length === 1 ? '' : 's'} (${bytes(total)} in all) to “${datasetName}”?`;
}

export interface UploadOutcome {
  name: string;
  ok: boolean;
  reason?: string;
}

/** One sentence on how an upload went, naming what failed and why. */
export function uploadSummary(outcomes: readonly UploadOutcome[], datasetName: string, cancelled: boolean): string {
  const done = outcomes.filter((o) => o.ok);
  const failed = outcomes.filter((o) => !o.ok);
  const head = failed.length === 0 && !cancelled
    ? `Uploaded ${done.length === 1 ? `“${done[0]!.name}”` : `${done.length} files`} to “${datasetName}”.`
    : `Uploaded ${done.length} of ${outcomes.length} file${outcomes.length === 1 ? '' : 's'} to “${datasetName}”${cancelled ? ' (cancelled)' : ''}.`;
  if (!failed.length) return head;
  const listed = failed.slice(0, 3).map((f) => `${f.name}: ${f.reason ?? 'failed'}`).join('; ');
  return `${head} Not uploaded: ${endSentence(`${listed}${failed.length > 3 ? ` and ${failed.length - 3} more` : ''}`)}`;
}
