/**
 * The tables of one generation. `raw` keeps every record as read (JSON, by kind and key); at the end
 * of the load the served tables are derived from it: one JSON document per resource, stored as the
 * API sends it, with the columns it is looked up, filtered and ordered by (`ord` is its place in
 * the list order, so lists are read in index order). `links` maps filter values (a gene symbol, a
 * drug name, a phenotype) to the annotations, guidelines, labels and pathways that carry them.
 */
import type { TableSet } from '../../../core/ingest/dataset.js';
import type { Sourced } from '../../../core/ingest/load.js';
import type { Updates } from '../../../core/ingest/updates.js';
import { ident, type Db } from '../../../core/store/db.js';
import type { PgxRecord } from '../records.js';

export const TABLE_PREFIX = 'pgx';
export const TABLES = ['raw', 'genes', 'gene_terms', 'chemicals', 'chemical_names', 'pairs', 'guidelines', 'alleles', 'variants', 'annotations', 'labels', 'pathways', 'links'] as const;

export type Logical = (typeof TABLES)[number];
export type Names = Record<Logical, string>;

const byGeneration = new Map<number, Names>();

/** Quoted table names of a generation (every request needs them, so they are kept). */
export function namesOf(t: TableSet): Names {
  const hit = byGeneration.get(t.gen);
  if (hit) return hit;
  const names = Object.fromEntries(TABLES.map((n) => [n, ident(t.name(n))])) as Names;
  if (byGeneration.size > 16) byGeneration.clear();
  byGeneration.set(t.gen, names);
  return names;
}

/**
 * PharmGKB publishes whole downloads, never changes or a list of what was withdrawn: an update is
 * the newer release's files (all or some, each zip whole), each record replacing its kind and key in
 * `raw`; the served tables are all derived from `raw` again.
 */
export const pgxUpdates: Updates<Sourced<PgxRecord>> = {
  noun: 'records',
  parts: { record: { raw: ['kind', 'k'] } },
  key: (r) => ({ part: 'record', id: [r.value.kind, r.value.key] }),
  derived: TABLES.filter((n) => n !== 'raw'),
};

export async function createTables(db: Db, t: TableSet): Promise<void> {
  const n = namesOf(t);
  // Prefix searches and the derivation's walks in key order compare code points; PostgreSQL's
  // default collation would not.
  const bytewise = db.dialect === 'postgres' ? ' COLLATE "C"' : '';
  await db.exec(`
    CREATE TABLE ${n.raw} (kind TEXT NOT NULL, k TEXT${bytewise} NOT NULL, v TEXT NOT NULL, PRIMARY KEY (kind, k));
    CREATE TABLE ${n.genes} (key TEXT PRIMARY KEY, id TEXT NOT NULL, ord INTEGER NOT NULL, doc TEXT NOT NULL, brief TEXT NOT NULL);
    CREATE TABLE ${n.gene_terms} (term TEXT${bytewise} NOT NULL, gene_key TEXT NOT NULL, PRIMARY KEY (term, gene_key));
    CREATE TABLE ${n.chemicals} (id TEXT PRIMARY KEY, ord INTEGER NOT NULL, doc TEXT NOT NULL);
    CREATE TABLE ${n.chemical_names} (name TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (name, id));
    CREATE TABLE ${n.pairs} (gene_key TEXT NOT NULL, drug_key TEXT NOT NULL, cpic_level TEXT NOT NULL, ord INTEGER NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (gene_key, drug_key));
    CREATE TABLE ${n.guidelines} (id TEXT PRIMARY KEY, source_key TEXT NOT NULL, ord INTEGER NOT NULL, doc TEXT NOT NULL);
    CREATE TABLE ${n.alleles} (key TEXT PRIMARY KEY, gene_key TEXT NOT NULL, ord INTEGER NOT NULL, doc TEXT NOT NULL);
    CREATE TABLE ${n.variants} (key TEXT PRIMARY KEY, id TEXT NOT NULL, chromosome TEXT NOT NULL, position INTEGER, ord INTEGER NOT NULL, doc TEXT NOT NULL);
    CREATE TABLE ${n.annotations} (id TEXT PRIMARY KEY, level TEXT NOT NULL, ord INTEGER NOT NULL, doc TEXT NOT NULL);
    CREATE TABLE ${n.labels} (id TEXT PRIMARY KEY, source_key TEXT NOT NULL, ord INTEGER NOT NULL, doc TEXT NOT NULL);
    CREATE TABLE ${n.pathways} (id TEXT PRIMARY KEY, ord INTEGER NOT NULL, doc TEXT NOT NULL);
    CREATE TABLE ${n.links} (res TEXT NOT NULL, kind TEXT NOT NULL, key TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (res, kind, key, id));
  `);
}

/** Secondary indexes, built once the derived rows are in. */
export async function indexTables(db: Db, t: TableSet): Promise<void> {
  const n = namesOf(t);
  const idx = (table: Logical, suffix: string, cols: string) => `CREATE INDEX ${ident(`${t.name(table)}_${suffix}`)} ON ${n[table]} (${cols})`;
  const stmts = [
    idx('genes', 'id', 'id'),
    idx('genes', 'ord', 'ord'),
    idx('chemicals', 'ord', 'ord'),
    idx('pairs', 'drug', 'drug_key, ord'),
    idx('pairs', 'level', 'cpic_level, ord'),
    idx('pairs', 'ord', 'ord'),
    idx('guidelines', 'source', 'source_key, ord'),
    idx('guidelines', 'ord', 'ord'),
    idx('alleles', 'gene', 'gene_key, ord'),
    idx('variants', 'id', 'id'),
    idx('variants', 'locus', 'chromosome, position, ord'),
    idx('variants', 'position', 'position, ord'),
    idx('variants', 'ord', 'ord'),
    idx('annotations', 'level', 'level, ord'),
    idx('annotations', 'ord', 'ord'),
    idx('labels', 'source', 'source_key, ord'),
    idx('labels', 'ord', 'ord'),
    idx('pathways', 'ord', 'ord'),
  ];
  for (const sql of stmts) await db.exec(sql);
  for (const table of TABLES) await db.exec(`ANALYZE ${n[table]}`);
}

/** Every record read is one row of `raw`, so the loader's count check is against it. */
export async function countRecords(db: Db, t: TableSet): Promise<number> {
  const r = await db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM ${namesOf(t).raw}`);
  return Number(r?.n ?? 0);
}
