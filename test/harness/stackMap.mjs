// Maps stack frames of the bundled integration suite back to the TypeScript sources. The extension
// host installs its own Error.prepareStackTrace, so Node's source-map support never sees them.
import * as fs from 'node:fs';
import { SourceMap } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const FRAME = /^(\s*at (?:.*? \()?)(.+?):(\d+):(\d+)(\)?)$/;
const maps = new Map();

/**
 * Rewrites the frames of `stack` that point into `runDir` (the suite as the host loaded it) to
 * the original sources, reading the inline source maps of the same files in `bundleDir`; frames
 * inside mocha are dropped, as mocha's own reporters do.
 */
export function remapStack(stack, runDir, bundleDir) {
  return stack
    .split('\n')
    .map((line) => remapFrame(line, runDir, bundleDir))
    .filter((line) => !/node_modules[\\/]mocha[\\/]/.test(line))
    .join('\n');
}

function remapFrame(line, runDir, bundleDir) {
  const match = FRAME.exec(line);
  if (!match) return line;
  const [, head, file, row, column, tail] = match;
  if (!file.startsWith(runDir)) return line;
  const bundled = path.join(bundleDir, path.relative(runDir, file));
  const map = sourceMapOf(bundled);
  const entry = map?.findEntry(Number(row) - 1, Number(column) - 1);
  if (!entry?.originalSource) return line;
  const source = entry.originalSource.startsWith('file:') ? fileURLToPath(entry.originalSource) : entry.originalSource;
  const original = path.relative(process.cwd(), path.resolve(path.dirname(bundled), source));
  return `${head}${original}:${entry.originalLine + 1}:${entry.originalColumn + 1}${tail}`;
}

function sourceMapOf(file) {
  if (!maps.has(file)) maps.set(file, readInlineMap(file));
  return maps.get(file);
}

function readInlineMap(file) {
  if (!fs.existsSync(file)) return undefined;
  const text = fs.readFileSync(file, 'utf8');
  const marker = '//# sourceMappingURL=data:application/json;base64,';
  const at = text.lastIndexOf(marker);
  if (at < 0) return undefined;
  const payload = JSON.parse(Buffer.from(text.slice(at + marker.length).trim(), 'base64').toString('utf8'));
  return new SourceMap(payload);
}
