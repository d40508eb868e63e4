/**
 * The compounds dataset, one table set per load: compounds (lookup columns, property values, full
 * record and SD text of each CID), structures (PubChem's substructure keys with their count, the
 * pattern fingerprint and the binary molecule; the keys and fingerprints are read whole into the
 * search index), titles, synonyms (each CID's list in PubChem's order), names (every synonym
 * and title, lower-cased, for name lookup), CID-SID pairs and PUG View annotation records.
 */
import type { TableSet } from '../../../core/ingest/dataset.js';
import type { Sourced } from '../../../core/ingest/load.js';
import type { Db, SqlValue } from '../../../core/store/db.js';
import { ident } from '../../../core/store/db.js';
import { columnsOf } from '../../../core/store/tables.js';
import type { BuiltCompound } from '../chem/compound.js';
import { byIds, countOf, existing, types } from './sql.js';

export const COMPOUND_PREFIX = 'pcc';
export const COMPOUND_TABLES = ['compounds', 'structures', 'titles', 'synonyms', 'names', 'cid_sids', 'annotations'];

export type CompoundItem =
  | { kind: 'compound'; c: BuiltCompound }
  | { kind: 'title'; cid: number; title: string }
  | { kind: 'synonyms'; cid: number; names: string[] }
  | { kind: 'sids'; cid: number; sids: [number, number][] }
  | { kind: 'annotation'; cid: number; doc: string };

interface Names {
  compounds: string;
  structures: string;
  titles: string;
  synonyms: string;
  names: string;
  cidSids: string;
  annotations: string;
}

export function compoundTables(t: TableSet): Names {
  return {
    compounds: t.name('compounds'),
    structures: t.name('structures'),
    titles: t.name('titles'),
    synonyms: t.name('synonyms'),
    names: t.name('names'),
    cidSids: t.name('cid_sids'),
    annotations: t.name('annotations'),
  };
}

export async function createCompoundTables(db: Db, t: TableSet): Promise<void> {
  const n = compoundTables(t);
  const ty = types(db);
  await db.exec(`
    CREATE TABLE ${ident(n.compounds)} (
      cid INTEGER PRIMARY KEY, inchikey TEXT NOT NULL, ikey14 TEXT NOT NULL, formula TEXT NOT NULL,
      mw ${ty.real}, exact_mass ${ty.real}, mono_mass ${ty.real},
      props TEXT NOT NULL, computed TEXT NOT NULL, record TEXT NOT NULL, sdf TEXT NOT NULL
    );
    CREATE TABLE ${ident(n.structures)} (cid INTEGER PRIMARY KEY, bits INTEGER, subskeys ${ty.blob}, pattern ${ty.blob} NOT NULL, pickle ${ty.blob} NOT NULL);
    CREATE TABLE ${ident(n.titles)} (cid INTEGER PRIMARY KEY, title TEXT NOT NULL);
    CREATE TABLE ${ident(n.synonyms)} (cid INTEGER PRIMARY KEY, list TEXT NOT NULL);
    CREATE TABLE ${ident(n.names)} (name TEXT NOT NULL, cid INTEGER NOT NULL, rank INTEGER NOT NULL);
    CREATE TABLE ${ident(n.cidSids)} (cid INTEGER NOT NULL, sid ${ty.bigint} NOT NULL, type INTEGER NOT NULL);
    CREATE TABLE ${ident(n.annotations)} (cid INTEGER PRIMARY KEY, doc TEXT NOT NULL);
  `);
  // Duplicate CID groups of CID-SID are found through this index while loading.
  await db.exec(`CREATE INDEX ${ident(n.cidSids + '_cid')} ON ${ident(n.cidSids)} (cid, type, sid)`);
}

const normal = (name: string) => name.trim().toLowerCase();

export async function writeCompounds(tx: Db, t: TableSet, batch: readonly Sourced<CompoundItem>[]): Promise<number[]> {
  const n = compoundTables(t);
  const ids = (kind: CompoundItem['kind']) =>
    batch.flatMap((b) => (b.value.kind === kind ? [b.value.kind === 'compound' ? b.value.c.cid : b.value.cid] : []));
  const seen = {
    compound: await existing(tx, n.compounds, 'cid', ids('compound')),
    title: await existing(tx, n.titles, 'cid', ids('title')),
    synonyms: await existing(tx, n.synonyms, 'cid', ids('synonyms')),
    sids: await existing(tx, n.cidSids, 'cid', ids('sids')),
    annotation: await existing(tx, n.annotations, 'cid', ids('annotation')),
  };
  const dupes: number[] = [];
  const compounds: SqlValue[][] = [];
  const structures: SqlValue[][] = [];
  const titles: SqlValue[][] = [];
  const synonyms: SqlValue[][] = [];
  const names: SqlValue[][] = [];
  const sids: SqlValue[][] = [];
  const annotations: SqlValue[][] = [];
  batch.forEach((b, i) => {
    const v = b.value;
    const cid = v.kind === 'compound' ? v.c.cid : v.cid;
    const set = seen[v.kind];
    if (set.has(cid)) {
      dupes.push(i);
      return;
    }
    set.add(cid);
    switch (v.kind) {
      case 'compound': {
        const c = v.c;
        compounds.push([c.cid, c.inchikey, c.inchikey.slice(0, 14), c.formula, c.mw, c.exactMass, c.monoisotopicMass, JSON.stringify(c.props), c.computed.join(','), c.record, c.sdf]);
        structures.push([c.cid, c.bits, c.keys, c.pattern, c.pickle]);
        break;
      }
      case 'title':
        titles.push([cid, v.title]);
        names.push([normal(v.title), cid, 0]);
        break;
      case 'synonyms':
        synonyms.push([cid, JSON.stringify(v.names)]);
        v.names.forEach((s, rank) => names.push([normal(s), cid, rank]));
        break;
      case 'sids':
        for (const [sid, type] of v.sids) sids.push([cid, sid, type]);
        break;
      case 'annotation':
        annotations.push([cid, v.doc]);
        break;
    }
  });
  await tx.insertMany(n.compounds, ['cid', 'inchikey', 'ikey14', 'formula', 'mw', 'exact_mass', 'mono_mass', 'props', 'computed', 'record', 'sdf'], compounds);
  await tx.insertMany(n.structures, ['cid', 'bits', 'subskeys', 'pattern', 'pickle'], structures);
  await tx.insertMany(n.titles, ['cid', 'title'], titles);
  await tx.insertMany(n.synonyms, ['cid', 'list'], synonyms);
  await tx.insertMany(n.names, ['name', 'cid', 'rank'], names);
  await tx.insertMany(n.cidSids, ['cid', 'sid', 'type'], sids);
  await tx.insertMany(n.annotations, ['cid', 'doc'], annotations);
  return dupes;
}

/**
 * `names` holds the lower-cased titles and synonyms together: when an update replaces one of the two
 * for some CIDs, their names go, and those of the other are written again from its table.
 */
export async function renameCompounds(tx: Db, t: TableSet, part: 'title' | 'synonyms', cids: readonly number[]): Promise<void> {
  const n = compoundTables(t);
  const rows: SqlValue[][] = [];
  for (let i = 0; i < cids.length; i += 500) {
    const chunk = cids.slice(i, i + 500);
    const marks = chunk.map(() => '?').join(', ');
    await tx.run(`DELETE FROM ${ident(n.names)} WHERE cid IN (${marks})`, chunk);
    if (part === 'synonyms') {
      const titles = await tx.query<{ cid: number; title: string }>(`SELECT cid, title FROM ${ident(n.titles)} WHERE cid IN (${marks})`, chunk);
      for (const r of titles) rows.push([normal(r.title), Number(r.cid), 0]);
    } else {
      const lists = await tx.query<{ cid: number; list: string }>(`SELECT cid, list FROM ${ident(n.synonyms)} WHERE cid IN (${marks})`, chunk);
      for (const r of lists) (JSON.parse(r.list) as string[]).forEach((name, rank) => rows.push([normal(name), Number(r.cid), rank]));
    }
  }
  await tx.insertMany(n.names, ['name', 'cid', 'rank'], rows);
}

export async function finishCompounds(db: Db, t: TableSet): Promise<void> {
  const n = compoundTables(t);
  const c = ident(n.compounds);
  const idx = (suffix: string) => ident(`${n.compounds}_${suffix}`);
  for (const sql of [
    `CREATE INDEX ${idx('ikey')} ON ${c} (inchikey)`,
    `CREATE INDEX ${idx('ikey14')} ON ${c} (ikey14)`,
    `CREATE INDEX ${idx('formula')} ON ${c} (formula)`,
    `CREATE INDEX ${idx('mw')} ON ${c} (mw)`,
    `CREATE INDEX ${idx('exact')} ON ${c} (exact_mass)`,
    `CREATE INDEX ${idx('mono')} ON ${c} (mono_mass)`,
    `CREATE INDEX ${ident(n.names + '_name')} ON ${ident(n.names)} (name, rank, cid)`,
    `CREATE INDEX ${ident(n.cidSids + '_sid')} ON ${ident(n.cidSids)} (sid)`,
    // The search index reads key sets in order of their count of keys.
    `CREATE INDEX ${ident(n.structures + '_bits')} ON ${ident(n.structures)} (bits, cid)`,
  ]) {
    await db.exec(sql);
  }
  for (const table of Object.values(n)) await db.exec(`ANALYZE ${ident(table)}`);
}

export async function countCompoundItems(db: Db, t: TableSet): Promise<number> {
  const n = compoundTables(t);
  let total = 0;
  for (const table of [n.compounds, n.titles, n.synonyms, n.annotations]) total += await countOf(db, `SELECT COUNT(*) AS n FROM ${ident(table)}`);
  total += await countOf(db, `SELECT COUNT(DISTINCT cid) AS n FROM ${ident(n.cidSids)}`);
  return total;
}

/** A structure as the search index reads it; `bits` and `keys` are null for a compound without keys. */
export interface StructureRow {
  cid: number;
  bits: number | null;
  keys: unknown;
  pattern: unknown;
}

export interface CompoundRow {
  cid: number;
  props: string;
  computed: string;
  record: string;
  sdf: string;
}

/** The lookups of one generation, with their SQL built once. */
export class CompoundStore {
  private readonly n: Names;
  constructor(
    private readonly db: Db,
    t: TableSet,
  ) {
    this.n = compoundTables(t);
  }

  async rows(cids: readonly number[], cols: readonly ('props' | 'computed' | 'record' | 'sdf')[]): Promise<Map<number, CompoundRow>> {
    const rows = await byIds<CompoundRow>(this.db, (m) => `SELECT cid, ${cols.join(', ')} FROM ${ident(this.n.compounds)} WHERE cid IN (${m})`, cids);
    return new Map(rows.map((r) => [Number(r.cid), r]));
  }

  async known(cids: readonly number[]): Promise<Set<number>> {
    return existing(this.db, this.n.compounds, 'cid', cids);
  }

  async byInchikey(key: string): Promise<number[]> {
    const rows = await this.db.query<{ cid: number }>(`SELECT cid FROM ${ident(this.n.compounds)} WHERE inchikey = ? ORDER BY cid`, [key], { hot: true });
    return rows.map((r) => Number(r.cid));
  }

  async byConnectivity(key14: string): Promise<number[]> {
    const rows = await this.db.query<{ cid: number }>(`SELECT cid FROM ${ident(this.n.compounds)} WHERE ikey14 = ? ORDER BY cid`, [key14]);
    return rows.map((r) => Number(r.cid));
  }

  async byName(name: string): Promise<number[]> {
    const rows = await this.db.query<{ cid: number }>(
      `SELECT cid, MIN(rank) AS r FROM ${ident(this.n.names)} WHERE name = ? GROUP BY cid ORDER BY r, cid`,
      [normal(name)],
      { hot: true },
    );
    return rows.map((r) => Number(r.cid));
  }

  async byFormula(formula: string): Promise<number[]> {
    const rows = await this.db.query<{ cid: number }>(`SELECT cid FROM ${ident(this.n.compounds)} WHERE formula = ? ORDER BY cid`, [formula]);
    return rows.map((r) => Number(r.cid));
  }

  async byMass(column: 'mw' | 'exact_mass' | 'mono_mass', lo: number, hi: number): Promise<number[]> {
    const rows = await this.db.query<{ cid: number }>(
      `SELECT cid FROM ${ident(this.n.compounds)} WHERE ${column} >= ? AND ${column} <= ? ORDER BY cid`,
      [lo, hi],
    );
    return rows.map((r) => Number(r.cid));
  }

  async titles(cids: readonly number[]): Promise<Map<number, string>> {
    const rows = await byIds<{ cid: number; title: string }>(this.db, (m) => `SELECT cid, title FROM ${ident(this.n.titles)} WHERE cid IN (${m})`, cids);
    return new Map(rows.map((r) => [Number(r.cid), r.title]));
  }

  async synonyms(cids: readonly number[]): Promise<Map<number, string[]>> {
    const rows = await byIds<{ cid: number; list: string }>(this.db, (m) => `SELECT cid, list FROM ${ident(this.n.synonyms)} WHERE cid IN (${m})`, cids);
    return new Map(rows.map((r) => [Number(r.cid), JSON.parse(r.list) as string[]]));
  }

  /** SIDs of a CID from CID-SID; `types` selects the relationship (1 standardized, 2 component...). */
  async sids(cid: number, typeFilter: number[] | undefined): Promise<number[]> {
    const where = typeFilter ? ` AND type IN (${typeFilter.map(() => '?').join(', ')})` : '';
    const rows = await this.db.query<{ sid: number }>(
      `SELECT sid FROM ${ident(this.n.cidSids)} WHERE cid = ?${where} ORDER BY sid`,
      [cid, ...(typeFilter ?? [])],
    );
    return rows.map((r) => Number(r.sid));
  }

  async cidsOfSid(sid: number): Promise<number[]> {
    const rows = await this.db.query<{ cid: number }>(`SELECT cid FROM ${ident(this.n.cidSids)} WHERE sid = ? ORDER BY type, cid`, [sid]);
    return rows.map((r) => Number(r.cid));
  }

  async annotation(cid: number): Promise<string | undefined> {
    const r = await this.db.one<{ doc: string }>(`SELECT doc FROM ${ident(this.n.annotations)} WHERE cid = ?`, [cid]);
    return r?.doc;
  }

  /** Whether the generation keeps substructure keys (those loaded by an earlier version of biomirror do not). */
  async keepsKeys(): Promise<boolean> {
    return (await columnsOf(this.db, this.n.structures)).includes('subskeys');
  }

  /**
   * Every structure's keys and pattern fingerprint for the search index: those with keys in order
   * of their count of keys, then CID; then those without, by CID. A generation loaded by an earlier
   * version of biomirror has no `subskeys` column: all its structures come as keyless.
   */
  async *structures(batch = 20_000): AsyncGenerator<StructureRow[]> {
    const table = ident(this.n.structures);
    const keyed = await this.keepsKeys();
    if (keyed) {
      let bits = -1;
      let cid = -1;
      while (true) {
        const rows = await this.db.query<StructureRow>(
          `SELECT cid, bits, subskeys AS keys, pattern FROM ${table} WHERE bits > ? OR (bits = ? AND cid > ?) ORDER BY bits, cid LIMIT ?`,
          [bits, bits, cid, batch],
        );
        if (!rows.length) break;
        yield rows;
        const last = rows[rows.length - 1] as StructureRow;
        bits = Number(last.bits);
        cid = Number(last.cid);
      }
    }
    const missing = keyed ? 'bits IS NULL AND ' : '';
    let cid = -1;
    while (true) {
      const rows = await this.db.query<StructureRow>(
        `SELECT cid, NULL AS bits, NULL AS keys, pattern FROM ${table} WHERE ${missing}cid > ? ORDER BY cid LIMIT ?`,
        [cid, batch],
      );
      if (!rows.length) return;
      yield rows;
      cid = Number((rows[rows.length - 1] as StructureRow).cid);
    }
  }

  async pickles(cids: readonly number[]): Promise<Map<number, unknown>> {
    const rows = await byIds<{ cid: number; pickle: unknown }>(this.db, (m) => `SELECT cid, pickle FROM ${ident(this.n.structures)} WHERE cid IN (${m})`, cids);
    return new Map(rows.map((r) => [Number(r.cid), r.pickle]));
  }
}
