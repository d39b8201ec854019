// `npm run package` (after `node esbuild.mjs`): agent-workbench.vsix with vsce. A base URL for the
// README's images comes from AGENT_WORKBENCH_IMAGES_URL or `npm run package -- --baseImagesUrl https://…`
// (docs/building-and-packaging.md); other arguments go to vsce as they are.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { vsceArguments } from './packageArguments.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let args;
try {
  args = vsceArguments(process.argv.slice(2), process.env);
} catch (error) {
  console.error(error.message);
  process.exit(2);
}
const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
const result = spawnSync(process.execPath, [vsce, ...args], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
