/**
 * True only in the test and benchmark build (`node esbuild.mjs --test-hooks`, and in unit tests);
 * false in the build users get, where esbuild drops every branch that tests it. Render reports,
 * scroll measurement, replaceable prompts and the test API live behind it.
 */
declare const __TEST_HOOKS__: boolean;
