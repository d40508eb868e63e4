/**
 * The catalog's tables, one set per generation. Each resource keeps its document whole (as served,
 * minus links) beside the columns it is found and sorted by, and a dense `ord` (1, 2, 3...) in load
 * order, so a page of a list in its default order is a range of `ord`, however deep.
 */
import type { FinishSteps, TableSet } from '../../../core/ingest/dataset.js';
import type { Sourced } from '../../../core/ingest/load.js';
import type { Db, SqlValue } from '../../../core/store/db.js';
import { ident } from '../../../core/store/db.js';
import type { TraitRef } from './parse.js';
import type { AncestryRecord, AssociationRecord, CatalogRecord, GeneDoc, PublicationDoc, SnpDoc, StudyRecord } from './records.js';
import { EFO_INDEXES, createEfo, writeEfo } from './store-efo.js';
import { EXTRA_INDEXES, createExtras, writeExtras } from './store-extras.js';
import { UNDER_TABLES, buildUnder, createUnder } from './store-under.js';

export const CATALOG_PREFIX = 'gwc';
export const CATALOG_TABLES = [
  'studies',
  'ancestries',
  'assocs',
  'snps',
  'assoc_snps',
  'traits',
  'assoc_traits',
  'study_traits',
  'genes',
  'snp_genes',
  'pubs',
  'assoc_genes',
  // Read by API v2 only (store-extras.ts).
  'trait_map',
  'unpub_studies',
  'unpub_ancestries',
  'bows',
  // EFO's own terms and is_a links, from efo.obo when given (store-efo.ts).
  'efo_terms',
  'efo_edges',
  // What show_child_trait finds under each term, derived at the end of a load (store-under.ts).
  ...UNDER_TABLES,
] as const;

export type CatalogTables = Record<(typeof CATALOG_TABLES)[number], string>;

export function tables(t: TableSet): CatalogTables {
  return Object.fromEntries(CATALOG_TABLES.map((n) => [n, ident(t.name(n))])) as CatalogTables;
}

/** p-value sort key: a missing p-value sorts after every real one, the same on both databases. */
export const NO_PVALUE = 2;
/** API v2's p-value keys (log10): a missing one sorts last going up (`plog_a`) and going down (`plog_d`). */
export const NO_PLOG = 1e300;

export async function createCatalog(db: Db, t: TableSet): Promise<void> {
  const n = tables(t);
  const real = db.dialect === 'sqlite' ? 'REAL' : 'DOUBLE PRECISION';
  const big = db.dialect === 'sqlite' ? 'INTEGER' : 'BIGINT';
  await db.exec(`
    CREATE TABLE ${n.studies} (id INTEGER PRIMARY KEY, acc TEXT NOT NULL UNIQUE, pubmed TEXT NOT NULL, trait_lc TEXT NOT NULL, pub_date TEXT NOT NULL, doc TEXT NOT NULL,
      snp_count ${big}, full_pvalue INTEGER NOT NULL, cohort_lc TEXT NOT NULL, doc2 TEXT NOT NULL);
    CREATE TABLE ${n.ancestries} (id INTEGER PRIMARY KEY, acc TEXT NOT NULL, doc TEXT NOT NULL, stage TEXT NOT NULL, n ${big}, groups_lc TEXT NOT NULL);
    CREATE TABLE ${n.assocs} (id ${big} PRIMARY KEY, ord INTEGER NOT NULL, acc TEXT NOT NULL, pubmed TEXT NOT NULL, pkey ${real} NOT NULL, doc TEXT NOT NULL,
      plog_a ${real} NOT NULL, plog_d ${real} NOT NULL, rf ${real}, orv ${real}, beta ${real}, doc2 TEXT NOT NULL);
    CREATE TABLE ${n.snps} (ord INTEGER PRIMARY KEY, rsid_lc TEXT NOT NULL UNIQUE, chrom TEXT NOT NULL, pos ${big} NOT NULL, doc TEXT NOT NULL);
    CREATE TABLE ${n.assoc_snps} (rsid_lc TEXT NOT NULL, assoc_id ${big} NOT NULL, PRIMARY KEY (rsid_lc, assoc_id));
    CREATE TABLE ${n.traits} (ord INTEGER PRIMARY KEY, short_form TEXT NOT NULL UNIQUE, uri TEXT NOT NULL, label_lc TEXT NOT NULL, doc TEXT NOT NULL);
    CREATE TABLE ${n.assoc_traits} (short_form TEXT NOT NULL, assoc_id ${big} NOT NULL, PRIMARY KEY (short_form, assoc_id));
    CREATE TABLE ${n.study_traits} (short_form TEXT NOT NULL, acc TEXT NOT NULL, PRIMARY KEY (short_form, acc));
    CREATE TABLE ${n.genes} (ord INTEGER PRIMARY KEY, name_lc TEXT NOT NULL UNIQUE, doc TEXT NOT NULL);
    CREATE TABLE ${n.snp_genes} (gene_lc TEXT NOT NULL, rsid_lc TEXT NOT NULL, PRIMARY KEY (gene_lc, rsid_lc));
    CREATE TABLE ${n.pubs} (ord INTEGER PRIMARY KEY, pubmed TEXT NOT NULL UNIQUE, pub_date TEXT NOT NULL, doc TEXT NOT NULL, title_lc TEXT NOT NULL, author_lc TEXT NOT NULL);
    CREATE TABLE ${n.assoc_genes} (gene_lc TEXT NOT NULL, assoc_id ${big} NOT NULL, PRIMARY KEY (gene_lc, assoc_id));
  `);
  await createExtras(db, n);
  await createEfo(db, n);
  await createUnder(db, n);
  counters.set(t.gen, { study: 0, ancestry: 0, assoc: 0, snp: 0, trait: 0, gene: 0, pub: 0, assocId: 0, traitRec: 0, traitRow: 0, unpub: 0, unpubAncestry: 0, bow: 0, efoTerm: 0 });
}

/** An update's generation starts from a copy: its numbers go on from the copy's highest. */
export async function continueCounters(db: Db, t: TableSet): Promise<void> {
  const n = tables(t);
  const max = async (table: string, col: string) => Number((await db.one<{ m: number | null }>(`SELECT MAX(${col}) AS m FROM ${table}`))?.m ?? 0);
  counters.set(t.gen, {
    study: await max(n.studies, 'id'),
    ancestry: await max(n.ancestries, 'id'),
    assoc: await max(n.assocs, 'ord'),
    snp: await max(n.snps, 'ord'),
    trait: await max(n.traits, 'ord'),
    gene: await max(n.genes, 'ord'),
    pub: await max(n.pubs, 'ord'),
    assocId: await max(n.assocs, 'id'),
    traitRec: await max(n.trait_map, 'rec'),
    traitRow: await max(n.trait_map, 'id'),
    unpub: await max(n.unpub_studies, 'id'),
    unpubAncestry: await max(n.unpub_ancestries, 'id'),
    bow: await max(n.bows, 'id'),
    efoTerm: await max(n.efo_terms, 'id'),
  });
}

export interface Counters {
  study: number;
  ancestry: number;
  assoc: number;
  snp: number;
  trait: number;
  gene: number;
  pub: number;
  /** Added to the association ids a reader numbered itself (files without ids), so an update's go on. */
  assocId: number;
  /** Trait-mapping rows of the file, and their (term, parent) pairs. */
  traitRec: number;
  traitRow: number;
  unpub: number;
  unpubAncestry: number;
  bow: number;
  efoTerm: number;
}

// The next `ord` of each table of a generation being loaded (numbers only: memory stays flat).
const counters = new Map<number, Counters>();

async function existing(tx: Db, table: string, column: string, keys: readonly SqlValue[]): Promise<Set<string>> {
  const out = new Set<string>();
  const unique = [...new Set(keys)];
  for (let i = 0; i < unique.length; i += 500) {
    const chunk = unique.slice(i, i + 500);
    const rows = await tx.query<Record<string, unknown>>(`SELECT ${column} AS k FROM ${table} WHERE ${column} IN (${chunk.map(() => '?').join(', ')})`, chunk);
    for (const r of rows) out.add(String(r.k));
  }
  return out;
}

/** Rows for a keyed side table (SNPs, traits, genes, publications): the first occurrence wins. */
class Firsts<T> {
  readonly rows: SqlValue[][] = [];
  private readonly seen: Set<string>;
  constructor(
    present: Set<string>,
    private readonly next: () => number,
    private readonly row: (ord: number, v: T) => SqlValue[],
  ) {
    this.seen = present;
  }

  add(key: string, v: T): void {
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.rows.push(this.row(this.next(), v));
  }
}

export async function writeCatalog(tx: Db, t: TableSet, batch: readonly Sourced<CatalogRecord>[]): Promise<number[]> {
  const n = tables(t);
  const c = counters.get(t.gen);
  if (!c) throw new Error(`generation ${t.gen} was not created by this process`);
  const recs = batch.map((b) => b.value);
  const studies = recs.filter((r): r is StudyRecord => r.kind === 'study');
  const assocs = recs.filter((r): r is AssociationRecord => r.kind === 'association');

  const haveStudies = await existing(
    tx,
    n.studies,
    'acc',
    studies.map((s) => s.acc),
  );
  const idOf = (a: AssociationRecord) => (a.numbered ? a.id + c.assocId : a.id);
  const haveAssocs = await existing(tx, n.assocs, 'id', assocs.map(idOf));
  const snpKeys = assocs.flatMap((a) => a.snps.map((s) => s.rsId.toLowerCase()));
  const traitKeys = [...studies, ...assocs].flatMap((r) => r.traits.map((x) => x.shortForm));
  const geneKeys = assocs.flatMap((a) => a.genes.map((g) => g.geneName.toLowerCase()));
  const snps = new Firsts<SnpDoc>(
    await existing(tx, n.snps, 'rsid_lc', snpKeys),
    () => ++c.snp,
    (ord, s) => [ord, s.rsId.toLowerCase(), s.locations[0]?.chromosomeName ?? '', s.locations[0]?.chromosomePosition ?? -1, JSON.stringify(s)],
  );
  const traits = new Firsts<TraitRef>(
    await existing(tx, n.traits, 'short_form', traitKeys),
    () => ++c.trait,
    (ord, x) => [ord, x.shortForm, x.uri, x.label.toLowerCase(), JSON.stringify({ trait: x.label, uri: x.uri, shortForm: x.shortForm })],
  );
  const genes = new Firsts<GeneDoc>(
    await existing(tx, n.genes, 'name_lc', geneKeys),
    () => ++c.gene,
    (ord, g) => [ord, g.geneName.toLowerCase(), JSON.stringify(g)],
  );
  const pubs = new Firsts<PublicationDoc>(
    await existing(
      tx,
      n.pubs,
      'pubmed',
      studies.map((s) => s.pubmed),
    ),
    () => ++c.pub,
    (ord, p) => [ord, p.pubmedId, p.publicationDate ?? '', JSON.stringify(p), (p.title ?? '').toLowerCase(), (p.author.fullname ?? '').toLowerCase()],
  );

  const dupes: number[] = [];
  const studyRows: SqlValue[][] = [];
  const ancestryRows: SqlValue[][] = [];
  const assocRows: SqlValue[][] = [];
  const assocSnps: SqlValue[][] = [];
  const assocTraits: SqlValue[][] = [];
  const studyTraits: SqlValue[][] = [];
  const snpGenes: SqlValue[][] = [];
  const assocGenes: SqlValue[][] = [];
  const seenSnpGene = new Set<string>();
  recs.forEach((r, i) => {
    if (r.kind === 'unpublished' || r.kind === 'unpublishedAncestry' || r.kind === 'traitMapping' || r.kind === 'efoTerm') return;
    if (r.kind === 'study') {
      if (haveStudies.has(r.acc)) return void dupes.push(i);
      haveStudies.add(r.acc);
      studyRows.push([
        ++c.study,
        r.acc,
        r.pubmed,
        r.diseaseTrait.toLowerCase(),
        r.pubDate,
        JSON.stringify(r.doc),
        r.snpCount,
        r.fullPvalueSet ? 1 : 0,
        (r.v2.cohort ?? []).join('|').toLowerCase(),
        JSON.stringify(r.v2),
      ]);
      for (const x of r.traits) {
        traits.add(x.shortForm, x);
        studyTraits.push([x.shortForm, r.acc]);
      }
      if (r.pubmed) pubs.add(r.pubmed, r.publication);
    } else if (r.kind === 'ancestry') {
      ancestryRows.push(ancestryRow(++c.ancestry, r));
    } else {
      const id = idOf(r);
      if (haveAssocs.has(String(id))) return void dupes.push(i);
      haveAssocs.add(String(id));
      const k = r.keys;
      assocRows.push([id, ++c.assoc, r.acc, r.pubmed, r.pvalue ?? NO_PVALUE, JSON.stringify(r.doc), k.plog ?? NO_PLOG, k.plog ?? -NO_PLOG, k.riskFrequency, k.or, k.beta, JSON.stringify(r.doc2)]);
      for (const rs of new Set(r.snps.map((s) => s.rsId.toLowerCase()))) assocSnps.push([rs, id]);
      for (const s of r.snps) snps.add(s.rsId.toLowerCase(), s);
      for (const sf of new Set(r.traits.map((x) => x.shortForm))) assocTraits.push([sf, id]);
      for (const x of r.traits) traits.add(x.shortForm, x);
      for (const g of r.genes) genes.add(g.geneName.toLowerCase(), g);
      for (const g of new Set(r.genes.map((x) => x.geneName.toLowerCase()))) assocGenes.push([g, id]);
      for (const sg of r.snpGenes) {
        const key = `${sg.gene.toLowerCase()}\t${sg.rsid.toLowerCase()}`;
        if (!seenSnpGene.has(key)) {
          seenSnpGene.add(key);
          snpGenes.push([sg.gene.toLowerCase(), sg.rsid.toLowerCase()]);
        }
      }
    }
  });

  const raw = (logical: string) => t.name(logical);
  await tx.insertMany(raw('studies'), ['id', 'acc', 'pubmed', 'trait_lc', 'pub_date', 'doc', 'snp_count', 'full_pvalue', 'cohort_lc', 'doc2'], studyRows);
  await tx.insertMany(raw('ancestries'), ['id', 'acc', 'doc', 'stage', 'n', 'groups_lc'], ancestryRows);
  await tx.insertMany(raw('assocs'), ['id', 'ord', 'acc', 'pubmed', 'pkey', 'doc', 'plog_a', 'plog_d', 'rf', 'orv', 'beta', 'doc2'], assocRows);
  await tx.insertMany(raw('snps'), ['ord', 'rsid_lc', 'chrom', 'pos', 'doc'], snps.rows);
  await tx.insertMany(raw('assoc_snps'), ['rsid_lc', 'assoc_id'], assocSnps);
  await tx.insertMany(raw('traits'), ['ord', 'short_form', 'uri', 'label_lc', 'doc'], traits.rows);
  await tx.insertMany(raw('assoc_traits'), ['short_form', 'assoc_id'], assocTraits);
  await tx.insertMany(raw('study_traits'), ['short_form', 'acc'], dedupe(studyTraits));
  await tx.insertMany(raw('genes'), ['ord', 'name_lc', 'doc'], genes.rows);
  await insertIgnoring(tx, n.snp_genes, ['gene_lc', 'rsid_lc'], snpGenes);
  await tx.insertMany(raw('pubs'), ['ord', 'pubmed', 'pub_date', 'doc', 'title_lc', 'author_lc'], pubs.rows);
  await tx.insertMany(raw('assoc_genes'), ['gene_lc', 'assoc_id'], assocGenes);
  await writeExtras(tx, n, raw, recs, c);
  dupes.push(...(await writeEfo(tx, n, raw, recs, c)));
  return dupes;
}

function ancestryRow(id: number, r: AncestryRecord): SqlValue[] {
  return [id, r.acc, JSON.stringify(r.doc), r.stage, r.individuals, r.groups];
}

function dedupe(rows: SqlValue[][]): SqlValue[][] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const k = r.join('\t');
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** A SNP's gene pair can recur in later batches; those repeats are dropped by the key. */
async function insertIgnoring(tx: Db, table: string, cols: string[], rows: SqlValue[][]): Promise<void> {
  const tuple = `(${cols.map(() => '?').join(', ')})`;
  for (let i = 0; i < rows.length; i += 400) {
    const chunk = rows.slice(i, i + 400);
    await tx.run(`INSERT INTO ${table} (${cols.join(', ')}) VALUES ${chunk.map(() => tuple).join(', ')} ON CONFLICT DO NOTHING`, chunk.flat());
  }
}

/** Seconds since `t0` (performance.now()), to the millisecond. */
const since = (t0: number) => Math.round(performance.now() - t0) / 1000;

export async function finishCatalog(db: Db, t: TableSet): Promise<FinishSteps> {
  counters.delete(t.gen);
  let t0 = performance.now();
  const n = tables(t);
  const idx = (table: string, name: string, cols: string) => `CREATE INDEX ${ident(t.name(name))} ON ${table} (${cols});`;
  await db.exec(
    [
      idx(n.studies, 'studies_pubmed', 'pubmed, id'),
      idx(n.studies, 'studies_trait', 'trait_lc, id'),
      idx(n.studies, 'studies_date', 'pub_date, id'),
      idx(n.ancestries, 'ancestries_acc', 'acc, id'),
      `CREATE UNIQUE INDEX ${ident(t.name('assocs_ord'))} ON ${n.assocs} (ord);`,
      idx(n.assocs, 'assocs_acc', 'acc, id'),
      idx(n.assocs, 'assocs_pubmed', 'pubmed, id'),
      idx(n.assocs, 'assocs_p', 'pkey, id'),
      idx(n.snps, 'snps_loc', 'chrom, pos, ord'),
      idx(n.assoc_snps, 'assoc_snps_a', 'assoc_id'),
      idx(n.traits, 'traits_uri', 'uri'),
      idx(n.traits, 'traits_label', 'label_lc, ord'),
      idx(n.assoc_traits, 'assoc_traits_a', 'assoc_id'),
      idx(n.study_traits, 'study_traits_s', 'acc'),
      idx(n.pubs, 'pubs_date', 'pub_date, ord'),
      // API v2: p-value order both ways, studies by summary-statistics flag and SNP count.
      idx(n.assocs, 'assocs_pa', 'plog_a, ord'),
      idx(n.assocs, 'assocs_pd', 'plog_d, ord'),
      idx(n.studies, 'studies_full', 'full_pvalue, id'),
      ...[...EXTRA_INDEXES, ...EFO_INDEXES].map(([table, name, cols]) => idx(n[table], name, cols)),
    ].join('\n'),
  );
  const indexes = since(t0);
  t0 = performance.now();
  await buildUnder(db, t, n);
  const under = since(t0);
  t0 = performance.now();
  // SQLite's statistics from a sample, as PostgreSQL's are: a full ANALYZE reads every index entry.
  if (db.dialect === 'sqlite') await db.exec('PRAGMA analysis_limit = 1000');
  await db.exec(
    Object.values(n)
      .map((x) => `ANALYZE ${x};`)
      .join('\n'),
  );
  return [
    { step: 'indexes', seconds: indexes },
    { step: 'what is under each trait (show_child_trait)', seconds: under },
    { step: 'statistics', seconds: since(t0) },
  ];
}

/** Records of a load: studies, ancestry entries and associations; unpublished studies and their ancestries; trait-mapping rows; EFO terms. */
export async function countCatalog(db: Db, t: TableSet): Promise<number> {
  const n = tables(t);
  const r = await db.one<Record<string, number>>(
    `SELECT (SELECT COUNT(*) FROM ${n.studies}) AS a, (SELECT COUNT(*) FROM ${n.ancestries}) AS b, (SELECT COUNT(*) FROM ${n.assocs}) AS c,
       (SELECT COUNT(*) FROM ${n.unpub_studies}) AS d, (SELECT COUNT(*) FROM ${n.unpub_ancestries}) AS e, (SELECT COUNT(DISTINCT rec) FROM ${n.trait_map}) AS f,
       (SELECT COUNT(*) FROM ${n.efo_terms}) AS g`,
  );
  return ['a', 'b', 'c', 'd', 'e', 'f', 'g'].reduce((sum, k) => sum + Number(r?.[k] ?? 0), 0);
}
