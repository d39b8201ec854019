// The npm package's manifest (`npm pack`: the command line, .npmignore) and the extension's are the same
// package.json, but `main` is the extension's entry (VS Code needs it) and the npm package does not carry
// dist/extension.js. npm runs `prepack` before it reads the files to pack and `postpack` after:
// `strip` keeps package.json as it is in PACK_BACKUP and writes it without `main`, `restore` puts it back
// byte for byte. A pack that stopped half way leaves the backup; `restore` then mends package.json.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where package.json waits while a pack runs (.npmignore keeps it out of the package). */
const PACK_BACKUP = 'package.json.before-pack';

/** The manifest of the npm package: the extension's without `main`, the entry of the extension alone. */
function packManifest(manifest) {
  const { main: _extensionEntry, ...rest } = manifest;
  return rest;
}

function strip(dir) {
  const file = path.join(dir, 'package.json');
  const backup = path.join(dir, PACK_BACKUP);
  if (fs.existsSync(backup)) {
    throw new Error(`${PACK_BACKUP} is there: an earlier pack did not finish. Run "node scripts/packManifest.mjs restore" to put package.json back, then pack again.`);
  }
  const text = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(backup, text);
  fs.writeFileSync(file, `${JSON.stringify(packManifest(JSON.parse(text)), null, 2)}\n`);
}

function restore(dir) {
  const backup = path.join(dir, PACK_BACKUP);
  if (fs.existsSync(backup)) fs.renameSync(backup, path.join(dir, 'package.json'));
}

const [step] = process.argv.slice(2);
try {
  if (step === 'strip') strip(process.cwd());
  else if (step === 'restore') restore(process.cwd());
  else throw new Error('Usage: node scripts/packManifest.mjs strip|restore (npm pack runs it)');
} catch (error) {
  console.error(`packManifest: ${error.message}`);
  process.exit(1);
}
