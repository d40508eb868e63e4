import type BetterSqlite3 from 'better-sqlite3';
import Database from './sqlite-driver.js';
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Db, SqlValue } from './db.js';
import { checkRowWidth, ident } from './db.js';
import { Mutex } from './mutex.js';

type Statement = BetterSqlite3.Statement<unknown[]>;

function bind(params: readonly SqlValue[] | undefined): unknown[] {
  if (!params) return [];
  return params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));
}

/** Rows one INSERT statement of insertMany carries (measured: 16 rows a statement insert about a quarter faster than one). */
const ROWS_PER_INSERT = 16;
/** Bound parameters a statement may have (SQLite's limit since 3.32). */
const MAX_VARIABLES = 32_766;

/** Prepared statements kept per connection. */
const STATEMENTS_KEPT = 500;

/** Prepared statements are cached per connection: the hot read paths run the same few queries. */
class Connection {
  readonly raw: BetterSqlite3.Database;
  private readonly cache = new Map<string, Statement>();

  constructor(file: string, readonly: boolean) {
    this.raw = new Database(file, { readonly, fileMustExist: readonly });
    this.raw.pragma('busy_timeout = 30000');
    if (!readonly) {
      // A new file gives the pages of dropped generations back to the file system (see reclaim()).
      // It must be set before the first table; an older file keeps its mode until a VACUUM.
      if (file !== ':memory:' && this.raw.pragma('page_count', { simple: true }) === 0) this.raw.pragma('auto_vacuum = INCREMENTAL');
      this.raw.pragma('journal_mode = WAL');
      this.raw.pragma('synchronous = NORMAL');
    }
    this.raw.pragma('cache_size = -65536');
    // Reads through a memory map skip a read() and a copy per page: random lookups get ~40% faster.
    // Only the reader maps: a load writing gigabytes should not look that large in memory.
    if (readonly) this.raw.pragma('mmap_size = 1073741824');
  }

  stmt(sql: string): Statement {
    let s = this.cache.get(sql);
    if (s) {
      // Most recently used last: a burst of one-off statements pushes out the oldest of them,
      // not the hot ones.
      this.cache.delete(sql);
    } else {
      s = this.raw.prepare(sql);
      if (this.cache.size >= STATEMENTS_KEPT) this.cache.delete(this.cache.keys().next().value as string);
    }
    this.cache.set(sql, s);
    return s;
  }

  /** DDL changes invalidate prepared statements of dropped tables. */
  forget(): void {
    this.cache.clear();
  }
}

class SqliteHandle implements Db {
  readonly dialect = 'sqlite' as const;
  constructor(
    private readonly conn: Connection,
    private readonly owner: SqliteDb,
  ) {}

  async query<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    const s = this.conn.stmt(sql);
    return (s.reader ? s.all(...bind(params)) : (s.run(...bind(params)), [])) as T[];
  }

  async one<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return this.conn.stmt(sql).get(...bind(params)) as T | undefined;
  }

  async run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    return this.conn.stmt(sql).run(...bind(params)).changes;
  }

  async exec(sql: string): Promise<void> {
    this.conn.raw.exec(sql);
    this.owner.forgetStatements();
  }

  /** Handles are only handed out inside a transaction, so a nested one simply joins it. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    return fn(this);
  }

  /** Writes to an FTS5 table's shadow tables, refused in SQLite's defensive mode, for the time of `fn`. */
  async shadowWrites<T>(fn: () => Promise<T>): Promise<T> {
    this.conn.raw.unsafeMode(true);
    try {
      return await fn();
    } finally {
      this.conn.raw.unsafeMode(false);
    }
  }

  async insertMany(table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[]): Promise<void> {
    if (rows.length === 0) return;
    const head = `INSERT INTO ${ident(table)} (${columns.map(ident).join(', ')}) VALUES `;
    const one = `(${columns.map(() => '?').join(', ')})`;
    // Several rows a statement: each run of a statement costs a crossing into SQLite and a reset,
    // and bulk loads insert millions of rows.
    const per = Math.max(1, Math.min(ROWS_PER_INSERT, Math.floor(MAX_VARIABLES / columns.length)));
    let i = 0;
    if (rows.length >= per && per > 1) {
      const many = this.conn.stmt(head + Array.from({ length: per }, () => one).join(', '));
      const args: unknown[] = new Array(per * columns.length);
      for (; i + per <= rows.length; i += per) {
        let k = 0;
        for (let r = i; r < i + per; r++) {
          const row = rows[r] as readonly SqlValue[];
          checkRowWidth(table, columns, row);
          for (const v of row) args[k++] = typeof v === 'boolean' ? (v ? 1 : 0) : v;
        }
        many.run(...args);
      }
    }
    if (i < rows.length) {
      const single = this.conn.stmt(head + one);
      for (; i < rows.length; i++) single.run(...bind(rows[i]));
    }
  }

  close(): Promise<void> {
    return this.owner.close();
  }
}

/**
 * better-sqlite3 is synchronous, so a transaction spanning `await`s must not share its connection
 * with concurrent readers: reads go to a second connection (WAL lets it see only committed data),
 * writes and transactions to the writer, one transaction at a time.
 */
export interface SpaceReclaimed {
  /** Bytes given back to the file system. */
  freedBytes: number;
  /** Free bytes left inside the file (reused by later writes), when the file cannot shrink. */
  keptBytes: number;
}

/** Runs `fn` with FTS5 shadow tables writable, when `tx` is an SQLite transaction; as is otherwise. */
export function allowShadowWrites<T>(tx: Db, fn: () => Promise<T>): Promise<T> {
  return tx instanceof SqliteHandle ? tx.shadowWrites(fn) : fn();
}

/** What dropping tables freed in the file, when `db` is SQLite (PostgreSQL frees a dropped table's files itself). */
export async function reclaimSpace(db: Db): Promise<SpaceReclaimed | undefined> {
  return db instanceof SqliteDb ? db.reclaim() : undefined;
}

export class SqliteDb implements Db {
  readonly dialect = 'sqlite' as const;
  private readonly writer: Connection;
  private readonly reader: Connection;
  private readonly readHandle: SqliteHandle;
  private readonly writeHandle: SqliteHandle;
  private readonly lock = new Mutex();
  private closed = false;

  constructor(readonly file: string) {
    if (file !== ':memory:') {
      // Owner only: the database holds password digests and tokens' digests. SQLite gives its WAL
      // and shared-memory files the database file's permissions.
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      closeSync(openSync(file, 'a', 0o600));
      chmodSync(file, 0o600);
    }
    this.writer = new Connection(file, false);
    this.reader = file === ':memory:' ? this.writer : new Connection(file, true);
    this.readHandle = new SqliteHandle(this.reader, this);
    this.writeHandle = new SqliteHandle(this.writer, this);
  }

  query<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.readHandle.query<T>(sql, params);
  }

  one<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return this.readHandle.one<T>(sql, params);
  }

  run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    return this.lock.run(() => this.writeHandle.run(sql, params));
  }

  exec(sql: string): Promise<void> {
    return this.lock.run(() => this.writeHandle.exec(sql));
  }

  insertMany(table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[]): Promise<void> {
    return this.transaction((tx) => tx.insertMany(table, columns, rows));
  }

  forgetStatements(): void {
    this.writer.forget();
    this.reader.forget();
  }

  async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    return this.lock.run(async () => {
      this.writer.raw.exec('BEGIN IMMEDIATE');
      try {
        const out = await fn(this.writeHandle);
        this.writer.raw.exec('COMMIT');
        return out;
      } catch (err) {
        if (this.writer.raw.inTransaction) this.writer.raw.exec('ROLLBACK');
        throw err;
      }
    });
  }

  /**
   * Gives the free pages of dropped tables back to the file system. With `auto_vacuum = NONE` (a file
   * made by an earlier version) they stay in the file for later writes; the answer says how many.
   */
  async reclaim(): Promise<SpaceReclaimed> {
    return this.lock.run(async () => {
      const raw = this.writer.raw;
      const page = Number(raw.pragma('page_size', { simple: true }));
      const free = Number(raw.pragma('freelist_count', { simple: true }));
      if (Number(raw.pragma('auto_vacuum', { simple: true })) === 0) return { freedBytes: 0, keptBytes: free * page };
      raw.exec('PRAGMA incremental_vacuum');
      // Passive: a reader in the middle of a read is not waited for; the file shrinks at the next checkpoint then.
      raw.pragma('wal_checkpoint(PASSIVE)');
      const left = Number(raw.pragma('freelist_count', { simple: true }));
      return { freedBytes: (free - left) * page, keptBytes: left * page };
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.lock.run(async () => {
      if (this.reader !== this.writer) this.reader.raw.close();
      try {
        this.writer.raw.pragma('wal_checkpoint(TRUNCATE)');
      } catch {
        // another process may hold the database; the checkpoint then happens later
      }
      this.writer.raw.close();
    });
  }
}
