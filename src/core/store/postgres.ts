import pg from 'pg';
import { createHash } from 'node:crypto';
import type { Db, QueryHint, SqlValue } from './db.js';
import { ident } from './db.js';
import { Mutex } from './mutex.js';

const INT8 = 20;
const NUMERIC = 1700;
// Counts and ids fit in a double; the project never stores integers beyond 2^53.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format ?? 'text');
  },
};

const converted = new Map<string, string>();

/** Rewrites `?` placeholders to `$1..$n`, leaving quoted strings and identifiers alone. */
export function toPgPlaceholders(sql: string): string {
  const hit = converted.get(sql);
  if (hit !== undefined) return hit;
  let out = '';
  let n = 0;
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === '?') {
      out += `$${++n}`;
    } else {
      out += ch;
    }
  }
  if (converted.size > 2000) converted.clear();
  converted.set(sql, out);
  return out;
}

function values(params: readonly SqlValue[] | undefined): unknown[] {
  return params ? [...params] : [];
}

const names = new Map<string, string>();

/** A query config; hot lookups get a stable name so each connection parses and plans them once. */
function config(sql: string, params: readonly SqlValue[] | undefined, hint: QueryHint | undefined): pg.QueryConfig {
  const text = toPgPlaceholders(sql);
  if (!hint?.hot) return { text, values: values(params) };
  let name = names.get(text);
  if (!name) {
    name = `bm_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    if (names.size > 2000) names.clear();
    names.set(text, name);
  }
  return { name, text, values: values(params) };
}

// Multi-row INSERT is bounded by PostgreSQL's 65535 parameters per statement.
const MAX_PARAMS = 60000;

class PgHandle implements Db {
  readonly dialect = 'postgres' as const;
  /** The last query sent: a connection runs one at a time, so callers' concurrent queries wait their turn here. */
  private last: Promise<unknown> = Promise.resolve();
  constructor(private readonly client: pg.PoolClient) {}

  /**
   * Sends a query once the ones before it on this connection have finished. pg queues them itself
   * today but deprecates doing so; the order is the same.
   */
  private send(cfg: string | pg.QueryConfig, params?: unknown[]): Promise<pg.QueryResult> {
    const run = () => (params === undefined ? this.client.query(cfg) : this.client.query(cfg as string, params));
    const next = this.last.then(run, run);
    this.last = next.catch(() => undefined);
    return next;
  }

  async query<T>(sql: string, params?: readonly SqlValue[], hint?: QueryHint): Promise<T[]> {
    const r = await this.send(config(sql, params, hint));
    return r.rows as T[];
  }

  async one<T>(sql: string, params?: readonly SqlValue[], hint?: QueryHint): Promise<T | undefined> {
    return (await this.query<T>(sql, params, hint))[0];
  }

  async run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    const r = await this.send(toPgPlaceholders(sql), values(params));
    return r.rowCount ?? 0;
  }

  async exec(sql: string): Promise<void> {
    forgetColumnTypes(sql);
    await this.send(sql);
  }

  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    return fn(this);
  }

  async insertMany(table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[]): Promise<void> {
    if (rows.length === 0) return;
    const types = rows.length >= UNNEST_FROM && narrow(rows) ? await this.columnTypes(table, columns) : undefined;
    if (types) {
      // One array per column, unnested into rows: PostgreSQL parses a few arrays instead of tens of
      // thousands of parameters (several times faster for a load's large batches).
      const head = `INSERT INTO ${ident(table)} (${columns.map(ident).join(', ')}) SELECT * FROM unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})`;
      for (let start = 0; start < rows.length; start += UNNEST_ROWS) {
        const chunk = rows.slice(start, start + UNNEST_ROWS);
        await this.send(head, columns.map((_, c) => chunk.map((row) => row[c] ?? null)));
      }
      return;
    }
    const per = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
    const head = `INSERT INTO ${ident(table)} (${columns.map(ident).join(', ')}) VALUES `;
    for (let start = 0; start < rows.length; start += per) {
      const chunk = rows.slice(start, start + per);
      const params: unknown[] = [];
      const tuples: string[] = [];
      for (const row of chunk) {
        const marks: string[] = [];
        for (const v of row) {
          params.push(v);
          marks.push(`$${params.length}`);
        }
        tuples.push(`(${marks.join(', ')})`);
      }
      await this.send(head + tuples.join(', '), params);
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * The SQL types of a table's columns (cached per table name), or undefined where one cannot be
   * sent as an array (byte strings: the rows then go as parameters).
   */
  private async columnTypes(table: string, columns: readonly string[]): Promise<string[] | undefined> {
    let known = columnTypeCache.get(table);
    if (!known) {
      const rows = (await this.send('SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped', [ident(table)])).rows as { name: string; type: string }[];
      known = new Map(rows.map((r) => [r.name, r.type]));
      // A table not found (yet) is asked again next time; the insert then fails or succeeds as sent.
      if (known.size === 0) return undefined;
      if (columnTypeCache.size > 500) columnTypeCache.clear();
      columnTypeCache.set(table, known);
    }
    const types = columns.map((c) => known.get(c));
    return types.every((t): t is string => t !== undefined && t !== 'bytea') ? types : undefined;
  }
}

/** Rows from which insertMany sends arrays, and rows per statement then. */
const UNNEST_FROM = 50;
/**
 * Arrays pay off for many small values; long texts (documents) are cheaper as parameters, which
 * are sent as they are, than escaped into an array literal. Judged on the first rows.
 */
const NARROW_ROW_CHARS = 400;
function narrow(rows: readonly (readonly SqlValue[])[]): boolean {
  const sample = rows.slice(0, 32);
  let chars = 0;
  for (const row of sample) for (const v of row) if (typeof v === 'string') chars += v.length;
  return chars / sample.length <= NARROW_ROW_CHARS;
}
const UNNEST_ROWS = 20_000;
const columnTypeCache = new Map<string, Map<string, string>>();
/** Schema statements (a table made again under a name may have other types) empty the cache; BEGIN or COMMIT do not. */
function forgetColumnTypes(sql: string): void {
  if (/\b(create|alter|drop)\s/i.test(sql)) columnTypeCache.clear();
}

export interface PgOptions {
  url: string;
  /** A schema of its own (tests use one per run); created when missing. */
  schema?: string;
  max?: number;
}

export class PostgresDb implements Db {
  readonly dialect = 'postgres' as const;
  private readonly pool: pg.Pool;
  private readonly lock = new Mutex();
  private closed = false;

  private constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  static async open(opts: PgOptions): Promise<PostgresDb> {
    const schema = opts.schema;
    if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name: ${schema}`);
    if (schema) {
      const setup = new pg.Client({ connectionString: opts.url });
      await setup.connect();
      try {
        await setup.query(`CREATE SCHEMA IF NOT EXISTS ${ident(schema)}`);
      } finally {
        await setup.end();
      }
    }
    // The schema goes in the connection's startup options, so every pooled connection uses it.
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.max ?? 10,
      types,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    // An idle client that loses its server must not take the process down.
    pool.on('error', () => undefined);
    // Fail now, with the server's message, rather than on the first request.
    try {
      await pool.query('SELECT 1');
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw err;
    }
    return new PostgresDb(pool);
  }

  private async withClient<T>(fn: (h: PgHandle) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      return await fn(new PgHandle(client));
    } finally {
      client.release();
    }
  }

  query<T>(sql: string, params?: readonly SqlValue[], hint?: QueryHint): Promise<T[]> {
    return this.pool.query(config(sql, params, hint)).then((r) => r.rows as T[]);
  }

  async one<T>(sql: string, params?: readonly SqlValue[], hint?: QueryHint): Promise<T | undefined> {
    return (await this.query<T>(sql, params, hint))[0];
  }

  async run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    const r = await this.pool.query(toPgPlaceholders(sql), values(params));
    return r.rowCount ?? 0;
  }

  async exec(sql: string): Promise<void> {
    forgetColumnTypes(sql);
    await this.pool.query(sql);
  }

  insertMany(table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[]): Promise<void> {
    return this.transaction((tx) => tx.insertMany(table, columns, rows));
  }

  /** Serialized per process like SQLite's, so both databases behave alike under the same code. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    return this.lock.run(() =>
      this.withClient(async (h) => {
        await h.exec('BEGIN');
        try {
          const out = await fn(h);
          await h.exec('COMMIT');
          return out;
        } catch (err) {
          await h.exec('ROLLBACK').catch(() => undefined);
          throw err;
        }
      }),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.lock.run(() => this.pool.end());
  }
}
