/**
 * The substances dataset: each SID's record JSON and SD text as loaded, its names, and the CIDs its
 * structure standardized to (PUBCHEM_CID_ASSOCIATIONS).
 */
import type { TableSet } from '../../../core/ingest/dataset.js';
import type { Sourced } from '../../../core/ingest/load.js';
import type { Db, SqlValue } from '../../../core/store/db.js';
import { ident } from '../../../core/store/db.js';
import { byIds, countOf, existing, types } from './sql.js';

export const SUBSTANCE_PREFIX = 'pcs';
export const SUBSTANCE_TABLES = ['substances', 'names', 'cids'];

export interface SubstanceItem {
  sid: number;
  source: string;
  sourceId: string;
  names: string[];
  /** [cid, type]: 1 standardized, 2 component, ... */
  cids: [number, number][];
  record: string;
  sdf: string;
}

function tables(t: TableSet) {
  return { substances: t.name('substances'), names: t.name('names'), cids: t.name('cids') };
}

export async function createSubstanceTables(db: Db, t: TableSet): Promise<void> {
  const n = tables(t);
  const ty = types(db);
  await db.exec(`
    CREATE TABLE ${ident(n.substances)} (sid ${ty.bigint} PRIMARY KEY, source TEXT NOT NULL, source_id TEXT NOT NULL, record TEXT NOT NULL, sdf TEXT NOT NULL);
    CREATE TABLE ${ident(n.names)} (name TEXT NOT NULL, sid ${ty.bigint} NOT NULL, rank INTEGER NOT NULL);
    CREATE TABLE ${ident(n.cids)} (sid ${ty.bigint} NOT NULL, cid INTEGER NOT NULL, type INTEGER NOT NULL);
  `);
}

export async function writeSubstances(tx: Db, t: TableSet, batch: readonly Sourced<SubstanceItem>[]): Promise<number[]> {
  const n = tables(t);
  const seen = await existing(
    tx,
    n.substances,
    'sid',
    batch.map((b) => b.value.sid),
  );
  const dupes: number[] = [];
  const subs: SqlValue[][] = [];
  const names: SqlValue[][] = [];
  const cids: SqlValue[][] = [];
  batch.forEach((b, i) => {
    const s = b.value;
    if (seen.has(s.sid)) {
      dupes.push(i);
      return;
    }
    seen.add(s.sid);
    subs.push([s.sid, s.source, s.sourceId, s.record, s.sdf]);
    s.names.forEach((name, rank) => names.push([name.trim().toLowerCase(), s.sid, rank]));
    for (const [cid, type] of s.cids) cids.push([s.sid, cid, type]);
  });
  await tx.insertMany(n.substances, ['sid', 'source', 'source_id', 'record', 'sdf'], subs);
  await tx.insertMany(n.names, ['name', 'sid', 'rank'], names);
  await tx.insertMany(n.cids, ['sid', 'cid', 'type'], cids);
  return dupes;
}

export async function finishSubstances(db: Db, t: TableSet): Promise<void> {
  const n = tables(t);
  await db.exec(`CREATE INDEX ${ident(n.names + '_name')} ON ${ident(n.names)} (name, rank, sid)`);
  await db.exec(`CREATE INDEX ${ident(n.substances + '_src')} ON ${ident(n.substances)} (source, source_id)`);
  await db.exec(`CREATE INDEX ${ident(n.cids + '_sid')} ON ${ident(n.cids)} (sid, type, cid)`);
  await db.exec(`CREATE INDEX ${ident(n.cids + '_cid')} ON ${ident(n.cids)} (cid, type, sid)`);
  for (const table of Object.values(n)) await db.exec(`ANALYZE ${ident(table)}`);
}

export async function countSubstances(db: Db, t: TableSet): Promise<number> {
  return countOf(db, `SELECT COUNT(*) AS n FROM ${ident(tables(t).substances)}`);
}

export class SubstanceStore {
  private readonly n: ReturnType<typeof tables>;
  constructor(
    private readonly db: Db,
    t: TableSet,
  ) {
    this.n = tables(t);
  }

  async rows(sids: readonly number[]): Promise<Map<number, { record: string; sdf: string }>> {
    const rows = await byIds<{ sid: number; record: string; sdf: string }>(this.db, (m) => `SELECT sid, record, sdf FROM ${ident(this.n.substances)} WHERE sid IN (${m})`, sids);
    return new Map(rows.map((r) => [Number(r.sid), r]));
  }

  async byName(name: string): Promise<number[]> {
    const rows = await this.db.query<{ sid: number }>(`SELECT sid, MIN(rank) AS r FROM ${ident(this.n.names)} WHERE name = ? GROUP BY sid ORDER BY r, sid`, [name.trim().toLowerCase()]);
    return rows.map((r) => Number(r.sid));
  }

  async bySource(source: string, sourceId: string): Promise<number[]> {
    const rows = await this.db.query<{ sid: number }>(`SELECT sid FROM ${ident(this.n.substances)} WHERE source = ? AND source_id = ? ORDER BY sid`, [source, sourceId]);
    return rows.map((r) => Number(r.sid));
  }

  /** The depositors of the loaded substances. */
  async sources(): Promise<string[]> {
    const rows = await this.db.query<{ source: string }>(`SELECT DISTINCT source FROM ${ident(this.n.substances)}`);
    return rows.map((r) => r.source);
  }

  async synonyms(sids: readonly number[]): Promise<Map<number, string[]>> {
    const rows = await this.rows(sids);
    const out = new Map<number, string[]>();
    for (const [sid, r] of rows) out.set(sid, ((JSON.parse(r.record) as { synonyms?: string[] }).synonyms ?? []).slice());
    return out;
  }

  async cidsOf(sid: number, typeFilter: number[] | undefined): Promise<number[]> {
    const where = typeFilter ? ` AND type IN (${typeFilter.map(() => '?').join(', ')})` : '';
    const rows = await this.db.query<{ cid: number }>(`SELECT cid FROM ${ident(this.n.cids)} WHERE sid = ?${where} ORDER BY type, cid`, [sid, ...(typeFilter ?? [])]);
    return rows.map((r) => Number(r.cid));
  }

  async sidsOf(cid: number, typeFilter: number[] | undefined): Promise<number[]> {
    const where = typeFilter ? ` AND type IN (${typeFilter.map(() => '?').join(', ')})` : '';
    const rows = await this.db.query<{ sid: number }>(`SELECT sid FROM ${ident(this.n.cids)} WHERE cid = ?${where} ORDER BY sid`, [cid, ...(typeFilter ?? [])]);
    return rows.map((r) => Number(r.sid));
  }

  async known(sids: readonly number[]): Promise<Set<number>> {
    return existing(this.db, this.n.substances, 'sid', sids);
  }
}
