import * as fs from 'node:fs';
import * as path from 'node:path';
import initSqlJs, { type SqlJsStatic } from 'sql.js';

let loading: Promise<SqlJsStatic> | undefined;

/**
 * Where the SQLite WebAssembly binary is: next to the bundle once built (esbuild copies it to
 * `dist/`), else in the installed `sql.js` package (tests run from the TypeScript sources).
 */
export function sqliteWasmPath(): string {
  const bundled = path.join(__dirname, 'sql-wasm.wasm');
  if (fs.existsSync(bundled)) return bundled;
  return require.resolve('sql.js/dist/sql-wasm.wasm');
}

/** Loads SQLite (sql.js, WebAssembly: no native module, so it runs in VS Code's own runtime) once per process or worker. */
export function loadSqlite(): Promise<SqlJsStatic> {
  loading ??= initSqlJs({ wasmBinary: fs.readFileSync(sqliteWasmPath()) as unknown as ArrayBuffer });
  return loading;
}
