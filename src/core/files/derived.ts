import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Db } from '../store/db.js';

/**
 * Where a process keeps files derived from the database that engines read as files (search
 * indexes). They are rebuilt from the database whenever missing, so each host may keep its own;
 * `BIOMIRROR_INDEX_DIR` puts them on a volume that several hosts share, which then build once.
 */
const dirs = new WeakMap<Db, string>();

/** The folder for a database: BIOMIRROR_INDEX_DIR when set, else `fallback` (beside the data). */
export function attachDerivedDir(db: Db, fallback: string): void {
  dirs.set(db, resolve(process.env.BIOMIRROR_INDEX_DIR || fallback));
}

export function derivedDirOf(db: Db): string {
  return dirs.get(db) ?? resolve(process.env.BIOMIRROR_INDEX_DIR || join(tmpdir(), 'biomirror-index'));
}
