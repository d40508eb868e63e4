/**
 * Tables of one generation of gene data: the bulk files' rows as they come (genes, refseq, pubmed,
 * go, conditions, taxnames) and the search index (see ../search/index.ts). Secondary indexes are
 * built once the rows are in.
 */
import type { TableSet } from '../../../core/ingest/dataset.js';
import type { Sourced } from '../../../core/ingest/load.js';
import { ident, type Db, type SqlValue } from '../../../core/store/db.js';
import { INDEX_TABLES, addPostings, createIndexTables, finishIndex, indexTables, type Posting } from '../search/index.js';
import { cellList, normalize, words } from '../text.js';
import { G, GO_CATEGORY } from './fields.js';
import type { GeneInfo, GeneRecord } from './records.js';

export const GENE_PREFIX = 'ng';
export const GENE_TABLES = ['genes', 'refseq', 'pubmed', 'go', 'conditions', 'taxnames', 'seqlen', ...INDEX_TABLES];

export interface GeneTables {
  genes: string;
  refseq: string;
  pubmed: string;
  go: string;
  conditions: string;
  taxnames: string;
  /** RNA lengths of the RefSeq release catalog, copied onto the refseq rows when the load ends. */
  seqlen: string;
}

export function geneTables(t: TableSet): GeneTables {
  return {
    genes: t.name('genes'),
    refseq: t.name('refseq'),
    pubmed: t.name('pubmed'),
    go: t.name('go'),
    conditions: t.name('conditions'),
    taxnames: t.name('taxnames'),
    seqlen: t.name('seqlen'),
  };
}

const GENE_COLUMNS = [
  'gene_id',
  'tax_id',
  'symbol',
  'locus_tag',
  'synonyms',
  'dbxrefs',
  'chromosome',
  'map_location',
  'description',
  'type',
  'nom_symbol',
  'nom_name',
  'nom_status',
  'other_designations',
  'mod_date',
  'feature_type',
] as const;
const REFSEQ_COLUMNS = [
  'seq',
  'gene_id',
  'status',
  'rna_acc',
  'rna_gi',
  'prot_acc',
  'prot_gi',
  'gen_acc',
  'gen_gi',
  'start_pos',
  'end_pos',
  'orientation',
  'assembly',
  'mature_acc',
  'mature_gi',
] as const;
const GO_COLUMNS = ['seq', 'gene_id', 'go_id', 'evidence', 'qualifier', 'term', 'pubmed', 'category'] as const;
const CONDITION_COLUMNS = ['seq', 'gene_id', 'concept_id', 'disease_name', 'source_name', 'source_id', 'disease_mim'] as const;

export async function createGeneTables(db: Db, t: TableSet): Promise<void> {
  const n = geneTables(t);
  const text = (cols: readonly string[], ints: readonly string[]) => cols.map((c) => `${c} ${ints.includes(c) ? 'INTEGER' : 'TEXT'}`).join(', ');
  await db.exec(`
    CREATE TABLE ${ident(n.genes)} (${text(GENE_COLUMNS, ['gene_id', 'tax_id']).replace('gene_id INTEGER', 'gene_id INTEGER PRIMARY KEY')});
    CREATE TABLE ${ident(n.refseq)} (${text(REFSEQ_COLUMNS, ['seq', 'gene_id', 'start_pos', 'end_pos'])}, rna_len INTEGER);
    CREATE TABLE ${ident(n.pubmed)} (gene_id INTEGER NOT NULL, pmid INTEGER NOT NULL);
    CREATE TABLE ${ident(n.go)} (${text(GO_COLUMNS, ['seq', 'gene_id'])});
    CREATE TABLE ${ident(n.conditions)} (${text(CONDITION_COLUMNS, ['seq', 'gene_id'])});
    CREATE TABLE ${ident(n.taxnames)} (tax_id INTEGER NOT NULL, name TEXT NOT NULL, name_class TEXT NOT NULL);
    CREATE TABLE ${ident(n.seqlen)} (accession TEXT NOT NULL, length INTEGER NOT NULL);
  `);
  await createIndexTables(db, indexTables(t));
}

function geneRow(g: GeneInfo): SqlValue[] {
  return [
    g.geneId,
    g.taxId,
    g.symbol,
    g.locusTag,
    g.synonyms,
    g.dbXrefs,
    g.chromosome,
    g.mapLocation,
    g.description,
    g.type,
    g.nomSymbol,
    g.nomName,
    g.nomStatus,
    g.otherDesignations,
    g.modDate,
    g.featureType,
  ];
}

/** Index terms of a gene_info line. */
export function genePostings(g: GeneInfo, out: Posting[]): void {
  const id = g.geneId;
  const kwTerms = (f: number, values: string[]) => {
    for (const v of new Set(values.map(normalize))) if (v) out.push([f, v, id]);
  };
  const textTerms = (f: number, values: string[]) => {
    for (const w of new Set(values.flatMap(words))) out.push([f, w, id]);
  };
  kwTerms(G.GENE, [g.symbol, g.nomSymbol, g.locusTag, ...cellList(g.synonyms)]);
  kwTerms(G.PREF, [g.symbol]);
  out.push([G.TID, String(g.taxId), id]);
  kwTerms(G.CHR, cellList(g.chromosome));
  kwTerms(G.MAP, [g.mapLocation]);
  textTerms(G.DESC, [g.description]);
  textTerms(G.DESIG, [g.nomName, ...cellList(g.otherDesignations)]);
  kwTerms(
    G.MIM,
    cellList(g.dbXrefs)
      .filter((x) => x.startsWith('MIM:'))
      .map((x) => x.slice(4)),
  );
  kwTerms(G.PROP, [`genetype ${g.type.replace(/-/g, ' ')}`, 'alive']);
}

/** Writes a batch; a GeneID already loaded is refused as a duplicate. */
export async function writeGeneBatch(tx: Db, t: TableSet, batch: readonly Sourced<GeneRecord>[]): Promise<number[]> {
  const n = geneTables(t);
  const ix = indexTables(t);
  const geneIds = batch.flatMap((b) => (b.value.kind === 'gene' ? [b.value.gene.geneId] : []));
  const existing = new Set<number>();
  if (geneIds.length) {
    const rows = await tx.query<{ gene_id: number }>(`SELECT gene_id FROM ${ident(n.genes)} WHERE gene_id IN (${geneIds.map(() => '?').join(', ')})`, geneIds);
    for (const r of rows) existing.add(Number(r.gene_id));
  }
  const dupes: number[] = [];
  const genes: SqlValue[][] = [];
  const refseq: SqlValue[][] = [];
  const pubmed: SqlValue[][] = [];
  const go: SqlValue[][] = [];
  const conditions: SqlValue[][] = [];
  const taxnames: SqlValue[][] = [];
  const seqlen: SqlValue[][] = [];
  const postings: Posting[] = [];
  batch.forEach((b, i) => {
    const r = b.value;
    switch (r.kind) {
      case 'gene':
        if (existing.has(r.gene.geneId)) {
          dupes.push(i);
          return;
        }
        existing.add(r.gene.geneId);
        genes.push(geneRow(r.gene));
        genePostings(r.gene, postings);
        return;
      case 'refseq': {
        const x = r.row;
        refseq.push([r.seq, x.geneId, x.status, x.rnaAcc, x.rnaGi, x.protAcc, x.protGi, x.genAcc, x.genGi, x.start, x.end, x.orientation, x.assembly, x.matureAcc, x.matureGi]);
        for (const acc of [x.rnaAcc, x.protAcc]) {
          if (!acc) continue;
          postings.push([G.ACCN, normalize(acc), x.geneId]);
          postings.push([G.ACCN, normalize(acc.replace(/\.\d+$/, '')), x.geneId]);
        }
        return;
      }
      case 'pubmed':
        pubmed.push([r.geneId, r.pmid]);
        return;
      case 'go': {
        const x = r.row;
        go.push([r.seq, x.geneId, x.goId, x.evidence, x.qualifier, x.term, x.pubmed, x.category]);
        const cat = GO_CATEGORY[x.category];
        if (cat) {
          postings.push([cat.id, normalize(x.goId), x.geneId]);
          for (const w of new Set(words(x.term))) postings.push([cat.name, w, x.geneId]);
        }
        return;
      }
      case 'condition': {
        const x = r.row;
        conditions.push([r.seq, x.geneId, x.conceptId, x.diseaseName, x.sourceName, x.sourceId, x.diseaseMim]);
        postings.push([G.DIS_KW, normalize(x.diseaseName), x.geneId]);
        for (const w of new Set(words(x.diseaseName))) postings.push([G.DIS_TEXT, w, x.geneId]);
        return;
      }
      case 'taxname':
        taxnames.push([r.taxId, r.name, r.nameClass]);
        return;
      case 'seqlen':
        seqlen.push([r.accession, r.length]);
        return;
    }
  });
  await tx.insertMany(n.genes, GENE_COLUMNS, genes);
  await tx.insertMany(n.refseq, REFSEQ_COLUMNS, refseq);
  await tx.insertMany(n.pubmed, ['gene_id', 'pmid'], pubmed);
  await tx.insertMany(n.go, GO_COLUMNS, go);
  await tx.insertMany(n.conditions, CONDITION_COLUMNS, conditions);
  await tx.insertMany(n.taxnames, ['tax_id', 'name', 'name_class'], taxnames);
  await tx.insertMany(n.seqlen, ['accession', 'length'], seqlen);
  await addPostings(tx, ix, postings);
  return dupes;
}

export async function finishGeneTables(db: Db, t: TableSet): Promise<void> {
  const n = geneTables(t);
  const q = (s: string) => ident(s);
  await db.exec(`
    CREATE INDEX ${q(n.refseq + '_gene')} ON ${q(n.refseq)} (gene_id, seq);
    CREATE INDEX ${q(n.refseq + '_place')} ON ${q(n.refseq)} (gen_acc, start_pos);
    CREATE INDEX ${q(n.pubmed + '_gene')} ON ${q(n.pubmed)} (gene_id, pmid);
    CREATE INDEX ${q(n.go + '_gene')} ON ${q(n.go)} (gene_id, seq);
    CREATE INDEX ${q(n.conditions + '_gene')} ON ${q(n.conditions)} (gene_id, seq);
    CREATE INDEX ${q(n.taxnames + '_id')} ON ${q(n.taxnames)} (tax_id);
    CREATE INDEX ${q(n.taxnames + '_name')} ON ${q(n.taxnames)} (${db.dialect === 'sqlite' ? 'name COLLATE NOCASE' : 'lower(name)'});
    CREATE INDEX ${q(n.seqlen + '_acc')} ON ${q(n.seqlen)} (accession);
  `);
  // Transcript lengths onto the rows that name the transcript (the catalog may come in any order).
  if (await db.one(`SELECT 1 AS x FROM ${q(n.seqlen)} LIMIT 1`)) {
    await db.exec(`UPDATE ${q(n.refseq)} SET rna_len = s.length FROM ${q(n.seqlen)} s WHERE s.accession = ${q(n.refseq)}.rna_acc`);
  }
  // The default order: genes with the most publications and GO annotations first (NCBI orders
  // gene searches by relevance, where well-studied genes come first), then by GeneID.
  const records = `SELECT g.gene_id AS id, COALESCE(pc.n, 0) + COALESCE(gc.n, 0) AS w FROM ${q(n.genes)} g
    LEFT JOIN (SELECT gene_id, COUNT(DISTINCT pmid) AS n FROM ${q(n.pubmed)} GROUP BY gene_id) pc ON pc.gene_id = g.gene_id
    LEFT JOIN (SELECT gene_id, COUNT(*) AS n FROM ${q(n.go)} GROUP BY gene_id) gc ON gc.gene_id = g.gene_id`;
  await finishIndex(db, indexTables(t), records, 'w DESC, id');
  await db.exec(`ANALYZE ${q(n.genes)}; ANALYZE ${q(n.refseq)}; ANALYZE ${q(n.pubmed)}`);
}

export async function countGeneRows(db: Db, t: TableSet): Promise<number> {
  const n = geneTables(t);
  const parts = Object.values(n).map((table) => `(SELECT COUNT(*) FROM ${ident(table)})`);
  const r = await db.one<{ n: number }>(`SELECT ${parts.join(' + ')} AS n`);
  return Number(r?.n ?? 0);
}
