/**
 * How the command line says a mistake: one line in the command's words ("agent-workbench try: --policy
 * needs a value."), then where the command's help is — never the whole usage, never Node's own wording
 * or an error code.
 */
import { promises as fs } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A mistake in how a command was called (exit 2): its message is the one line to print. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The lines a usage error prints: the sentence under the command's name, then where its help is. */
export function usageErrorText(command: string | undefined, message: string): string {
  const name = command ? `agent-workbench ${command}` : 'agent-workbench';
  return `${name}: ${message}\nSee ${name} --help.`;
}

/** `parseArgs` (give it `strict: true`) whose refusals are `UsageError`s in our words. */
export function parseCommandArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    throw new UsageError(parseArgsMessage(error));
  }
}

/** Node's parseArgs errors ("Option '--policy <value>' argument missing") said as ours ("--policy needs a value."). */
export function parseArgsMessage(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const text = message ?? String(error);
  const name = /--[\w-]+/.exec(text)?.[0] ?? /'(-[^'\s]+)'/.exec(text)?.[1] ?? 'an option';
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return /does not take/.test(text) ? `${name} takes no value.` : `${name} needs a value.`;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${name}.`;
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `it takes no argument "${/'([^']*)'/.exec(text)?.[1] ?? ''}".`;
  return text;
}

/** A file the user named, read as text; a file that cannot be read is said in a sentence (`shown`: the name as the user gave it). */
export async function readUserFile(file: string, shown: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${shown}: ${unreadableWhy(error)}.`);
  }
}

// Why a file could not be read, in words (Node's message carries the code and the whole path).
function unreadableWhy(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOTDIR') return 'a part of its path is not a folder';
  if (code === 'ELOOP') return 'its links go round in a loop';
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '');
}
