// The lint gate of `npm test` (and `npm run lint`): typescript-eslint's type-checked recommended rules
// over every TypeScript file of the extension, the sandbox, the webview pages, the tests and the
// benchmarks, plus the two promise rules that catch the bugs this codebase cares most about — a
// promise nobody waits for (an error that vanishes, a write whose outcome nobody reads) and an async
// function where VS Code expects a plain callback (its rejection is lost).
//
// Each file is checked with the tsconfig that owns it (`projectService` finds the nearest one), so
// DOM-only pages and Node-only code get their own types. No rule is switched off for the whole code
// base; where one line must differ, it says why in an `eslint-disable-next-line` comment.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'out/**',
      'media/**',
      '.vscode-test/**',
      '.sandbox-data/**',
      'test-results/**',
      'bench/tmp/**',
      // Plain scripts other than the build's and the harness's own (below) are not ours to lint.
      '**/*.js',
    ],
  },
  {
    // The build and the test harness: plain ES modules (and a CommonJS reporter) run by Node. Their
    // types come from test/harness/index.d.mts for the TypeScript that imports them; here they get
    // ESLint's recommended rules, so an unused variable or an undefined name is caught like elsewhere.
    files: ['**/*.mjs', '**/*.cjs'],
    extends: [js.configs.recommended],
    languageOptions: {
      ecmaVersion: 2023,
      globals: Object.fromEntries(
        ['process', 'console', 'Buffer', 'URL', 'URLSearchParams', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'AbortController', 'AbortSignal', 'TextDecoder', 'TextEncoder', 'fetch', 'structuredClone', 'queueMicrotask', 'performance', 'globalThis'].map((name) => [name, 'readonly']),
      ),
    },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', exports: 'writable', __dirname: 'readonly', __filename: 'readonly' } },
  },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      // Part of recommendedTypeChecked already; named here because they are the reason for the gate.
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: true }],
      '@typescript-eslint/no-misused-promises': 'error',
      // `_unused` parameters keep a callback's shape readable (e.g. `(_event, value) => …`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Every client the product makes passes the write gate (src/core/writeGate/): a client without
    // `writeGate` would send writes no one checked. Only tests seeding a sandbox make such clients.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='ServiceClient'] > ObjectExpression:not(:has(> Property[key.name='writeGate']))",
          message: 'A ServiceClient of the product passes the write gate: give it `writeGate` (see src/core/writeGate/).',
        },
        {
          // Options from elsewhere cannot be seen to carry the gate: they are written out where the client is made.
          selector: "NewExpression[callee.name='ServiceClient']:not(:has(> ObjectExpression))",
          message: 'A ServiceClient of the product takes its options as an object written where it is made, with `writeGate` (see src/core/writeGate/).',
        },
      ],
    },
  },
  {
    // The one scoped exception: black-box tests of the sandbox's HTTP interface read its raw JSON
    // answers (`answer.body.results[0].job_inputs…`) exactly as a client on the wire would. Typing
    // every answer would restate, in the tests, the very schemas they check. Only the rules about
    // values typed `any` are off here; the promise rules and everything else still apply.
    files: ['test/unit/sandbox/**/*.ts', 'test/unit/sandbox-hostile/**/*.ts', 'test/unit/property/**/*.ts', 'test/unit/faults/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
