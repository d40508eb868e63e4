/**
 * The assays dataset: each AID's description (as PubChem's description JSON holds it) with its
 * name, type and source, and the concise bioactivity rows (bioactivities.tsv) that answer
 * `assaysummary`, `concise` and the AID/SID/CID cross-links.
 */
import type { TableSet } from '../../../core/ingest/dataset.js';
import type { Sourced } from '../../../core/ingest/load.js';
import type { Db, SqlValue } from '../../../core/store/db.js';
import { ident } from '../../../core/store/db.js';
import { byIds, countOf, existing, types } from './sql.js';

export const ASSAY_PREFIX = 'pca';
export const ASSAY_TABLES = ['assays', 'activities'];

export interface Activity {
  aid: number;
  sid: number | null;
  cid: number | null;
  outcome: string;
  name: string;
  qualifier: string;
  value: number | null;
  accession: string;
  geneId: string;
  pmid: string;
}

export type AssayItem = { kind: 'assay'; aid: number; name: string; type: string; source: string; descr: string } | { kind: 'activity'; a: Activity };

export interface AssayRow {
  aid: number;
  name: string;
  type: string;
  source: string;
  descr: string;
}

function tables(t: TableSet) {
  return { assays: t.name('assays'), activities: t.name('activities') };
}

export async function createAssayTables(db: Db, t: TableSet): Promise<void> {
  const n = tables(t);
  const ty = types(db);
  await db.exec(`
    CREATE TABLE ${ident(n.assays)} (aid INTEGER PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL, source TEXT NOT NULL, descr TEXT NOT NULL);
    CREATE TABLE ${ident(n.activities)} (
      aid INTEGER NOT NULL, sid ${ty.bigint}, cid INTEGER, outcome TEXT NOT NULL, name TEXT NOT NULL,
      qualifier TEXT NOT NULL, value ${ty.real}, accession TEXT NOT NULL, gene_id TEXT NOT NULL, pmid TEXT NOT NULL
    );
  `);
}

export async function writeAssays(tx: Db, t: TableSet, batch: readonly Sourced<AssayItem>[]): Promise<number[]> {
  const n = tables(t);
  const aids = batch.flatMap((b) => (b.value.kind === 'assay' ? [b.value.aid] : []));
  const seen = await existing(tx, n.assays, 'aid', aids);
  const dupes: number[] = [];
  const assays: SqlValue[][] = [];
  const acts: SqlValue[][] = [];
  batch.forEach((b, i) => {
    const v = b.value;
    if (v.kind === 'assay') {
      if (seen.has(v.aid)) {
        dupes.push(i);
        return;
      }
      seen.add(v.aid);
      assays.push([v.aid, v.name, v.type, v.source, v.descr]);
      return;
    }
    const a = v.a;
    acts.push([a.aid, a.sid, a.cid, a.outcome, a.name, a.qualifier, a.value, a.accession, a.geneId, a.pmid]);
  });
  await tx.insertMany(n.assays, ['aid', 'name', 'type', 'source', 'descr'], assays);
  await tx.insertMany(n.activities, ['aid', 'sid', 'cid', 'outcome', 'name', 'qualifier', 'value', 'accession', 'gene_id', 'pmid'], acts);
  return dupes;
}

export async function finishAssays(db: Db, t: TableSet): Promise<void> {
  const n = tables(t);
  const a = ident(n.activities);
  await db.exec(`CREATE INDEX ${ident(n.activities + '_cid')} ON ${a} (cid, aid)`);
  await db.exec(`CREATE INDEX ${ident(n.activities + '_sid')} ON ${a} (sid, aid)`);
  await db.exec(`CREATE INDEX ${ident(n.activities + '_aid')} ON ${a} (aid, sid)`);
  for (const table of Object.values(n)) await db.exec(`ANALYZE ${ident(table)}`);
}

export async function countAssayItems(db: Db, t: TableSet): Promise<number> {
  const n = tables(t);
  return (await countOf(db, `SELECT COUNT(*) AS n FROM ${ident(n.assays)}`)) + (await countOf(db, `SELECT COUNT(*) AS n FROM ${ident(n.activities)}`));
}

export interface ActivityRow {
  aid: number;
  sid: number | null;
  cid: number | null;
  outcome: string;
  name: string;
  qualifier: string;
  value: number | null;
  accession: string;
  gene_id: string;
  pmid: string;
}

const ACTIVITY_COLS = 'aid, sid, cid, outcome, name, qualifier, value, accession, gene_id, pmid';

export class AssayStore {
  private readonly n: ReturnType<typeof tables>;
  constructor(
    private readonly db: Db,
    t: TableSet,
  ) {
    this.n = tables(t);
  }

  async assays(aids: readonly number[]): Promise<Map<number, AssayRow>> {
    const rows = await byIds<AssayRow>(this.db, (m) => `SELECT aid, name, type, source, descr FROM ${ident(this.n.assays)} WHERE aid IN (${m})`, aids);
    return new Map(rows.map((r) => [Number(r.aid), r]));
  }

  async known(aids: readonly number[]): Promise<Set<number>> {
    return existing(this.db, this.n.assays, 'aid', aids);
  }

  /** The depositors of the loaded assays. */
  async sources(): Promise<string[]> {
    const rows = await this.db.query<{ source: string }>(`SELECT DISTINCT source FROM ${ident(this.n.assays)} WHERE source <> ''`);
    return rows.map((r) => r.source);
  }

  /** Activity rows of CIDs, SIDs or AIDs, in AID then SID order. */
  async activities(by: 'cid' | 'sid' | 'aid', ids: readonly number[]): Promise<ActivityRow[]> {
    const rows = await byIds<ActivityRow>(this.db, (m) => `SELECT ${ACTIVITY_COLS} FROM ${ident(this.n.activities)} WHERE ${by} IN (${m})`, ids);
    return rows
      .map((r) => ({ ...r, aid: Number(r.aid), sid: r.sid === null ? null : Number(r.sid), cid: r.cid === null ? null : Number(r.cid), value: r.value === null ? null : Number(r.value) }))
      .sort((x, y) => x.aid - y.aid || (x.sid ?? 0) - (y.sid ?? 0) || (x.cid ?? 0) - (y.cid ?? 0));
  }

  /** Distinct ids of one column linked to `id` through activity rows, optionally by outcome. */
  async linked(from: 'cid' | 'sid' | 'aid', id: number, to: 'cid' | 'sid' | 'aid', outcome: string | undefined): Promise<number[]> {
    const rows = await this.db.query<{ v: number }>(
      `SELECT DISTINCT ${to} AS v FROM ${ident(this.n.activities)} WHERE ${from} = ? AND ${to} IS NOT NULL${outcome ? ' AND outcome = ?' : ''} ORDER BY v`,
      outcome ? [id, outcome] : [id],
    );
    return rows.map((r) => Number(r.v));
  }
}
