/**
 * The structure database's tables. Each loaded entry keeps its documents whole, as served, beside
 * the keys they are found by; its mmCIF (and structure factors) stay in the platform's file store,
 * compressed as loaded, named by content.
 */
import type { TableSet } from '../../../core/ingest/dataset.js';
import type { Db } from '../../../core/store/db.js';
import { ident } from '../../../core/store/db.js';
import { tableExists } from '../../../core/store/tables.js';
import type { ObjectKind } from '../documents/index.js';
import { SEARCH_TABLES } from '../search/build/indexer.js';

export const SERVICE = 'rcsb-data';
export const ARCHIVE = 'archive';
export const COMPONENTS = 'components';
export const SIFTS = 'sifts';

export const ARCHIVE_PREFIX = 'pdb';
/** The data host's own tables; the search host's index tables follow them in ARCHIVE_TABLES. */
export const DATA_TABLES = ['entries', 'parts', 'comps', 'chains'] as const;
export const ARCHIVE_TABLES = [...DATA_TABLES, ...SEARCH_TABLES] as const;
export const CCD_PREFIX = 'pdbcc';
/** `comp_bonds`: each component's bonds by atom name, for the CONECT records of legacy files. */
export const CCD_TABLES = ['comps', 'comp_bonds', ...SEARCH_TABLES] as const;
export const SIFTS_PREFIX = 'pdbsifts';
export const SIFTS_TABLES = ['chains'] as const;

export type ArchiveTables = Record<(typeof DATA_TABLES)[number], string>;

export function archiveTables(t: TableSet): ArchiveTables {
  return Object.fromEntries(DATA_TABLES.map((n) => [n, ident(t.name(n))])) as ArchiveTables;
}

export async function createArchive(db: Db, t: TableSet): Promise<void> {
  const n = archiveTables(t);
  await db.exec(`
    CREATE TABLE ${n.entries} (entry_id TEXT PRIMARY KEY, doc TEXT NOT NULL, file_key TEXT NOT NULL, sf_key TEXT, pubmed_id INTEGER, source TEXT NOT NULL, stamp TEXT NOT NULL);
    CREATE TABLE ${n.parts} (kind TEXT NOT NULL, rcsb_id TEXT NOT NULL, entry_id TEXT NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (kind, rcsb_id));
    CREATE TABLE ${n.comps} (entry_id TEXT NOT NULL, comp_id TEXT NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (entry_id, comp_id));
    CREATE TABLE ${n.chains} (entry_id TEXT NOT NULL, asym_id TEXT NOT NULL, auth_id TEXT, entity_id TEXT NOT NULL, PRIMARY KEY (entry_id, asym_id));
  `);
}

export async function finishArchive(db: Db, t: TableSet): Promise<void> {
  const n = archiveTables(t);
  const ix = (suffix: string) => ident(`${t.name(suffix)}_ix`);
  await db.exec(`
    CREATE INDEX ${ix('parts_entry')} ON ${n.parts} (entry_id, kind);
    CREATE INDEX ${ix('entries_pubmed')} ON ${n.entries} (pubmed_id);
    CREATE INDEX ${ix('comps_comp')} ON ${n.comps} (comp_id);
  `);
}

export async function countArchive(db: Db, t: TableSet): Promise<number> {
  const row = await db.one<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${archiveTables(t).entries}`);
  return Number(row?.n ?? 0);
}

/** Copies every row of the given entries from an earlier generation (an update run's unchanged entries). */
export async function copyEntries(tx: Db, from: TableSet, to: TableSet, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const a = archiveTables(from);
  const b = archiveTables(to);
  const marks = ids.map(() => '?').join(',');
  // The search index is rebuilt from all rows at the end of the load, so only the data tables are copied.
  for (const k of DATA_TABLES) await tx.run(`INSERT INTO ${b[k]} SELECT * FROM ${a[k]} WHERE entry_id IN (${marks})`, ids);
}

/** Entry id → stamp of the files it was read from, to tell an update run what changed. */
export async function archiveManifest(db: Db, t: TableSet): Promise<Map<string, string>> {
  const rows = await db.query<{ entry_id: string; stamp: string }>(`SELECT entry_id, stamp FROM ${archiveTables(t).entries}`);
  return new Map(rows.map((r) => [r.entry_id, r.stamp]));
}

// ---- reads ----

export interface EntryRow {
  entry_id: string;
  doc: string;
  file_key: string;
  sf_key: string | null;
}

export async function entryRow(db: Db, t: TableSet, id: string): Promise<EntryRow | undefined> {
  return db.one<EntryRow>(`SELECT entry_id, doc, file_key, sf_key FROM ${archiveTables(t).entries} WHERE entry_id = ?`, [id], { hot: true });
}

export async function entryDocs(db: Db, t: TableSet, ids: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = await db.query<{ entry_id: string; doc: string }>(`SELECT entry_id, doc FROM ${archiveTables(t).entries} WHERE entry_id IN (${chunk.map(() => '?').join(',')})`, chunk);
    for (const r of rows) out.set(r.entry_id, r.doc);
  }
  return out;
}

export async function entriesByPubmed(db: Db, t: TableSet, pmid: number): Promise<string[]> {
  const rows = await db.query<{ doc: string }>(`SELECT doc FROM ${archiveTables(t).entries} WHERE pubmed_id = ? ORDER BY entry_id LIMIT 1`, [pmid]);
  return rows.map((r) => r.doc);
}

export async function partDoc(db: Db, t: TableSet, kind: ObjectKind, rcsbId: string): Promise<string | undefined> {
  const row = await db.one<{ doc: string }>(`SELECT doc FROM ${archiveTables(t).parts} WHERE kind = ? AND rcsb_id = ?`, [kind, rcsbId], { hot: true });
  return row?.doc;
}

export async function partDocs(db: Db, t: TableSet, kind: ObjectKind, rcsbIds: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < rcsbIds.length; i += 500) {
    const chunk = rcsbIds.slice(i, i + 500);
    const rows = await db.query<{ rcsb_id: string; doc: string }>(`SELECT rcsb_id, doc FROM ${archiveTables(t).parts} WHERE kind = ? AND rcsb_id IN (${chunk.map(() => '?').join(',')})`, [
      kind,
      ...chunk,
    ]);
    for (const r of rows) out.set(r.rcsb_id, r.doc);
  }
  return out;
}

/** Every part of one kind of an entry, in load order of their ids. */
export async function partsOfEntry(db: Db, t: TableSet, entryId: string, kind: ObjectKind): Promise<string[]> {
  const rows = await db.query<{ doc: string }>(`SELECT doc FROM ${archiveTables(t).parts} WHERE entry_id = ? AND kind = ?`, [entryId, kind]);
  return rows.map((r) => r.doc);
}

export async function entryIds(db: Db, t: TableSet): Promise<string[]> {
  const rows = await db.query<{ entry_id: string }>(`SELECT entry_id FROM ${archiveTables(t).entries} ORDER BY entry_id`);
  return rows.map((r) => r.entry_id);
}

export async function localComponent(db: Db, t: TableSet, compId: string): Promise<string | undefined> {
  const row = await db.one<{ doc: string }>(`SELECT doc FROM ${archiveTables(t).comps} WHERE comp_id = ? LIMIT 1`, [compId]);
  return row?.doc;
}

export async function localComponentIds(db: Db, t: TableSet): Promise<string[]> {
  const rows = await db.query<{ comp_id: string }>(`SELECT DISTINCT comp_id FROM ${archiveTables(t).comps} ORDER BY comp_id`);
  return rows.map((r) => r.comp_id);
}

export interface ChainRow {
  entry_id: string;
  asym_id: string;
  auth_id: string | null;
  entity_id: string;
}

export async function chainsOfEntry(db: Db, t: TableSet, entryId: string): Promise<ChainRow[]> {
  return db.query<ChainRow>(`SELECT entry_id, asym_id, auth_id, entity_id FROM ${archiveTables(t).chains} WHERE entry_id = ?`, [entryId]);
}

// ---- the chemical component dictionary ----

export async function createCcd(db: Db, t: TableSet): Promise<void> {
  await db.exec(`CREATE TABLE ${ident(t.name('comps'))} (comp_id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
  await db.exec(`CREATE TABLE ${ident(t.name('comp_bonds'))} (comp_id TEXT PRIMARY KEY, bonds TEXT NOT NULL)`);
}

/** A bond of a component: the two atoms' names. */
export type ComponentBond = readonly [string, string];

/**
 * The dictionary's bonds of some components (those it lists bonds for). A dictionary loaded by a
 * version that kept no bonds has none.
 */
export async function ccdBonds(db: Db, t: TableSet, compIds: readonly string[]): Promise<Map<string, ComponentBond[]>> {
  const out = new Map<string, ComponentBond[]>();
  const table = t.name('comp_bonds');
  if (compIds.length === 0 || !(await tableExists(db, table))) return out;
  const ids = [...new Set(compIds)];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = await db.query<{ comp_id: string; bonds: string }>(`SELECT comp_id, bonds FROM ${ident(table)} WHERE comp_id IN (${chunk.map(() => '?').join(', ')})`, chunk);
    for (const r of rows) out.set(r.comp_id, JSON.parse(r.bonds) as ComponentBond[]);
  }
  return out;
}

export async function countTable(db: Db, t: TableSet, logical: string): Promise<number> {
  const row = await db.one<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${ident(t.name(logical))}`);
  return Number(row?.n ?? 0);
}

export async function ccdDoc(db: Db, t: TableSet, compId: string): Promise<string | undefined> {
  const row = await db.one<{ doc: string }>(`SELECT doc FROM ${ident(t.name('comps'))} WHERE comp_id = ?`, [compId], { hot: true });
  return row?.doc;
}

export async function ccdIds(db: Db, t: TableSet): Promise<string[]> {
  const rows = await db.query<{ comp_id: string }>(`SELECT comp_id FROM ${ident(t.name('comps'))} ORDER BY comp_id`);
  return rows.map((r) => r.comp_id);
}

// ---- SIFTS ----

export interface SiftsRow {
  entry_id: string;
  chain: string;
  accession: string;
  res_beg: number | null;
  res_end: number | null;
  pdb_beg: string | null;
  pdb_end: string | null;
  sp_beg: number | null;
  sp_end: number | null;
}

export async function createSifts(db: Db, t: TableSet): Promise<void> {
  await db.exec(
    `CREATE TABLE ${ident(t.name('chains'))} (entry_id TEXT NOT NULL, chain TEXT NOT NULL, accession TEXT NOT NULL, res_beg INTEGER, res_end INTEGER, pdb_beg TEXT, pdb_end TEXT, sp_beg INTEGER, sp_end INTEGER)`,
  );
}

/** Chains by entry, by accession, and by accession lower-cased (as the Search API's conditions read it: search/query/uniprot.ts). */
export async function finishSifts(db: Db, t: TableSet): Promise<void> {
  await db.exec(`
    CREATE INDEX ${ident(`${t.name('chains')}_entry`)} ON ${ident(t.name('chains'))} (entry_id, chain);
    CREATE INDEX ${ident(`${t.name('chains')}_acc`)} ON ${ident(t.name('chains'))} (accession);
    CREATE INDEX ${ident(`${t.name('chains')}_low`)} ON ${ident(t.name('chains'))} (LOWER(accession));
  `);
}

export async function siftsOfEntry(db: Db, t: TableSet, entryId: string): Promise<SiftsRow[]> {
  return db.query<SiftsRow>(`SELECT * FROM ${ident(t.name('chains'))} WHERE entry_id = ?`, [entryId]);
}

export async function siftsByAccession(db: Db, t: TableSet, accession: string): Promise<SiftsRow[]> {
  return db.query<SiftsRow>(`SELECT * FROM ${ident(t.name('chains'))} WHERE accession = ? ORDER BY entry_id, chain`, [accession]);
}
