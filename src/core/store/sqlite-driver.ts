/**
 * The SQLite binding for the Node that runs: better-sqlite3 13 (built on Node-API) on Node 22 and
 * later, 12 on Node 20. Version 12 and earlier wrap their objects in Node's own ObjectWrap, whose
 * destructors abort Node 24 (`Assertion failed: (env) != nullptr` in RemoveEnvironmentCleanupHook,
 * at exit or during a garbage collection); 13 fixes that but crashes on Node 20. Both are installed
 * (12 as an optional dependency under the name `better-sqlite3-node20`); their API is the same.
 * Everything that opens a SQLite file takes its binding from here.
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

/** The package this Node loads. */
export const SQLITE_BINDING = Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20';

/**
 * The binding `name` through `load`; a binding that cannot be loaded is named with what to do, since
 * on Node 20 it is an optional dependency whose build may have failed silently at install time.
 */
export function loadBinding(name: string, load: (id: string) => unknown = require): typeof BetterSqlite3 {
  try {
    return load(name) as typeof BetterSqlite3;
  } catch (err) {
    const remedy =
      name === 'better-sqlite3-node20' ? 'it is built at install time on Node 20: run `npm rebuild better-sqlite3-node20` and read its output, or use Node 22 or later' : 'run `npm install`';
    throw new Error(`the SQLite binding for Node ${process.versions.node} (${name}) cannot be loaded (${(err as Error).message.split('\n')[0]}): ${remedy}`, { cause: err });
  }
}

const Database = loadBinding(SQLITE_BINDING);
export default Database;
