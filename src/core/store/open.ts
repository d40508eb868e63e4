import { join, resolve } from 'node:path';
import { attachDerivedDir } from '../files/derived.js';
import { FolderFileStore } from '../files/folder.js';
import { s3StoreFromEnv } from '../files/s3.js';
import { attachFileStore } from '../files/store.js';
import type { Db } from './db.js';
import { PostgresDb } from './postgres.js';
import { SqliteDb } from './sqlite.js';
import { migratePlatform } from './platform-schema.js';

export interface StoreOptions {
  /** PostgreSQL when set; otherwise the embedded SQLite file under `dataDir`. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** PostgreSQL schema to use (created when missing). */
  schema?: string | undefined;
  /** SQLite file name inside dataDir, or ':memory:'. */
  sqliteFile?: string | undefined;
}

export function sqlitePath(opts: StoreOptions): string {
  if (opts.sqliteFile === ':memory:') return ':memory:';
  return resolve(join(opts.dataDir, opts.sqliteFile ?? 'biomirror.sqlite'));
}

/** Opens the configured database and brings the platform's own tables up to date. */
export async function openStore(opts: StoreOptions): Promise<Db> {
  // Read first: a misconfigured bucket fails before a database is opened.
  const s3 = s3StoreFromEnv();
  const db: Db = opts.databaseUrl ? await PostgresDb.open({ url: opts.databaseUrl, schema: opts.schema }) : new SqliteDb(sqlitePath(opts));
  try {
    await migratePlatform(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  // With the embedded database, kept files sit in a folder beside it; on PostgreSQL they stay in
  // the database, so every process that shares it reads the same files; with BIOMIRROR_FILES_S3
  // they are in an S3-compatible bucket, whatever the database.
  // Engine indexes (rebuilt from the database when missing) sit under the data folder.
  attachDerivedDir(db, join(opts.dataDir, 'index'));
  if (s3) attachFileStore(db, s3);
  else if (!opts.databaseUrl && opts.sqliteFile !== ':memory:') attachFileStore(db, new FolderFileStore(resolve(join(opts.dataDir, 'files'))));
  return db;
}

/** A description of where the data lives, for logs and `status` (never the password). */
export function describeStore(opts: StoreOptions): string {
  if (!opts.databaseUrl) return `sqlite ${sqlitePath(opts)}`;
  try {
    const u = new URL(opts.databaseUrl);
    return `postgres ${u.hostname}${u.port ? ':' + u.port : ''}${u.pathname}${opts.schema ? ` schema ${opts.schema}` : ''}`;
  } catch {
    return 'postgres';
  }
}
