/**
 * Tables of one generation of ClinVar data: variant_summary lines (two per variation, one per
 * assembly) kept whole as JSON, citations, VCV records as XML, and the search index.
 */
import type { TableSet } from '../../../core/ingest/dataset.js';
import type { Sourced } from '../../../core/ingest/load.js';
import { ident, type Db, type SqlValue } from '../../../core/store/db.js';
import { INDEX_TABLES, addPostings, createIndexTables, finishIndex, indexTables, type Posting } from '../search/index.js';
import { normalize, words } from '../text.js';
import { C } from './fields.js';
import type { ClinvarRecord, SummaryRow } from './records.js';
import { hgvsParts, significanceTerms, splitConditions, vcvAccession } from './values.js';

export const CLINVAR_PREFIX = 'nc';
export const CLINVAR_TABLES = ['rows', 'citations', 'vcv', ...INDEX_TABLES];

export function clinvarTables(t: TableSet): { rows: string; citations: string; vcv: string } {
  return { rows: t.name('rows'), citations: t.name('citations'), vcv: t.name('vcv') };
}

export async function createClinvarTables(db: Db, t: TableSet): Promise<void> {
  const n = clinvarTables(t);
  await db.exec(`
    CREATE TABLE ${ident(n.rows)} (seq INTEGER NOT NULL, variation_id INTEGER NOT NULL, assembly TEXT NOT NULL, doc TEXT NOT NULL);
    CREATE TABLE ${ident(n.citations)} (variation_id INTEGER NOT NULL, source TEXT NOT NULL, citation_id TEXT NOT NULL);
    CREATE TABLE ${ident(n.vcv)} (variation_id INTEGER PRIMARY KEY, xml TEXT NOT NULL);
  `);
  await createIndexTables(db, indexTables(t));
}

/** Index terms of a variant_summary line. */
export function rowPostings(r: SummaryRow, out: Posting[]): void {
  const id = r.variationId;
  const kw = (f: number, values: string[]) => {
    for (const v of new Set(values.map(normalize))) if (v) out.push([f, v, id]);
  };
  const tx = (f: number, values: string[]) => {
    for (const w of new Set(values.flatMap(words))) out.push([f, w, id]);
  };
  kw(
    C.GENE,
    r.geneSymbol.split(/[;|]/).map((s) => s.trim()),
  );
  if (/^\d+$/.test(r.geneId)) kw(C.GENEID, [r.geneId]);
  kw(C.CLNSIG, significanceTerms(r.clinicalSignificance));
  const conditions = splitConditions(r.phenotypeList);
  kw(C.DIS_KW, conditions);
  tx(C.DIS_TEXT, conditions);
  const h = hgvsParts(r.name);
  kw(C.VARNAME_KW, [r.name, h.cdna, h.protein, h.cdnaWithTranscript]);
  tx(C.VARNAME_TEXT, [r.name]);
  kw(C.CHR, [r.chromosome]);
  kw(C.ASSEMBLY, [r.assembly]);
  kw(C.TYPE, [r.type]);
  kw(C.REVSTAT, [r.reviewStatus]);
  kw(C.ORIGIN, [r.originSimple, ...r.origin.split(';')]);
  if (/^\d+$/.test(r.rs) && r.rs !== '-1') kw(C.RS, [`rs${r.rs}`, r.rs]);
  kw(C.ACCN, [vcvAccession(id), ...r.rcvs.split('|')]);
  kw(C.CYTO, [r.cytogenetic]);
}

export async function writeClinvarBatch(tx: Db, t: TableSet, batch: readonly Sourced<ClinvarRecord>[]): Promise<number[]> {
  const n = clinvarTables(t);
  const vids = batch.flatMap((b) => (b.value.kind === 'vcv' ? [b.value.variationId] : []));
  const seen = new Set<number>();
  if (vids.length) {
    const rows = await tx.query<{ variation_id: number }>(`SELECT variation_id FROM ${ident(n.vcv)} WHERE variation_id IN (${vids.map(() => '?').join(', ')})`, vids);
    for (const r of rows) seen.add(Number(r.variation_id));
  }
  const dupes: number[] = [];
  const rows: SqlValue[][] = [];
  const citations: SqlValue[][] = [];
  const vcv: SqlValue[][] = [];
  const postings: Posting[] = [];
  batch.forEach((b, i) => {
    const r = b.value;
    if (r.kind === 'row') {
      rows.push([r.seq, r.row.variationId, r.row.assembly, JSON.stringify(r.row)]);
      rowPostings(r.row, postings);
    } else if (r.kind === 'citation') {
      citations.push([r.variationId, r.source, r.citationId]);
    } else if (seen.has(r.variationId)) {
      dupes.push(i);
    } else {
      seen.add(r.variationId);
      vcv.push([r.variationId, r.xml]);
    }
  });
  await tx.insertMany(n.rows, ['seq', 'variation_id', 'assembly', 'doc'], rows);
  await tx.insertMany(n.citations, ['variation_id', 'source', 'citation_id'], citations);
  await tx.insertMany(n.vcv, ['variation_id', 'xml'], vcv);
  await addPostings(tx, indexTables(t), postings);
  return dupes;
}

export async function finishClinvarTables(db: Db, t: TableSet): Promise<void> {
  const n = clinvarTables(t);
  await db.exec(`
    CREATE INDEX ${ident(n.rows + '_vid')} ON ${ident(n.rows)} (variation_id, seq);
    CREATE INDEX ${ident(n.citations + '_vid')} ON ${ident(n.citations)} (variation_id);
  `);
  // ClinVar's default order here: newest variation first (highest VariationID).
  await finishIndex(db, indexTables(t), `SELECT DISTINCT variation_id AS id, 0 AS w FROM ${ident(n.rows)}`, 'id DESC');
  await db.exec(`ANALYZE ${ident(n.rows)}; ANALYZE ${ident(n.citations)}`);
}

export async function countClinvarRows(db: Db, t: TableSet): Promise<number> {
  const n = clinvarTables(t);
  const r = await db.one<{ n: number }>(`SELECT (SELECT COUNT(*) FROM ${ident(n.rows)}) + (SELECT COUNT(*) FROM ${ident(n.citations)}) + (SELECT COUNT(*) FROM ${ident(n.vcv)}) AS n`);
  return Number(r?.n ?? 0);
}
