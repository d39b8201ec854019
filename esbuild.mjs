// Bundles the extension, the sandbox and the sandbox's query worker (separate entries, minified,
// source maps, node20). Type-checking is `npm run typecheck` (esbuild only strips types).
// `--test-hooks` builds the variant the integration tests and benchmarks install (test API, render
// reports, scroll measurement, replaceable prompts); without it, as users get it, none of that is in
// the bundle. `--out DIR` writes dist/ and media/resultsGrid/ under DIR instead of the project.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import subsetFont from 'subset-font';

const args = new Set(process.argv.slice(2));
const watch = args.has('--watch');
const sandboxOnly = args.has('--sandbox-only');
const production = !args.has('--dev');
const testHooks = args.has('--test-hooks');
const outArg = process.argv.slice(2).find((a) => a.startsWith('--out='));
const outRoot = outArg ? outArg.slice('--out='.length) : '.';
const distDir = path.join(outRoot, 'dist');

/**
 * The MCP SDK's server requires its Ajv validator at load, whatever validator it is given; ours
 * (src/core/mcp/answerValidator.ts, passed to every server we make) stands in for that module, so Ajv
 * and its formats stay out of the bundles.
 */
const mcpAnswerValidator = {
  name: 'mcp-answer-validator',
  setup(build) {
    build.onResolve({ filter: /[\\/]validation[\\/]ajv-provider\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}@modelcontextprotocol${path.sep}sdk${path.sep}`) ? { path: path.resolve('src/core/mcp/answerValidator.ts') } : undefined,
    );
  },
};

/**
 * The client uses undici's Pool only; undici's index brings fetch, WebSocket, caches, mocks and the rest
 * (half a megabyte of dist/core.js), so the bundles take the Pool's own module, the same class. The Pool
 * asks for fetch's body reader only for a FormData body, which the client never sends (multipart.ts
 * writes its own), so that reader and what it needs stay out too: asked anyway, it says so.
 */
const UNDICI_POOL = [
  // As undici's index does: the request methods (`request`, `stream`…) are the Dispatcher's.
  "Object.assign(require('undici/lib/dispatcher/dispatcher.js').prototype, require('undici/lib/api/index.js'));",
  "module.exports = { Pool: require('undici/lib/dispatcher/pool.js') };",
].join('\n');
const undiciPoolOnly = {
  name: 'undici-pool-only',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: 'undici-pool', namespace: 'undici-pool' }));
    build.onLoad({ filter: /^undici-pool$/, namespace: 'undici-pool' }, () => ({ contents: UNDICI_POOL, loader: 'js', resolveDir: path.resolve('.') }));
    build.onResolve({ filter: /^\.\.\/web\/fetch\/body\.js$/ }, (args) => (args.importer.includes(`${path.sep}undici${path.sep}lib${path.sep}dispatcher${path.sep}`) ? { path: 'no-form-data', namespace: 'undici-pool' } : undefined));
    build.onLoad({ filter: /^no-form-data$/, namespace: 'undici-pool' }, () => ({
      contents: "exports.extractBody = () => { throw new Error('The client sends no FormData body (it is left out of this bundle).'); };",
      loader: 'js',
    }));
  },
};

/** @type {import('esbuild').BuildOptions} */
const common = {
  plugins: [mcpAnswerValidator, undiciPoolOnly],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: production,
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: 'none',
  external: ['vscode'],
  // jsonc-parser's main build is UMD with dynamic requires that a bundle cannot follow; its ESM build bundles cleanly.
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  metafile: true,
  define: { __TEST_HOOKS__: String(testHooks) },
  // sqlite.ts resolves the WebAssembly file from node_modules only when running unbundled (tests).
  logOverride: { 'require-resolve-not-external': 'silent' },
};

/**
 * `import * as vscode from 'vscode'` in each of the extension's modules would make esbuild copy the
 * whole VS Code API object into a fresh namespace once per module (`__toESM`), about 20 ms of
 * activation with 40-odd modules; routed through one shared module, it is copied once.
 */
const vscodeNamespaceOnce = {
  name: 'vscode-namespace-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) => (args.namespace === 'vscode-once' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-once' }));
    build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({ contents: "export * from 'vscode';", loader: 'js' }));
  },
};

/** Where the job view names its codicons: `codicon-NAME` in its markup and script, `icon: 'NAME'` in the status looks. */
const CODICON_SOURCES = ['src/extension/jobs/jobView/jobViewPage.ts', 'src/webview/jobView', 'src/core/jobView'];

const entries = [
  // Handlebars asks for `source-map` inside a try, only for source-mapped precompiling, which the sandbox never does.
  { name: 'sandbox', entryPoints: { sandbox: 'src/sandbox/main.ts' }, options: { external: ['vscode', 'source-map'] } },
  { name: 'queryWorker', entryPoints: { queryWorker: 'src/sandbox/query/worker.ts' } },
  { name: 'engineWorker', entryPoints: { engineWorker: 'src/sandbox/engine/worker.ts' }, options: { external: ['vscode', 'source-map'] } },
  // The command line for CI (`agent-workbench try`): the core only, no VS Code.
  { name: 'cli', entryPoints: { cli: 'src/cli/main.ts' }, options: { banner: { js: '#!/usr/bin/env node' } } },
];
if (!sandboxOnly) {
  // Two extension bundles: the small one evaluated at activation, and the client loaded on first use.
  entries.unshift(
    { name: 'extension', entryPoints: { extension: 'src/extension/extension.ts' }, options: { plugins: [vscodeNamespaceOnce] } },
    // The commands the views do not need to draw, loaded the first time one runs (src/extension/commands/onFirstUse.ts).
    { name: 'commands', entryPoints: { commands: 'src/extension/commandsBundle.ts' }, options: { plugins: [vscodeNamespaceOnce] }, lazy: true },
    // The webview panels, loaded when the first one opens.
    { name: 'panels', entryPoints: { panels: 'src/extension/panelsBundle.ts' }, options: { plugins: [vscodeNamespaceOnce] }, lazy: true },
    { name: 'core', entryPoints: { core: 'src/extension/core.ts' } },
    // The Summary Preview's engine (Handlebars), loaded only when a preview opens. Handlebars asks for
    // `source-map` inside a try (only for source-mapped precompiling, which the preview never does).
    { name: 'summary', entryPoints: { summary: 'src/core/summary/index.ts' }, options: { external: ['vscode', 'source-map'] } },
    // SQL editing (completion, hover, unknown tables), loaded when a .sql file first asks.
    { name: 'sql', entryPoints: { sql: 'src/core/sql/index.ts' } },
    // The query results grid page: a browser script, written next to its style sheet in media/ (the
    // only folder its webview may load from). Type-checked by `tsc -p src/webview/resultsGrid`.
    {
      name: 'resultsGrid',
      entryPoints: { resultsGrid: 'src/webview/resultsGrid/main.ts' },
      options: { platform: 'browser', format: 'iife', target: 'es2022', external: [], sourcemap: production ? false : 'inline', outdir: path.join(outRoot, 'media', 'resultsGrid') },
    },
    // The job view page, built like the grid's; the codicon font and its style sheet are copied beside it.
    {
      name: 'jobView',
      entryPoints: { jobView: 'src/webview/jobView/main.ts' },
      options: { platform: 'browser', format: 'iife', target: 'es2022', external: [], sourcemap: production ? false : 'inline', outdir: path.join(outRoot, 'media', 'jobView') },
    },
    // The Summary Preview page, the same way; its messages are checked by src/core/summary/previewProtocol.ts.
    {
      name: 'summaryPreview',
      entryPoints: { main: 'src/webview/summaryPreview/main.ts' },
      options: { platform: 'browser', format: 'iife', target: 'es2022', external: [], sourcemap: production ? false : 'inline', outdir: path.join(outRoot, 'media', 'summaryPreview') },
    },
    // The comparison page, built the same way (type-checked by `tsc -p src/webview/comparison`).
    {
      name: 'comparisonPage',
      entryPoints: { comparison: 'src/webview/comparison/main.ts' },
      options: { platform: 'browser', format: 'iife', target: 'es2022', external: [], sourcemap: production ? false : 'inline', outdir: path.join(outRoot, 'media', 'comparison') },
    },
  );
}

fs.mkdirSync(distDir, { recursive: true });
fs.copyFileSync(path.join('node_modules', 'sql.js', 'dist', 'sql-wasm.wasm'), path.join(distDir, 'sql-wasm.wasm'));
// Which variant dist/ holds, so that a check of the shipped build knows what it is looking at.
if (!sandboxOnly) fs.writeFileSync(path.join(distDir, 'build.json'), `${JSON.stringify({ testHooks })}\n`);
if (!sandboxOnly) await writeCodiconSubset(path.join(outRoot, 'media', 'jobView'));

const shared = sandboxOnly ? new Map() : await sharedWithActivation(entries);
const contexts = [];
for (const entry of entries) {
  if (!Object.values(entry.entryPoints).every((p) => fs.existsSync(p))) {
    console.warn(`esbuild: skipping ${entry.name} (no entry file yet)`);
    continue;
  }
  const options = { ...common, outdir: distDir, ...entry.options, entryPoints: entry.entryPoints };
  if (entry.name === 'extension') Object.assign(options, exportingShared(entry, shared));
  if (entry.lazy) options.plugins = [shareFromActivation(shared), ...options.plugins];
  if (watch) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
    contexts.push(ctx);
  } else {
    const result = await esbuild.build(options);
    fs.writeFileSync(path.join(distDir, `${entry.name}.meta.json`), JSON.stringify(result.metafile));
  }
}
if (!sandboxOnly) await writeJsonSchemas();
if (watch) console.log('esbuild: watching');

/**
 * What a bundle loaded on first use (`lazy`) imports from the activation bundle's source modules, by
 * module: the names it uses, or `*`. Each such module is kept in the activation bundle only and reached
 * from the other (not copied): a copy would have its own module state (the command wrapper's, the
 * prompts tests answer) and its own classes, which `instanceof` would tell apart from the activation
 * bundle's (a tree node passed to a command). Only the names used are exported, so that what esbuild
 * leaves out of the activation bundle (the test build's hooks among it) stays out.
 */
async function sharedWithActivation(all) {
  const extension = all.find((e) => e.name === 'extension');
  const first = await esbuild.build({ ...common, ...extension.options, entryPoints: extension.entryPoints, outdir: distDir, write: false });
  const activation = new Set(Object.keys(first.metafile.inputs).filter((input) => input.startsWith('src/')));
  const shared = new Map();
  for (const entry of all.filter((e) => e.lazy)) {
    // Built as ESM with the activation bundle's modules left outside, its imports name what it uses of them.
    const plugins = [resolvingTo(activation, (file) => ({ path: `activation:${file}`, external: true })), ...(entry.options?.plugins ?? common.plugins)];
    const lazy = await esbuild.build({ ...common, ...entry.options, plugins, entryPoints: entry.entryPoints, outdir: distDir, write: false, format: 'esm', minify: false });
    const text = lazy.outputFiles.find((f) => f.path.endsWith('.js')).text;
    for (const [, clause, file] of text.matchAll(/^import (.+) from "activation:(.+)";$/gm)) {
      const names = shared.get(file) ?? new Set();
      if (clause.includes('* as ')) names.add('*');
      for (const name of clause.match(/\{([^}]*)\}/)?.[1].split(',') ?? []) if (name.trim()) names.add(name.trim().split(/\s+as\s+/)[0]);
      if (/^[\w$]+(,|$)/.test(clause)) names.add('default');
      shared.set(file, names);
    }
  }
  return shared;
}

/** A plugin that sends each relative import resolving to one of `files` (paths from the project) where `to` says. */
function resolvingTo(files, to) {
  return {
    name: 'resolving-to',
    setup(build) {
      build.onResolve({ filter: /^\./ }, async (args) => {
        if (args.pluginData?.resolving) return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { resolving: true } });
        const file = path.relative(process.cwd(), resolved.path).split(path.sep).join('/');
        return files.has(file) ? to(file) : undefined;
      });
    },
  };
}

/** The activation bundle's entry, which also exports, as `__shared` (by path), what the lazy bundles use of its modules. */
function exportingShared(entry, shared) {
  const source = Object.values(entry.entryPoints)[0];
  const files = [...shared.keys()].sort();
  // Getters, so that what a module exports stays live (a `let` that changes) as it is for an import.
  const exportsOf = (file, i) => (shared.get(file).has('*') ? `m${i}` : `{ ${[...shared.get(file)].map((name) => `get ${name}() { return m${i}.${name}; }`).join(', ')} }`);
  const lines = [
    `export * from './${source}';`,
    ...files.map((file, i) => `import * as m${i} from './${file}';`),
    `export const __shared = { ${files.map((file, i) => `${JSON.stringify(file)}: ${exportsOf(file, i)}`).join(', ')} };`,
  ];
  const plugin = {
    name: 'activation-entry',
    setup(build) {
      build.onResolve({ filter: /^activation-entry$/ }, () => ({ path: 'activation-entry', namespace: 'activation-entry' }));
      build.onLoad({ filter: /.*/, namespace: 'activation-entry' }, () => ({ contents: lines.join('\n'), loader: 'ts', resolveDir: path.resolve('.') }));
    },
  };
  return { entryPoints: { [Object.keys(entry.entryPoints)[0]]: 'activation-entry' }, plugins: [plugin, ...(entry.options?.plugins ?? [])] };
}

/** In a bundle loaded on first use: each shared module is the activation bundle's (dist/extension.js, already loaded). */
function shareFromActivation(shared) {
  const files = new Set(shared.keys());
  return {
    name: 'share-from-activation',
    setup(build) {
      resolvingTo(files, (file) => ({ path: file, namespace: 'activation' })).setup(build);
      build.onResolve({ filter: /^activation-shared$/ }, () => ({ path: 'activation-shared', namespace: 'activation-shared' }));
      build.onLoad({ filter: /.*/, namespace: 'activation-shared' }, () => ({ contents: "module.exports = require(require('path').join(__dirname, 'extension.js')).__shared;", loader: 'js' }));
      build.onLoad({ filter: /.*/, namespace: 'activation' }, (args) => ({ contents: `module.exports = require('activation-shared')[${JSON.stringify(args.path)}];`, loader: 'js' }));
    },
  };
}

/** Generates the editor's JSON schema files from the zod definitions the code validates with (one source of truth). */
async function writeJsonSchemas() {
  const tmp = path.join(distDir, '.schemas.cjs');
  await esbuild.build({ ...common, minify: false, sourcemap: false, metafile: false, entryPoints: ['src/core/documents/jsonSchemaFiles.ts'], outfile: tmp });
  const { createRequire } = await import('node:module');
  const files = createRequire(import.meta.url)(path.resolve(tmp)).jsonSchemaFiles();
  fs.mkdirSync(path.join(distDir, 'schemas'), { recursive: true });
  for (const [name, schema] of Object.entries(files)) fs.writeFileSync(path.join(distDir, 'schemas', name), `${JSON.stringify(schema, null, 2)}\n`);
  fs.rmSync(tmp);
}

/**
 * The job view's codicons: only the glyphs it names, in a font and a style sheet of their own (the
 * whole font and its 1,400 classes would be most of a hundred kilobytes of the package).
 */
async function writeCodiconSubset(dir) {
  const files = CODICON_SOURCES.flatMap((source) => (fs.statSync(source).isDirectory() ? fs.readdirSync(source).filter((f) => f.endsWith('.ts')).map((f) => path.join(source, f)) : [source]));
  const names = new Set();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/codicon-([a-z0-9-]+)/g)) if (!match[1].startsWith('modifier-') && !match[1].endsWith('-')) names.add(match[1]);
    for (const match of text.matchAll(/\bicon: '([a-z0-9-]+)'/g)) names.add(match[1]);
  }
  const dist = path.join('node_modules', '@vscode', 'codicons', 'dist');
  const css = fs.readFileSync(path.join(dist, 'codicon.css'), 'utf8');
  const glyphs = new Map();
  for (const match of css.matchAll(/^\.codicon-([a-z0-9-]+):before \{ content: "\\([0-9a-f]+)" \}$/gm)) glyphs.set(match[1], match[2]);
  const missing = [...names].filter((n) => !glyphs.has(n));
  if (missing.length) throw new Error(`The job view names codicons the font does not have: ${missing.join(', ')}`);
  const used = [...names].sort();
  const text = used.map((n) => String.fromCodePoint(parseInt(glyphs.get(n), 16))).join('');
  const font = await subsetFont(fs.readFileSync(path.join(dist, 'codicon.ttf')), text, { targetFormat: 'truetype' });
  // The rules before the icons (the font face, the base class, the spin modifier), then only ours.
  const head = css.slice(0, css.indexOf('.codicon-', css.indexOf(' *  Icons'))).replace(/codicon\.ttf\?[0-9a-f]+/, 'codicon.ttf');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'codicon.ttf'), font);
  fs.writeFileSync(path.join(dir, 'codicon.css'), `${head}${used.map((n) => `.codicon-${n}:before { content: "\\${glyphs.get(n)}" }`).join('\n')}\n`);
}
