/**
 * The compounds dataset, one table set per load: compounds (lookup columns, property values, full
 * record and SD text of each CID), structures (PubChem's substructure keys with their count; the
 * key file the searches scan is written from them, search/keys.ts), titles, synonyms (each CID's list in PubChem's order), names (every synonym
 * and title, lower-cased, for name lookup), CID-SID pairs and PUG View annotation records.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { TableSet } from '../../../core/ingest/dataset.js';
import { Generations } from '../../../core/store/generations.js';
import { keyFilePath, sweepKeyFiles } from '../search/keys.js';
import { writeKeysAlongside } from '../search/keys-thread.js';
import type { Sourced } from '../../../core/ingest/load.js';
import type { Db, SqlValue } from '../../../core/store/db.js';
import { ident } from '../../../core/store/db.js';
import { columnsOf } from '../../../core/store/tables.js';
import { storedProps, storedRecord, type BuiltCompound } from '../chem/compound.js';
import type { LoadedCompound } from '../ingest/sdf-prepare.js';
import { rdkit } from '../chem/rdkit.js';
import { byIds, bytes, countOf, existing, types } from './sql.js';
import { unpackTexts } from './sdf-blocks.js';

export const COMPOUND_PREFIX = 'pcc';
export const COMPOUND_TABLES = ['compounds', 'blocks', 'lookup', 'structures', 'titles', 'synonyms', 'names', 'cid_sids', 'annotations', 'keystamp'];

export type CompoundItem =
  | { kind: 'compound'; c: BuiltCompound | LoadedCompound }
  | { kind: 'title'; cid: number; title: string }
  | { kind: 'synonyms'; cid: number; names: string[] }
  | { kind: 'sids'; cid: number; sids: [number, number][] }
  | { kind: 'annotation'; cid: number; doc: string };

interface Names {
  compounds: string;
  /**
   * SD texts stored in compressed blocks (store/sdf-blocks.ts); a compound's row names its block and
   * place. Generations loaded before blocks keep every text in `compounds.sdf`.
   */
  blocks: string;
  /**
   * The columns compounds are looked up by, apart from their documents, so that building their
   * indexes reads a narrow table (generations loaded before it have them in `compounds`).
   */
  lookup: string;
  structures: string;
  titles: string;
  synonyms: string;
  names: string;
  cidSids: string;
  annotations: string;
  /** One random value per load: names the generation's key file (search/keys.ts) apart from any other database's. */
  keystamp: string;
}

export function compoundTables(t: TableSet): Names {
  return {
    compounds: t.name('compounds'),
    blocks: t.name('blocks'),
    lookup: t.name('lookup'),
    structures: t.name('structures'),
    titles: t.name('titles'),
    synonyms: t.name('synonyms'),
    names: t.name('names'),
    cidSids: t.name('cid_sids'),
    annotations: t.name('annotations'),
    keystamp: t.name('keystamp'),
  };
}

export async function createCompoundTables(db: Db, t: TableSet): Promise<void> {
  const n = compoundTables(t);
  const ty = types(db);
  await db.exec(`
    CREATE TABLE ${ident(n.compounds)} (cid INTEGER PRIMARY KEY, props TEXT NOT NULL, computed TEXT NOT NULL, record TEXT NOT NULL, sdf TEXT NOT NULL, block INTEGER, slot INTEGER, smiles TEXT);
    CREATE TABLE ${ident(n.blocks)} (id INTEGER PRIMARY KEY, data ${ty.blob} NOT NULL);
    CREATE TABLE ${ident(n.lookup)} (
      cid INTEGER PRIMARY KEY, inchikey TEXT NOT NULL, ikey14 TEXT NOT NULL, formula TEXT NOT NULL,
      mw ${ty.real}, exact_mass ${ty.real}, mono_mass ${ty.real}
    );
    CREATE TABLE ${ident(n.structures)} (cid INTEGER PRIMARY KEY, bits INTEGER, subskeys ${ty.blob});
    CREATE TABLE ${ident(n.titles)} (cid INTEGER PRIMARY KEY, title TEXT NOT NULL);
    CREATE TABLE ${ident(n.synonyms)} (cid INTEGER PRIMARY KEY, list TEXT NOT NULL);
    CREATE TABLE ${ident(n.names)} (name TEXT NOT NULL, cid INTEGER NOT NULL, rank INTEGER NOT NULL);
    CREATE TABLE ${ident(n.cidSids)} (cid INTEGER NOT NULL, sid ${ty.bigint} NOT NULL, type INTEGER NOT NULL);
    CREATE TABLE ${ident(n.annotations)} (cid INTEGER PRIMARY KEY, doc TEXT NOT NULL);
    CREATE TABLE ${ident(n.keystamp)} (stamp TEXT NOT NULL);
  `);
  await db.run(`INSERT INTO ${ident(n.keystamp)} (stamp) VALUES (?)`, [randomBytes(9).toString('base64url')]);
  // Duplicate CID groups of CID-SID are found through this index while loading.
  await db.exec(`CREATE INDEX ${ident(n.cidSids + '_cid')} ON ${ident(n.cidSids)} (cid, type, sid)`);
}

const normal = (name: string) => name.trim().toLowerCase();

export async function writeCompounds(tx: Db, t: TableSet, batch: readonly Sourced<CompoundItem>[]): Promise<number[]> {
  const n = compoundTables(t);
  const ids = (kind: CompoundItem['kind']) => batch.flatMap((b) => (b.value.kind === kind ? [b.value.kind === 'compound' ? b.value.c.cid : b.value.cid] : []));
  const seen = {
    compound: await existing(tx, n.compounds, 'cid', ids('compound'), true),
    title: await existing(tx, n.titles, 'cid', ids('title'), true),
    synonyms: await existing(tx, n.synonyms, 'cid', ids('synonyms'), true),
    sids: await existing(tx, n.cidSids, 'cid', ids('sids')),
    annotation: await existing(tx, n.annotations, 'cid', ids('annotation'), true),
  };
  const dupes: number[] = [];
  const compounds: SqlValue[][] = [];
  const lookup: SqlValue[][] = [];
  const structures: SqlValue[][] = [];
  const titles: SqlValue[][] = [];
  const synonyms: SqlValue[][] = [];
  const names: SqlValue[][] = [];
  const sids: SqlValue[][] = [];
  const annotations: SqlValue[][] = [];
  // The batch's blocks in order, numbered from 0 here and after the table's last id below.
  const blockIds = new Map<Uint8Array, number>();
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
        const packed = 'packed' in c ? c.packed : undefined;
        let block: number | null = null;
        if (packed) {
          block = blockIds.get(packed.block) ?? blockIds.size;
          blockIds.set(packed.block, block);
        }
        compounds.push([c.cid, typeof c.props === 'string' ? c.props : JSON.stringify(c.props), c.computed.join(','), c.record, c.sdf, block, packed ? packed.slot : null, c.smiles]);
        lookup.push([c.cid, c.inchikey, c.inchikey.slice(0, 14), c.formula, c.mw, c.exactMass, c.monoisotopicMass]);
        // Keys from a reading thread arrive as plain bytes; the drivers bind Buffers.
        structures.push([c.cid, c.bits, c.keys && !Buffer.isBuffer(c.keys) ? Buffer.from(c.keys.buffer, c.keys.byteOffset, c.keys.byteLength) : c.keys]);
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
  if (blockIds.size) {
    const base = Number((await tx.one<{ m: number | null }>(`SELECT MAX(id) AS m FROM ${ident(n.blocks)}`))?.m ?? 0) + 1;
    await tx.insertMany(
      n.blocks,
      ['id', 'data'],
      [...blockIds].map(([data, i]) => [base + i, Buffer.from(data.buffer, data.byteOffset, data.byteLength)]),
    );
    for (const row of compounds) if (row[5] !== null) row[5] = base + (row[5] as number);
  }
  await tx.insertMany(n.compounds, ['cid', 'props', 'computed', 'record', 'sdf', 'block', 'slot', 'smiles'], compounds);
  await tx.insertMany(n.lookup, ['cid', 'inchikey', 'ikey14', 'formula', 'mw', 'exact_mass', 'mono_mass'], lookup);
  await tx.insertMany(n.structures, ['cid', 'bits', 'subskeys'], structures);
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
  const c = ident(n.lookup);
  const idx = (suffix: string) => ident(`${n.lookup}_${suffix}`);
  // The searches' key file, written now so that the first search after the switch need not wait,
  // and beside the indexes (search/keys-thread.ts).
  const store = new CompoundStore(db, t);
  const keys = writeKeysAlongside(db, COMPOUND_PREFIX, t, store, keyFilePath(db, n.structures, await store.keystamp()));
  try {
    for (const sql of [
      `CREATE INDEX ${idx('ikey')} ON ${c} (inchikey)`,
      `CREATE INDEX ${idx('ikey14')} ON ${c} (ikey14)`,
      `CREATE INDEX ${idx('formula')} ON ${c} (formula)`,
      `CREATE INDEX ${idx('mw')} ON ${c} (mw)`,
      `CREATE INDEX ${idx('exact')} ON ${c} (exact_mass)`,
      `CREATE INDEX ${idx('mono')} ON ${c} (mono_mass)`,
      `CREATE INDEX ${ident(n.names + '_name')} ON ${ident(n.names)} (name, rank, cid)`,
      `CREATE INDEX ${ident(n.cidSids + '_sid')} ON ${ident(n.cidSids)} (sid)`,
    ]) {
      await db.exec(sql);
    }
    // Statistics from a sample: a full ANALYZE reads every row of every table again.
    if (db.dialect === 'sqlite') await db.exec('PRAGMA analysis_limit = 1000');
    for (const table of Object.values(n)) await db.exec(`ANALYZE ${ident(table)}`);
  } catch (err) {
    await keys.stop();
    throw err;
  }
  await keys.done;
  // Then the key files of generations no longer served go.
  sweepKeyFiles(db, COMPOUND_PREFIX, [t.gen, ...(await new Generations(db).servableList('pubchem', 'compounds'))]);
}

export async function countCompoundItems(db: Db, t: TableSet): Promise<number> {
  const n = compoundTables(t);
  let total = 0;
  for (const table of [n.compounds, n.titles, n.synonyms, n.annotations]) total += await countOf(db, `SELECT COUNT(*) AS n FROM ${ident(table)}`);
  total += await countOf(db, `SELECT COUNT(DISTINCT cid) AS n FROM ${ident(n.cidSids)}`);
  return total;
}

/** A structure's keys as the key file is written from them; null for a compound without keys. */
export interface StructureRow {
  cid: number;
  keys: unknown;
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
  private readonly gen: number;
  constructor(
    private readonly db: Db,
    t: TableSet,
  ) {
    this.n = compoundTables(t);
    this.gen = t.gen;
  }

  /**
   * Stored columns of compounds. `props` of a record of PubChem's files loaded as read is '' in the
   * table: it is read from the record's SD text here (store/sdf-blocks.ts, chem/compound.ts).
   */
  async rows(cids: readonly number[], cols: readonly ('props' | 'computed' | 'record' | 'sdf')[], opts: { readProps?: boolean } = {}): Promise<Map<number, CompoundRow>> {
    const packed = (cols.includes('sdf') || cols.includes('props')) && (await this.hasBlocks());
    const select = packed ? [...new Set([...cols, 'props', 'block', 'slot'])] : cols;
    const rows = await byIds<CompoundRow & { block?: number | null; slot?: number | null }>(
      this.db,
      (m) => `SELECT cid, ${select.join(', ')} FROM ${ident(this.n.compounds)} WHERE cid IN (${m})`,
      cids,
    );
    if (packed) await this.unpack(cols.includes('sdf') ? rows : rows.filter((r) => r.props === ''));
    // `readProps: false` leaves '' for a caller that parses the text itself (full records).
    for (const r of opts.readProps === false ? [] : rows) {
      if (r.props !== '') continue;
      const props = storedProps(r.sdf ?? '');
      // A stored text that is not a record is a damaged database, not a request's fault.
      if (typeof props === 'string') throw new Error(`CID ${r.cid}: its stored SD text cannot be read (${props})`);
      r.props = JSON.stringify(props);
    }
    if (packed && !cols.includes('sdf')) for (const r of rows) r.sdf = '';
    return new Map(rows.map((r) => [Number(r.cid), r]));
  }

  private blocksKept: Promise<boolean> | undefined;

  /** Whether this generation keeps SD texts in blocks (loaded since blocks were introduced). */
  private hasBlocks(): Promise<boolean> {
    this.blocksKept ??= columnsOf(this.db, this.n.compounds).then((cols) => cols.includes('block'));
    return this.blocksKept;
  }

  private smilesKept: Promise<boolean> | undefined;

  /** Whether this generation keeps each compound's SMILES in a column of its own (else in `props`). */
  private hasSmiles(): Promise<boolean> {
    this.smilesKept ??= columnsOf(this.db, this.n.compounds).then((cols) => cols.includes('smiles'));
    return this.smilesKept;
  }

  /** Fills `sdf` of rows whose text is in a block, reading each block once. */
  private async unpack(rows: (CompoundRow & { block?: number | null; slot?: number | null })[]): Promise<void> {
    const ids = [...new Set(rows.flatMap((r) => (r.block === null || r.block === undefined ? [] : [Number(r.block)])))];
    if (!ids.length) return;
    const blocks = await byIds<{ id: number; data: unknown }>(this.db, (m) => `SELECT id, data FROM ${ident(this.n.blocks)} WHERE id IN (${m})`, ids);
    const texts = new Map(blocks.map((b) => [Number(b.id), unpackTexts(bytes(b.data))]));
    for (const r of rows) {
      if (r.block === null || r.block === undefined) continue;
      const t = texts.get(Number(r.block));
      const text = Array.isArray(t) ? t[Number(r.slot)] : undefined;
      // A block that cannot be read is a damaged database, not a request's fault: the request fails.
      if (text === undefined) throw new Error(`CID ${r.cid}: ${typeof t === 'string' ? t : `block ${r.block} or its place ${r.slot} is missing`}`);
      r.sdf = text;
      delete r.block;
      delete r.slot;
    }
  }

  /** Full records (PC_Compound objects), kept or built from the SD text as loaded (chem/compound.ts). */
  async records(cids: readonly number[]): Promise<Map<number, Record<string, unknown>>> {
    const rows = await this.rows(cids, ['record', 'sdf', 'props', 'computed'], { readProps: false });
    const version = rows.size && [...rows.values()].some((r) => !r.record && r.computed) ? (await rdkit()).version() : '';
    return new Map([...rows].map(([cid, r]) => [cid, storedRecord(cid, r, version)]));
  }

  async known(cids: readonly number[]): Promise<Set<number>> {
    return existing(this.db, this.n.compounds, 'cid', cids);
  }

  async byInchikey(key: string): Promise<number[]> {
    const rows = await this.db.query<{ cid: number }>(`SELECT cid FROM ${ident(await this.lookup())} WHERE inchikey = ? ORDER BY cid`, [key], { hot: true });
    return rows.map((r) => Number(r.cid));
  }

  async byConnectivity(key14: string): Promise<number[]> {
    const rows = await this.db.query<{ cid: number }>(`SELECT cid FROM ${ident(await this.lookup())} WHERE ikey14 = ? ORDER BY cid`, [key14]);
    return rows.map((r) => Number(r.cid));
  }

  async byName(name: string): Promise<number[]> {
    const rows = await this.db.query<{ cid: number }>(`SELECT cid, MIN(rank) AS r FROM ${ident(this.n.names)} WHERE name = ? GROUP BY cid ORDER BY r, cid`, [normal(name)], { hot: true });
    return rows.map((r) => Number(r.cid));
  }

  async byFormula(formula: string): Promise<number[]> {
    const rows = await this.db.query<{ cid: number }>(`SELECT cid FROM ${ident(await this.lookup())} WHERE formula = ? ORDER BY cid`, [formula]);
    return rows.map((r) => Number(r.cid));
  }

  async byMass(column: 'mw' | 'exact_mass' | 'mono_mass', lo: number, hi: number): Promise<number[]> {
    const rows = await this.db.query<{ cid: number }>(`SELECT cid FROM ${ident(await this.lookup())} WHERE ${column} >= ? AND ${column} <= ? ORDER BY cid`, [lo, hi]);
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
    const rows = await this.db.query<{ sid: number }>(`SELECT sid FROM ${ident(this.n.cidSids)} WHERE cid = ?${where} ORDER BY sid`, [cid, ...(typeFilter ?? [])]);
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

  private keeps: boolean | undefined;
  private lookupName: Promise<string> | undefined;

  /** Where the lookup columns are: their own table, or `compounds` in a generation loaded before it. */
  private lookup(): Promise<string> {
    this.lookupName ??= columnsOf(this.db, this.n.lookup).then((cols) => (cols.includes('inchikey') ? this.n.lookup : this.n.compounds));
    return this.lookupName;
  }

  /** The generation's stamp (a generation loaded before stamps were kept has the stamp of its load's start). */
  async keystamp(): Promise<string> {
    try {
      const r = await this.db.one<{ stamp: string }>(`SELECT stamp FROM ${ident(this.n.keystamp)}`);
      if (r) return r.stamp;
    } catch {
      // No stamp table: loaded by an earlier version.
    }
    const load = await this.db.one<{ started_at: string }>('SELECT started_at FROM bm_loads WHERE id = ?', [this.gen]);
    return `l${createHash('sha256')
      .update(String(load?.started_at ?? ''))
      .digest('base64url')
      .slice(0, 12)}`;
  }

  /** Whether the generation keeps substructure keys (those loaded by an earlier version of biomirror do not). */
  async keepsKeys(): Promise<boolean> {
    this.keeps ??= (await columnsOf(this.db, this.n.structures)).includes('subskeys');
    return this.keeps;
  }

  /**
   * Every structure's keys in CID order, in batches (the key file's source); a compound without
   * keys comes with `keys` null. A generation loaded by an earlier version of biomirror has no
   * `subskeys` column: all its structures come as keyless.
   */
  async *structures(batch = 20_000): AsyncGenerator<StructureRow[]> {
    const table = ident(this.n.structures);
    const keys = (await this.keepsKeys()) ? 'subskeys' : 'NULL';
    let cid = -1;
    while (true) {
      const rows = await this.db.query<StructureRow>(`SELECT cid, ${keys} AS keys FROM ${table} WHERE cid > ? ORDER BY cid LIMIT ?`, [cid, batch]);
      if (!rows.length) return;
      yield rows;
      cid = Number((rows[rows.length - 1] as StructureRow).cid);
    }
  }

  /** The stored keys of a compound: bytes, null when it has none, undefined when it is not loaded. */
  async keysOf(cid: number): Promise<unknown> {
    if (!(await this.keepsKeys())) return (await this.known([cid])).has(cid) ? null : undefined;
    const r = await this.db.one<{ keys: unknown }>(`SELECT subskeys AS keys FROM ${ident(this.n.structures)} WHERE cid = ?`, [cid]);
    return r === undefined ? undefined : r.keys;
  }

  /** The SMILES of compounds (the matching threads read structures from it). */
  async smiles(cids: readonly number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    if (await this.hasSmiles()) {
      const rows = await byIds<{ cid: number; smiles: string | null }>(this.db, (m) => `SELECT cid, smiles FROM ${ident(this.n.compounds)} WHERE cid IN (${m})`, cids);
      for (const r of rows) if (r.smiles) out.set(Number(r.cid), r.smiles);
      return out;
    }
    const rows = await this.rows(cids, ['props']);
    for (const [cid, r] of rows) {
      const smiles = (JSON.parse(r.props) as { SMILES?: unknown }).SMILES;
      if (typeof smiles === 'string' && smiles) out.set(cid, smiles);
    }
    return out;
  }
}
