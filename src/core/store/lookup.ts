/**
 * Reads of one value by key (a study by its id, a gene by its symbol), the hottest path of the
 * services. On SQLite such a read is a synchronous B-tree lookup and is done at once. On PostgreSQL
 * each is a round trip whose fixed cost (a message each way, a backend wake-up) dwarfs the read, so
 * lookups that arrive while others are in flight are gathered and answered by one
 * `WHERE key IN (...)` query: at low load a lookup goes out alone and at once; under load the
 * round trips, not the requests, are what is counted.
 */
import { ident, type Db, type SqlValue } from './db.js';

/** Round trips of one lookup kind in flight at once; more requests wait to join the next batch. */
const MAX_IN_FLIGHT = 2;
/** Keys in one query at most. */
const MAX_BATCH = 256;

type Key = string | number;

interface Waiter {
  key: Key;
  resolve: (v: string | undefined) => void;
  reject: (err: unknown) => void;
}

class Batcher {
  private queue: Waiter[] = [];
  private inFlight = 0;

  constructor(
    private readonly db: Db,
    private readonly table: string,
    private readonly keyColumn: string,
    private readonly valueColumn: string,
  ) {}

  get(key: Key): Promise<string | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ key, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.queue.length) {
      const batch = this.queue.splice(0, MAX_BATCH);
      this.inFlight++;
      this.run(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async run(batch: Waiter[]): Promise<void> {
    const keys = [...new Set(batch.map((w) => w.key))];
    const k = ident(this.keyColumn);
    const v = ident(this.valueColumn);
    try {
      let found: Map<Key, string>;
      if (keys.length === 1) {
        const r = await this.db.one<Record<string, unknown>>(`SELECT ${v} AS v FROM ${ident(this.table)} WHERE ${k} = ?`, keys as SqlValue[], { hot: true });
        found = new Map(r ? [[keys[0] as Key, r.v as string]] : []);
      } else {
        const rows = await this.db.query<Record<string, unknown>>(`SELECT ${k} AS k, ${v} AS v FROM ${ident(this.table)} WHERE ${k} IN (${keys.map(() => '?').join(', ')})`, keys as SqlValue[]);
        // Keys come back as the database types them; numbers may come back as strings (bigint).
        found = new Map(rows.map((r) => [typeof keys[0] === 'number' ? Number(r.k) : String(r.k), r.v as string]));
      }
      for (const w of batch) w.resolve(found.get(w.key));
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
}

const batchers = new WeakMap<Db, Map<string, Batcher>>();
const SQLITE_SQL = new Map<string, string>();

/**
 * The value column of the row whose key column equals `key`, or undefined. `table` must have at
 * most one row per key. Batchers are kept per database and table; a table of a generation that is
 * no longer served is simply not asked again.
 */
export function lookupOne(db: Db, table: string, keyColumn: string, valueColumn: string, key: Key): Promise<string | undefined> {
  if (db.dialect === 'sqlite') {
    // Built once per table: this runs on every request.
    const id = `${table}\n${keyColumn}\n${valueColumn}`;
    let sql = SQLITE_SQL.get(id);
    if (!sql) {
      if (SQLITE_SQL.size > 200) SQLITE_SQL.clear();
      SQLITE_SQL.set(id, (sql = `SELECT ${ident(valueColumn)} AS v FROM ${ident(table)} WHERE ${ident(keyColumn)} = ?`));
    }
    return db.one<{ v: string }>(sql, [key], { hot: true }).then((r) => r?.v);
  }
  let byTable = batchers.get(db);
  if (!byTable) batchers.set(db, (byTable = new Map()));
  const id = `${table}\n${keyColumn}\n${valueColumn}`;
  let b = byTable.get(id);
  if (!b) {
    // Old generations' batchers go once there are many: each holds nothing but its names.
    if (byTable.size > 200) byTable.clear();
    byTable.set(id, (b = new Batcher(db, table, keyColumn, valueColumn)));
  }
  return b.get(key);
}
