/**
 * Kept answers: one row per normalised request, in the main database beside the loaded data (both
 * SQLite and PostgreSQL), so that they outlive restarts and every process sharing the database
 * serves them. The table is made on first use (its own migration scope), so that any code that
 * opens the database (server, `status`, `cache`) finds it.
 */
import type { Db } from '../store/db.js';
import { migrate, type Migration } from '../store/migrations.js';
import { PACE_TABLE } from './pace.js';

export interface KeptAnswer {
  key: string;
  service: string;
  /** The normalised request (see keys.ts). */
  request: string;
  status: number;
  contentType: string | null;
  /** Selected response headers (see SELECTED_HEADERS in pull.ts). */
  headers: Record<string, string>;
  body: Buffer;
  /**
   * The host it came from: the real service's, or with `--upstream` the chained biomirror's (the
   * real host when that biomirror had kept it from there, its own address when it served loaded data).
   */
  upstream: string;
  /** ISO time it was fetched (by the first biomirror of a chain that asked the real host). */
  fetchedAt: string;
}

export interface KeptSummary {
  service: string;
  count: number;
  bytes: number;
  oldest: string | null;
  newest: string | null;
}

// The same table on both databases; only the byte and integer types are spelled apart.
const keptTable = (bytes: string, bigint: string) => `
        CREATE TABLE bm_pullthrough (
          key TEXT PRIMARY KEY,
          service TEXT NOT NULL,
          request TEXT NOT NULL,
          status INTEGER NOT NULL,
          content_type TEXT,
          headers TEXT NOT NULL,
          body ${bytes} NOT NULL,
          size ${bigint} NOT NULL,
          upstream TEXT NOT NULL,
          fetched_at TEXT NOT NULL
        );
        CREATE INDEX bm_pullthrough_service ON bm_pullthrough (service, key);`;

// The turns toward each upstream queue (pace.ts): the time after which the next may start, in ms.
const paceTable = (bigint: string) => `CREATE TABLE ${PACE_TABLE} (queue TEXT PRIMARY KEY, next_at ${bigint} NOT NULL);`;

const migrations: Migration[] = [
  { id: '001_kept', sql: { sqlite: keptTable('BLOB', 'INTEGER'), postgres: keptTable('BYTEA', 'BIGINT') } },
  { id: '002_pace', sql: { sqlite: paceTable('INTEGER'), postgres: paceTable('BIGINT') } },
];

interface Row {
  key: string;
  service: string;
  request: string;
  status: number | string;
  content_type: string | null;
  headers: string;
  body: Buffer | Uint8Array;
  upstream: string;
  fetched_at: string;
}

const COLUMNS = 'key, service, request, status, content_type, headers, body, upstream, fetched_at';

function fromRow(r: Row): KeptAnswer {
  return {
    key: r.key,
    service: r.service,
    request: r.request,
    status: Number(r.status),
    contentType: r.content_type,
    headers: JSON.parse(r.headers) as Record<string, string>,
    body: Buffer.isBuffer(r.body) ? r.body : Buffer.from(r.body),
    upstream: r.upstream,
    fetchedAt: r.fetched_at,
  };
}

const ready = new WeakMap<Db, Promise<unknown>>();

export class KeptStore {
  private constructor(private readonly db: Db) {}

  /** The store of a database, its table made on first use. */
  static async open(db: Db): Promise<KeptStore> {
    let p = ready.get(db);
    if (!p) {
      p = migrate(db, 'pullthrough', migrations);
      ready.set(db, p);
      p.catch(() => ready.delete(db));
    }
    await p;
    return new KeptStore(db);
  }

  async get(key: string): Promise<KeptAnswer | undefined> {
    const r = await this.db.one<Row>(`SELECT ${COLUMNS} FROM bm_pullthrough WHERE key = ?`, [key], { hot: true });
    return r && fromRow(r);
  }

  /** Whether any answer of the service is kept. */
  async has(service: string): Promise<boolean> {
    return (await this.db.one<{ x: number }>('SELECT 1 AS x FROM bm_pullthrough WHERE service = ? LIMIT 1', [service])) !== undefined;
  }

  /** Keeps an answer, replacing one kept before for the same request. */
  async put(a: KeptAnswer): Promise<void> {
    await this.db.run(
      `INSERT INTO bm_pullthrough (${COLUMNS}, size) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET service = excluded.service, request = excluded.request, status = excluded.status,
         content_type = excluded.content_type, headers = excluded.headers, body = excluded.body, upstream = excluded.upstream,
         fetched_at = excluded.fetched_at, size = excluded.size`,
      [a.key, a.service, a.request, a.status, a.contentType, JSON.stringify(a.headers), a.body, a.upstream, a.fetchedAt, a.body.length],
    );
  }

  /** Drops the kept answers of one service (or of all); resolves to how many. */
  clear(service?: string): Promise<number> {
    return service === undefined ? this.db.run('DELETE FROM bm_pullthrough') : this.db.run('DELETE FROM bm_pullthrough WHERE service = ?', [service]);
  }

  async summary(service?: string): Promise<KeptSummary[]> {
    const where = service === undefined ? '' : 'WHERE service = ?';
    const rows = await this.db.query<{ service: string; n: number | string; bytes: number | string | null; oldest: string | null; newest: string | null }>(
      `SELECT service, COUNT(*) AS n, SUM(size) AS bytes, MIN(fetched_at) AS oldest, MAX(fetched_at) AS newest FROM bm_pullthrough ${where} GROUP BY service ORDER BY service`,
      service === undefined ? [] : [service],
    );
    return rows.map((r) => ({ service: r.service, count: Number(r.n), bytes: Number(r.bytes ?? 0), oldest: r.oldest, newest: r.newest }));
  }

  /** Every kept answer (of one service), in pages by key: an export never holds them all at once. */
  async *all(service?: string, page = 200): AsyncGenerator<KeptAnswer> {
    let after = '';
    for (;;) {
      const rows = await this.db.query<Row>(
        `SELECT ${COLUMNS} FROM bm_pullthrough WHERE key > ? ${service === undefined ? '' : 'AND service = ?'} ORDER BY key LIMIT ${page}`,
        service === undefined ? [after] : [after, service],
      );
      for (const r of rows) yield fromRow(r);
      const last = rows[rows.length - 1];
      if (!last || rows.length < page) return;
      after = last.key;
    }
  }
}
