/**
 * Genes as the renderers see them: the gene_info line with its organism, RefSeq placements, GO
 * annotations, conditions and (when asked) publications, read for a list of GeneIDs at once.
 */
import type { TableSet } from '../../../core/ingest/dataset.js';
import { ident, type Db } from '../../../core/store/db.js';
import { builtInTaxon, builtInTaxonByName, withDescendants } from '../taxa.js';
import type { ConditionRow, GeneInfo, GoRow, RefseqRow } from './records.js';
import { geneTables } from './store.js';

export interface TaxonNames {
  taxId: number;
  scientific: string;
  common: string;
}

export interface GeneView {
  gene: GeneInfo;
  taxon: TaxonNames;
  weight: number;
  refseq: RefseqRow[];
  go: GoRow[];
  conditions: ConditionRow[];
  pubmed: number[];
}

const CHUNK = 500;

function chunks<T>(xs: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += CHUNK) out.push(xs.slice(i, i + CHUNK));
  return out;
}

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** Names of taxa: the built-in table first, then the loaded names.dmp lines. */
export async function taxonNames(db: Db, t: TableSet, taxIds: readonly number[]): Promise<Map<number, TaxonNames>> {
  const out = new Map<number, TaxonNames>();
  const rest: number[] = [];
  for (const id of new Set(taxIds)) {
    const b = builtInTaxon(id);
    if (b) out.set(id, { taxId: id, scientific: b.scientific, common: b.common });
    else rest.push(id);
  }
  for (const part of chunks(rest)) {
    const rows = await db.query<{ tax_id: number; name: string; name_class: string }>(
      `SELECT tax_id, name, name_class FROM ${ident(geneTables(t).taxnames)} WHERE tax_id IN (${marks(part.length)})`,
      part,
    );
    for (const id of part) out.set(id, { taxId: id, scientific: '', common: '' });
    for (const r of rows) {
      const x = out.get(Number(r.tax_id)) as TaxonNames;
      if (r.name_class === 'scientific name') x.scientific = r.name;
      else if (r.name_class === 'genbank common name' || (r.name_class === 'common name' && !x.common)) x.common = r.name;
    }
  }
  return out;
}

/** A taxon by name (scientific, common, alias), `txid9606` or number, with the ids a search includes. */
export async function findTaxon(db: Db, t: TableSet | undefined, name: string): Promise<{ taxIds: number[]; scientific: string; taxId: number } | undefined> {
  const b = builtInTaxonByName(name);
  if (b) return { taxId: b.taxId, taxIds: withDescendants(b.taxId), scientific: b.scientific };
  if (!t) return undefined;
  const tn = ident(geneTables(t).taxnames);
  const num = /^(?:txid)?(\d+)$/i.exec(name.trim());
  let taxId: number | undefined;
  if (num) taxId = Number(num[1]);
  else {
    const sql = db.dialect === 'sqlite' ? `SELECT tax_id FROM ${tn} WHERE name = ? COLLATE NOCASE LIMIT 1` : `SELECT tax_id FROM ${tn} WHERE lower(name) = lower(?) LIMIT 1`;
    const r = await db.one<{ tax_id: number }>(sql, [name.trim()]);
    if (r) taxId = Number(r.tax_id);
  }
  if (taxId === undefined) return undefined;
  const names = (await taxonNames(db, t, [taxId])).get(taxId);
  if (num && !names?.scientific) return { taxId, taxIds: [taxId], scientific: `txid${taxId}` };
  return { taxId, taxIds: [taxId], scientific: names?.scientific || `txid${taxId}` };
}

function geneOf(r: Record<string, unknown>): GeneInfo {
  return {
    geneId: Number(r.gene_id),
    taxId: Number(r.tax_id),
    symbol: str(r.symbol),
    locusTag: str(r.locus_tag),
    synonyms: str(r.synonyms),
    dbXrefs: str(r.dbxrefs),
    chromosome: str(r.chromosome),
    mapLocation: str(r.map_location),
    description: str(r.description),
    type: str(r.type),
    nomSymbol: str(r.nom_symbol),
    nomName: str(r.nom_name),
    nomStatus: str(r.nom_status),
    otherDesignations: str(r.other_designations),
    modDate: str(r.mod_date),
    featureType: str(r.feature_type),
  };
}

function refseqOf(r: Record<string, unknown>): RefseqRow {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  // Generations loaded before rna_len existed have no such column: no length, as without a catalog.
  const len = num(r.rna_len);
  return {
    ...(len !== null ? { rnaLength: len } : {}),
    geneId: Number(r.gene_id),
    taxId: 0,
    status: str(r.status),
    rnaAcc: str(r.rna_acc),
    rnaGi: str(r.rna_gi),
    protAcc: str(r.prot_acc),
    protGi: str(r.prot_gi),
    genAcc: str(r.gen_acc),
    genGi: str(r.gen_gi),
    start: num(r.start_pos),
    end: num(r.end_pos),
    orientation: str(r.orientation),
    assembly: str(r.assembly),
    matureAcc: str(r.mature_acc),
    matureGi: str(r.mature_gi),
  };
}

/** The genes of `ids` that exist, keyed by GeneID. */
export async function loadGenes(db: Db, t: TableSet, ids: readonly number[], opts: { pubmed?: boolean; weights?: Map<number, number> } = {}): Promise<Map<number, GeneView>> {
  const n = geneTables(t);
  const out = new Map<number, GeneView>();
  const unique = [...new Set(ids)];
  for (const part of chunks(unique)) {
    const q = (table: string, order: string) => `SELECT * FROM ${ident(table)} WHERE gene_id IN (${marks(part.length)}) ORDER BY ${order}`;
    const genes = await db.query<Record<string, unknown>>(`SELECT * FROM ${ident(n.genes)} WHERE gene_id IN (${marks(part.length)})`, part);
    if (!genes.length) continue;
    const taxa = await taxonNames(
      db,
      t,
      genes.map((g) => Number(g.tax_id)),
    );
    for (const g of genes) {
      const gene = geneOf(g);
      out.set(gene.geneId, {
        gene,
        taxon: taxa.get(gene.taxId) ?? { taxId: gene.taxId, scientific: '', common: '' },
        weight: opts.weights?.get(gene.geneId) ?? 0,
        refseq: [],
        go: [],
        conditions: [],
        pubmed: [],
      });
    }
    for (const r of await db.query<Record<string, unknown>>(q(n.refseq, 'gene_id, seq'), part)) out.get(Number(r.gene_id))?.refseq.push(refseqOf(r));
    for (const r of await db.query<Record<string, unknown>>(q(n.go, 'gene_id, seq'), part)) {
      out.get(Number(r.gene_id))?.go.push({
        geneId: Number(r.gene_id),
        goId: str(r.go_id),
        evidence: str(r.evidence),
        qualifier: str(r.qualifier),
        term: str(r.term),
        pubmed: str(r.pubmed),
        category: str(r.category),
      });
    }
    for (const r of await db.query<Record<string, unknown>>(q(n.conditions, 'gene_id, seq'), part)) {
      out.get(Number(r.gene_id))?.conditions.push({
        geneId: Number(r.gene_id),
        conceptId: str(r.concept_id),
        diseaseName: str(r.disease_name),
        sourceName: str(r.source_name),
        sourceId: str(r.source_id),
        diseaseMim: str(r.disease_mim),
      });
    }
    if (opts.pubmed) {
      const rows = await db.query<{ gene_id: number; pmid: number }>(
        `SELECT DISTINCT gene_id, pmid FROM ${ident(n.pubmed)} WHERE gene_id IN (${marks(part.length)}) ORDER BY gene_id, pmid DESC`,
        part,
      );
      for (const r of rows) out.get(Number(r.gene_id))?.pubmed.push(Number(r.pmid));
    }
  }
  return out;
}
