/**
 * Reads of a generation: documents by key, and lists filtered on indexed columns or through
 * `links`, always in `ord` order. Every function returns documents as the JSON text stored.
 */
import type { TableSet } from '../../../core/ingest/dataset.js';
import type { Db, SqlValue } from '../../../core/store/db.js';
import { lookupOne } from '../../../core/store/lookup.js';
import { namesOf } from './schema.js';

/** The resources that filter through `links`: annotations, guidelines, labels, pathways. */
export type LinkedResource = 'a' | 'g' | 'l' | 'p';

const RESOURCE_TABLE = { a: 'annotations', g: 'guidelines', l: 'labels', p: 'pathways' } as const;

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

async function docs(db: Db, sql: string, params: SqlValue[]): Promise<string[]> {
  return (await db.query<{ doc: string }>(sql, params)).map((r) => r.doc);
}

async function one(db: Db, sql: string, params: SqlValue[], hot = false): Promise<string | undefined> {
  return (await db.one<{ doc: string }>(sql, params, { hot }))?.doc;
}

export const geneByKey = (db: Db, t: TableSet, key: string) => lookupOne(db, t.name('genes'), 'key', 'doc', key);

export async function geneKeyById(db: Db, t: TableSet, id: string): Promise<string | undefined> {
  return (await db.one<{ key: string }>(`SELECT key FROM ${namesOf(t).genes} WHERE id = ?`, [id]))?.key;
}

/** Whether a gene symbol is named anywhere in the load: its genes, pairs, alleles or pathways. */
export async function geneNamed(db: Db, t: TableSet, key: string): Promise<boolean> {
  const n = namesOf(t);
  const probes = [
    `SELECT 1 AS x FROM ${n.genes} WHERE key = ?`,
    `SELECT 1 AS x FROM ${n.pairs} WHERE gene_key = ?`,
    `SELECT 1 AS x FROM ${n.alleles} WHERE gene_key = ?`,
    `SELECT 1 AS x FROM ${n.links} WHERE res = 'p' AND kind = 'gene' AND key = ?`,
  ];
  for (const sql of probes) if (await db.one(`${sql} LIMIT 1`, [key])) return true;
  return false;
}

/** Genes whose symbol, alternate symbol, name or a word of the name starts with `prefix` (lower case). */
export function searchGenes(db: Db, t: TableSet, prefix: string): Promise<string[]> {
  const n = namesOf(t);
  // The upper bound of the prefix range: its last code unit raised by one.
  const upper = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  return docs(
    db,
    `SELECT g.brief AS doc FROM ${n.genes} g WHERE g.key IN (SELECT gene_key FROM ${n.gene_terms} WHERE term >= ? AND term < ?)
     ORDER BY CASE WHEN g.key = ? THEN 0 ELSE 1 END, g.ord`,
    [prefix, upper, prefix],
  );
}

export const allGenes = (db: Db, t: TableSet) => docs(db, `SELECT brief AS doc FROM ${namesOf(t).genes} ORDER BY ord`, []);

export const chemicalById = (db: Db, t: TableSet, id: string) => one(db, `SELECT doc FROM ${namesOf(t).chemicals} WHERE id = ?`, [id], true);

export async function chemicalIdsByName(db: Db, t: TableSet, name: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(`SELECT id FROM ${namesOf(t).chemical_names} WHERE name = ? ORDER BY id`, [name]);
  return rows.map((r) => r.id);
}

export function chemicalsByIds(db: Db, t: TableSet, ids: string[]): Promise<string[]> {
  if (!ids.length) return Promise.resolve([]);
  return docs(db, `SELECT doc FROM ${namesOf(t).chemicals} WHERE id IN (${marks(ids.length)}) ORDER BY ord`, ids);
}

export const allChemicals = (db: Db, t: TableSet) => docs(db, `SELECT doc FROM ${namesOf(t).chemicals} ORDER BY ord`, []);

/** Whether a drug (lower-cased name) is named by a pair or a pathway though not in the drugs file. */
export async function drugNamed(db: Db, t: TableSet, key: string): Promise<boolean> {
  const n = namesOf(t);
  for (const sql of [`SELECT 1 AS x FROM ${n.pairs} WHERE drug_key = ?`, `SELECT 1 AS x FROM ${n.links} WHERE res = 'p' AND kind = 'drug' AND key = ?`]) {
    if (await db.one(`${sql} LIMIT 1`, [key])) return true;
  }
  return false;
}

export interface PairFilter {
  geneKey?: string | undefined;
  drugKeys?: string[] | undefined;
  cpicLevel?: string | undefined;
}

export function pairs(db: Db, t: TableSet, f: PairFilter): Promise<string[]> {
  const where: string[] = [];
  const params: SqlValue[] = [];
  if (f.geneKey !== undefined) {
    where.push('gene_key = ?');
    params.push(f.geneKey);
  }
  if (f.drugKeys) {
    where.push(`drug_key IN (${marks(f.drugKeys.length)})`);
    params.push(...f.drugKeys);
  }
  if (f.cpicLevel !== undefined) {
    where.push('cpic_level = ?');
    params.push(f.cpicLevel);
  }
  return docs(db, `SELECT doc FROM ${namesOf(t).pairs}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ord`, params);
}

/** A filter through `links`: the resource must carry one of `keys` of this kind. */
export interface LinkFilter {
  kind: 'gene' | 'drug' | 'phenotype' | 'variant';
  keys: string[];
}

/**
 * A list of linked resources: each link filter narrows by an indexed subquery, `column` by an
 * indexed column (the evidence level of annotations, the source of guidelines and labels).
 */
export function linked(db: Db, t: TableSet, res: LinkedResource, filters: LinkFilter[], column?: { name: 'level' | 'source_key'; value: string }): Promise<string[]> {
  const n = namesOf(t);
  const where: string[] = [];
  const params: SqlValue[] = [];
  for (const f of filters) {
    where.push(`id IN (SELECT id FROM ${n.links} WHERE res = ? AND kind = ? AND key IN (${marks(f.keys.length)}))`);
    params.push(res, f.kind, ...f.keys);
  }
  if (column) {
    where.push(`${column.name} = ?`);
    params.push(column.value);
  }
  const table = n[RESOURCE_TABLE[res]];
  return docs(db, `SELECT doc FROM ${table}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ord`, params);
}

export const linkedById = (db: Db, t: TableSet, res: LinkedResource, id: string) => one(db, `SELECT doc FROM ${namesOf(t)[RESOURCE_TABLE[res]]} WHERE id = ?`, [id], true);

export const allelesOfGene = (db: Db, t: TableSet, geneKey: string) => docs(db, `SELECT doc FROM ${namesOf(t).alleles} WHERE gene_key = ? ORDER BY ord`, [geneKey]);

export const alleleByKey = (db: Db, t: TableSet, key: string) => one(db, `SELECT doc FROM ${namesOf(t).alleles} WHERE key = ?`, [key], true);

export const variantByKey = (db: Db, t: TableSet, key: string) => one(db, `SELECT doc FROM ${namesOf(t).variants} WHERE key = ?`, [key], true);

export const variantById = (db: Db, t: TableSet, id: string) => one(db, `SELECT doc FROM ${namesOf(t).variants} WHERE id = ?`, [id]);

export function variants(db: Db, t: TableSet, chromosome: string | undefined, position: number | undefined): Promise<string[]> {
  const where: string[] = [];
  const params: SqlValue[] = [];
  if (chromosome !== undefined) {
    where.push('chromosome = ?');
    params.push(chromosome);
  }
  if (position !== undefined) {
    where.push('position = ?');
    params.push(position);
  }
  return docs(db, `SELECT doc FROM ${namesOf(t).variants}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ord`, params);
}
