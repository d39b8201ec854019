// Writes package.json's language model tools and tool set from the tool catalogue (the unit test
// test/unit/tools/manifest.test.ts fails when they differ): `node --import tsx test/harness/toolManifest.ts`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { languageModelToolSetsManifest, languageModelToolsManifest } from '../../src/core/tools/manifest';

const file = path.resolve(__dirname, '../../package.json');
const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { contributes: Record<string, unknown> };
pkg.contributes.languageModelTools = languageModelToolsManifest();
pkg.contributes.languageModelToolSets = languageModelToolSetsManifest();
fs.writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
console.log(`package.json: ${languageModelToolsManifest().length} language model tools written.`);
