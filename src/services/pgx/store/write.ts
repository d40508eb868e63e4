/** Writes records as read into `raw`; a record whose kind and key were already loaded is refused. */
import type { TableSet } from '../../../core/ingest/dataset.js';
import type { Sourced } from '../../../core/ingest/load.js';
import type { Db, SqlValue } from '../../../core/store/db.js';
import type { Kind, KindRows, PgxRecord } from '../records.js';
import { namesOf } from './schema.js';

export async function writeBatch(tx: Db, t: TableSet, batch: readonly Sourced<PgxRecord>[]): Promise<number[]> {
  const n = namesOf(t);
  const byKind = new Map<string, string[]>();
  for (const b of batch) {
    const keys = byKind.get(b.value.kind) ?? [];
    keys.push(b.value.key);
    byKind.set(b.value.kind, keys);
  }
  const seen = new Set<string>();
  for (const [kind, keys] of byKind) {
    for (let i = 0; i < keys.length; i += 500) {
      const part = keys.slice(i, i + 500);
      const rows = await tx.query<{ k: string }>(`SELECT k FROM ${n.raw} WHERE kind = ? AND k IN (${part.map(() => '?').join(', ')})`, [kind, ...part]);
      for (const r of rows) seen.add(`${kind}\n${r.k}`);
    }
  }
  const dupes: number[] = [];
  const rows: SqlValue[][] = [];
  batch.forEach((b, i) => {
    const id = `${b.value.kind}\n${b.value.key}`;
    if (seen.has(id)) {
      dupes.push(i);
      return;
    }
    seen.add(id);
    rows.push([b.value.kind, b.value.key, JSON.stringify(b.value.row)]);
  });
  await tx.insertMany(t.name('raw'), ['kind', 'k', 'v'], rows);
  return dupes;
}

/**
 * The records of one kind, in key order. Sorted here by code point: PostgreSQL's collation would
 * order keys differently from SQLite, and derived lists must be the same on both.
 */
export async function rawRows<K extends Kind>(db: Db, t: TableSet, kind: K): Promise<KindRows[K][]> {
  const rows = await db.query<{ k: string; v: string }>(`SELECT k, v FROM ${namesOf(t).raw} WHERE kind = ?`, [kind]);
  rows.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  return rows.map((r) => JSON.parse(r.v) as KindRows[K]);
}

/**
 * The records of one kind in pages, in key order (code points on both databases: `raw.k` is
 * bytewise), so that a derivation holds one page at a time.
 */
export async function* rawPages<K extends Kind>(db: Db, t: TableSet, kind: K, size = 2000): AsyncGenerator<{ k: string; row: KindRows[K] }[]> {
  let after: string | undefined;
  for (;;) {
    const rows = await db.query<{ k: string; v: string }>(
      `SELECT k, v FROM ${namesOf(t).raw} WHERE kind = ?${after === undefined ? '' : ' AND k > ?'} ORDER BY k LIMIT ${size}`,
      after === undefined ? [kind] : [kind, after],
    );
    if (!rows.length) return;
    yield rows.map((r) => ({ k: r.k, row: JSON.parse(r.v) as KindRows[K] }));
    if (rows.length < size) return;
    after = (rows[rows.length - 1] as { k: string }).k;
  }
}

/** Every record of a kind, a page at a time. */
export async function* rawEach<K extends Kind>(db: Db, t: TableSet, kind: K): AsyncGenerator<KindRows[K]> {
  for await (const page of rawPages(db, t, kind)) for (const r of page) yield r.row;
}
