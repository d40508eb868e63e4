/**
 * The conformers dataset (PubChem's Compound_3D files), one table set per load: each CID's 3D
 * property values, the atoms, bonds and coordinates of its 3D record, and its SD text.
 */
import type { TableSet } from '../../../core/ingest/dataset.js';
import type { Sourced } from '../../../core/ingest/load.js';
import type { Db, SqlValue } from '../../../core/store/db.js';
import { ident } from '../../../core/store/db.js';
import type { Conformer } from '../chem/conformer3d.js';
import { byIds, countOf, existing } from './sql.js';

export const CONFORMER_PREFIX = 'pc3';
export const CONFORMER_TABLES = ['conformers'];

const table = (t: TableSet) => t.name('conformers');

export async function createConformerTables(db: Db, t: TableSet): Promise<void> {
  await db.exec(`CREATE TABLE ${ident(table(t))} (cid INTEGER PRIMARY KEY, conformer_id TEXT, props TEXT NOT NULL, parts TEXT NOT NULL, sdf TEXT NOT NULL)`);
}

export async function writeConformers(tx: Db, t: TableSet, batch: readonly Sourced<Conformer>[]): Promise<number[]> {
  // One conformer per compound, as in PubChem's 01_conf_per_cmpd files: a second one for a CID is a duplicate.
  const seen = await existing(
    tx,
    table(t),
    'cid',
    batch.map((b) => b.value.cid),
  );
  const dupes: number[] = [];
  const rows: SqlValue[][] = [];
  batch.forEach((b, i) => {
    const c = b.value;
    if (seen.has(c.cid)) {
      dupes.push(i);
      return;
    }
    seen.add(c.cid);
    rows.push([c.cid, c.conformerId ?? null, JSON.stringify(c.props), c.parts, c.sdf]);
  });
  await tx.insertMany(table(t), ['cid', 'conformer_id', 'props', 'parts', 'sdf'], rows);
  return dupes;
}

export async function finishConformers(db: Db, t: TableSet): Promise<void> {
  await db.exec(`CREATE INDEX ${ident(table(t) + '_id')} ON ${ident(table(t))} (conformer_id)`);
  await db.exec(`ANALYZE ${ident(table(t))}`);
}

export async function countConformers(db: Db, t: TableSet): Promise<number> {
  return countOf(db, `SELECT COUNT(*) AS n FROM ${ident(table(t))}`);
}

interface Row {
  cid: number;
  conformer_id: string | null;
  props: string;
  parts: string;
  sdf: string;
}

export class ConformerStore {
  private readonly name: string;
  constructor(
    private readonly db: Db,
    t: TableSet,
  ) {
    this.name = table(t);
  }

  /** The loaded conformers of these CIDs. */
  async byCids(cids: readonly number[]): Promise<Map<number, Conformer>> {
    const rows = await byIds<Row>(this.db, (m) => `SELECT cid, conformer_id, props, parts, sdf FROM ${ident(this.name)} WHERE cid IN (${m})`, cids);
    return new Map(
      rows.map((r) => [Number(r.cid), { cid: Number(r.cid), conformerId: r.conformer_id ?? undefined, props: JSON.parse(r.props) as Conformer['props'], parts: r.parts, sdf: r.sdf, computed: false }]),
    );
  }

  /** The CID of a conformer id (16 hex digits), if loaded. */
  async cidOf(conformerId: string): Promise<number | undefined> {
    const r = await this.db.one<{ cid: number }>(`SELECT cid FROM ${ident(this.name)} WHERE conformer_id = ?`, [conformerId.toUpperCase()]);
    return r ? Number(r.cid) : undefined;
  }
}
