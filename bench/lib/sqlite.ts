/** The SQLite binding the built server loads on this Node (dist/core/store/sqlite-driver.js), for reading its database directly. */
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { ROOT } from './harness.js';

const driver = (await import(join(ROOT, 'dist', 'core', 'store', 'sqlite-driver.js'))) as { default: typeof BetterSqlite3 };
export default driver.default;
