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

/** Keys of `ids` already present in `table.column` (to report duplicates within one load). */
export async function existing(db: Db, table: string, column: string, ids: readonly number[]): Promise<Set<number>> {
  const rows = await byIds<{ k: number }>(db, (m) => `SELECT DISTINCT ${ident(column)} AS k FROM ${ident(table)} WHERE ${ident(column)} IN (${m})`, ids);
  return new Set(rows.map((r) => Number(r.k)));
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
