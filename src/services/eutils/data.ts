/**
 * The loaded data a request reads: for db=gene and db=clinvar, the generation being served, its
 * search index and field definitions. Undefined when the database was never loaded (every search
 * then finds nothing).
 */
import { tableSet, type TableSet } from '../../core/ingest/dataset.js';
import { CLINVAR_DB } from '../ncbi/clinvar/fields.js';
import { CLINVAR_PREFIX } from '../ncbi/clinvar/store.js';
import { CLINVAR_DATASET, GENE_DATASET, NCBI_SERVICE, geneTableSet } from '../ncbi/datasets.js';
import { GENE_DB } from '../ncbi/gene/fields.js';
import { GENE_PREFIX } from '../ncbi/gene/store.js';
import { findTaxon } from '../ncbi/gene/view.js';
import type { Database, ResolveContext } from '../ncbi/search/fields.js';
import { Searcher, indexTables } from '../ncbi/search/index.js';
import type { ServiceContext } from '../types.js';

export type DbName = 'gene' | 'clinvar';
export const DB_NAMES: readonly DbName[] = ['gene', 'clinvar'];

export interface Backend {
  db: DbName;
  def: Database;
  t: TableSet;
  searcher: Searcher;
  resolve: ResolveContext;
  /** When this generation finished loading. */
  loadedAt: string;
}

const DATASET: Record<DbName, { dataset: string; prefix: string; def: Database }> = {
  gene: { dataset: GENE_DATASET, prefix: GENE_PREFIX, def: GENE_DB },
  clinvar: { dataset: CLINVAR_DATASET, prefix: CLINVAR_PREFIX, def: CLINVAR_DB },
};

// Per database handle: generation numbers repeat across databases (tests open several).
const loadedAts = new WeakMap<object, Map<number, string>>();

async function finishedAt(ctx: ServiceContext, gen: number): Promise<string> {
  let loadedAt = loadedAts.get(ctx.db);
  if (!loadedAt) loadedAts.set(ctx.db, (loadedAt = new Map()));
  const hit = loadedAt.get(gen);
  if (hit) return hit;
  const load = (await ctx.generations.served(NCBI_SERVICE)).find((l) => l.id === gen);
  const at = load?.finishedAt ?? new Date().toISOString();
  if (loadedAt.size > 64) loadedAt.clear();
  loadedAt.set(gen, at);
  return at;
}

export function isDbName(v: string | undefined): v is DbName {
  return v === 'gene' || v === 'clinvar';
}

export async function backend(ctx: ServiceContext, db: DbName): Promise<Backend | undefined> {
  const d = DATASET[db];
  const gen = await ctx.generations.active(NCBI_SERVICE, d.dataset);
  if (gen === undefined) return undefined;
  const t = tableSet(d.prefix, gen);
  const geneT = db === 'gene' ? t : await geneTableSet(ctx);
  return {
    db,
    def: d.def,
    t,
    searcher: new Searcher(ctx.db, indexTables(t)),
    resolve: { taxon: (name) => findTaxon(ctx.db, geneT, name) },
    loadedAt: await finishedAt(ctx, gen),
  };
}

/** DbBuild as the real service names builds: Build240412-0757.1 (date and time of the load). */
export function dbBuild(b: Backend): string {
  const d = new Date(b.loadedAt);
  const p = (n: number) => String(n).padStart(2, '0');
  return `Build${p(d.getUTCFullYear() % 100)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}-${p(d.getUTCHours())}${p(d.getUTCMinutes())}.${b.t.gen}`;
}

/** einfo's LastUpdate: 2024/04/11 11:05. */
export function lastUpdate(b: Backend): string {
  const d = new Date(b.loadedAt);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}/${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}`;
}
