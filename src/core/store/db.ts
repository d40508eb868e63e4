/**
 * The one database interface every service store is written against. SQL is written once with `?`
 * placeholders; each driver adapts it (PostgreSQL gets `$n`). Dialect-specific fragments (full-text
 * search, upserts) are chosen by the service store from `db.dialect`.
 */
export type Dialect = 'sqlite' | 'postgres';
export type SqlValue = string | number | bigint | boolean | null | Buffer;
export type Row = Record<string, unknown>;

/**
 * `hot`: a fixed lookup run on most requests (a record by its key). PostgreSQL then keeps it as a
 * named prepared statement per connection; SQLite prepares every statement anyway. Not for
 * searches, whose best plan depends on the values.
 */
export interface QueryHint {
  hot?: boolean;
}

export interface Db {
  readonly dialect: Dialect;
  /** Rows of a read. Outside a transaction this never sees uncommitted writes. */
  query<T = Row>(sql: string, params?: readonly SqlValue[], hint?: QueryHint): Promise<T[]>;
  one<T = Row>(sql: string, params?: readonly SqlValue[], hint?: QueryHint): Promise<T | undefined>;
  /** A write; resolves to the number of affected rows. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
  /** Several statements without parameters (DDL). */
  exec(sql: string): Promise<void>;
  /** Runs `fn` in one transaction on one connection; transactions are serialized per process. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /** Inserts many rows into one table; fastest path of each driver. Call inside a transaction. */
  insertMany(table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Refuses a batch-insert row of another width than its columns: drivers that send several rows in
 * one statement (or one stream) would otherwise shift the neighbours' values into its place.
 */
export function checkRowWidth(table: string, columns: readonly string[], row: readonly SqlValue[]): void {
  if (row.length !== columns.length) throw new RangeError(`a row of ${row.length} values for ${columns.length} columns of ${table}`);
}

/** Quotes an identifier built by the project (table names carry a generation number). */
export function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe SQL identifier: ${name}`);
  return `"${name}"`;
}
