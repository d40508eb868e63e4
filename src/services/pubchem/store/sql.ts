/** Small SQL helpers shared by the PubChem stores. */
import type { Db, SqlValue } from '../../../core/store/db.js';
import { ident } from '../../../core/store/db.js';

export function types(db: Db): { blob: string; real: string; bigint: string } {
  return db.dialect === 'sqlite' ? { blob: 'BLOB', real: 'REAL', bigint: 'INTEGER' } : { blob: 'BYTEA', real: 'DOUBLE PRECISION', bigint: 'BIGINT' };
}

/** Rows whose integer key is in `ids`, fetched in slices so a statement never gets too many parameters. */
export async function byIds<T>(db: Db, sql: (marks: string) => string, ids: readonly number[], slice = 500): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += slice) {
    const part = ids.slice(i, i + slice);
    if (!part.length) continue;
    out.push(...(await db.query<T>(sql(part.map(() => '?').join(', ')), part as SqlValue[])));
  }
  return out;
}

/**
 * Keys of `ids` already present in `table.column` (to report duplicates within one load). Where the
 * column holds each key once, each run of close ids (a file's consecutive CIDs; a transaction holds
 * batches of two files) is one range read of its index instead of a list of 500 parameters: the
 * lists took 2.3 s of a million-compound load's 47 s. Rows of a range not asked for are dropped.
 */
export async function existing(db: Db, table: string, column: string, ids: readonly number[], unique = false): Promise<Set<number>> {
  const found = new Set<number>();
  const ranged = unique && ids.length > 1;
  // Ids in no run long enough for a range: asked for as lists.
  const loose: number[] = [];
  if (ranged) {
    const sorted = Float64Array.from(ids).sort();
    const col = ident(column);
    const sql = `SELECT ${col} AS k FROM ${ident(table)} WHERE ${col} BETWEEN ? AND ?`;
    for (let i = 0; i < sorted.length;) {
      let j = i + 1;
      while (j < sorted.length && (sorted[j] as number) - (sorted[j - 1] as number) <= 2) j++;
      if (j - i >= 8) {
        const asked = new Set(sorted.subarray(i, j));
        for (const r of await db.query<{ k: number }>(sql, [sorted[i] as number, sorted[j - 1] as number])) if (asked.has(Number(r.k))) found.add(Number(r.k));
      } else for (let k = i; k < j; k++) loose.push(sorted[k] as number);
      i = j;
    }
  }
  const rows = await byIds<{ k: number }>(db, (m) => `SELECT DISTINCT ${ident(column)} AS k FROM ${ident(table)} WHERE ${ident(column)} IN (${m})`, ranged ? loose : ids);
  for (const r of rows) found.add(Number(r.k));
  return found;
}

export async function countOf(db: Db, sql: string): Promise<number> {
  const r = await db.one<{ n: number }>(sql);
  return Number(r?.n ?? 0);
}

/** A BLOB as a Buffer on both drivers. */
export function bytes(v: unknown): Buffer {
  if (Buffer.isBuffer(v)) return v;
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  return Buffer.alloc(0);
}
