/**
 * Records of NCBI Gene's bulk files, as the loader carries them: one per line of gene_info,
 * gene2refseq, gene2pubmed, gene2go, gene_condition_source_id, and per kept line of the taxonomy's
 * names.dmp. Each parser checks the identifiers and returns a reason when a line cannot be loaded.
 */
import type { TsvRow } from '../tsv.js';
import { cell } from '../text.js';

export interface GeneInfo {
  geneId: number;
  taxId: number;
  symbol: string;
  locusTag: string;
  synonyms: string;
  dbXrefs: string;
  chromosome: string;
  mapLocation: string;
  description: string;
  type: string;
  nomSymbol: string;
  nomName: string;
  nomStatus: string;
  otherDesignations: string;
  modDate: string;
  featureType: string;
}

export interface RefseqRow {
  geneId: number;
  taxId: number;
  status: string;
  rnaAcc: string;
  rnaGi: string;
  protAcc: string;
  protGi: string;
  genAcc: string;
  genGi: string;
  start: number | null;
  end: number | null;
  orientation: string;
  assembly: string;
  matureAcc: string;
  matureGi: string;
  /** Length of the RNA in bases, from the RefSeq release catalog when it was loaded. */
  rnaLength?: number;
}

export interface GoRow {
  geneId: number;
  goId: string;
  evidence: string;
  qualifier: string;
  term: string;
  pubmed: string;
  category: string;
}

export interface ConditionRow {
  geneId: number;
  conceptId: string;
  diseaseName: string;
  sourceName: string;
  sourceId: string;
  diseaseMim: string;
}

export type GeneRecord =
  | { kind: 'gene'; gene: GeneInfo }
  | { kind: 'refseq'; row: RefseqRow; seq: number }
  | { kind: 'pubmed'; geneId: number; pmid: number }
  | { kind: 'go'; row: GoRow; seq: number }
  | { kind: 'condition'; row: ConditionRow; seq: number }
  | { kind: 'taxname'; taxId: number; name: string; nameClass: string }
  | { kind: 'seqlen'; accession: string; length: number };

export const GENE_INFO_COLUMNS = ['tax_id', 'GeneID', 'Symbol', 'Synonyms', 'dbXrefs', 'chromosome', 'map_location', 'description', 'type_of_gene'];
export const REFSEQ_COLUMNS = ['tax_id', 'GeneID', 'status', 'RNA_nucleotide_accession.version', 'protein_accession.version', 'genomic_nucleotide_accession.version'];
export const PUBMED_COLUMNS = ['tax_id', 'GeneID', 'PubMed_ID'];
export const GO_COLUMNS = ['tax_id', 'GeneID', 'GO_ID', 'Evidence', 'GO_term', 'Category'];
export const CONDITION_COLUMNS = ['GeneID', 'ConceptID', 'DiseaseName'];

const ID = /^\d{1,10}$/;

function id(row: TsvRow, column: string): number | string {
  const v = row.get(column);
  if (v === undefined || !ID.test(v)) return `${column} "${v ?? ''}" is not a number`;
  return Number(v);
}

function coord(v: string | undefined): number | null {
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : null;
}

export function parseGeneInfo(row: TsvRow): GeneInfo | string {
  const geneId = id(row, 'GeneID');
  if (typeof geneId === 'string') return geneId;
  const taxId = id(row, 'tax_id');
  if (typeof taxId === 'string') return taxId;
  const symbol = cell(row.get('Symbol'));
  if (!symbol) return 'no Symbol';
  return {
    geneId,
    taxId,
    symbol,
    locusTag: cell(row.get('LocusTag')),
    synonyms: cell(row.get('Synonyms')),
    dbXrefs: cell(row.get('dbXrefs')),
    chromosome: cell(row.get('chromosome')),
    mapLocation: cell(row.get('map_location')),
    description: cell(row.get('description')),
    type: cell(row.get('type_of_gene')) || 'unknown',
    nomSymbol: cell(row.get('Symbol_from_nomenclature_authority')),
    nomName: cell(row.get('Full_name_from_nomenclature_authority')),
    nomStatus: cell(row.get('Nomenclature_status')),
    otherDesignations: cell(row.get('Other_designations')),
    modDate: cell(row.get('Modification_date')),
    featureType: cell(row.get('Feature_type')),
  };
}

export function parseRefseq(row: TsvRow): RefseqRow | string {
  const geneId = id(row, 'GeneID');
  if (typeof geneId === 'string') return geneId;
  const taxId = id(row, 'tax_id');
  if (typeof taxId === 'string') return taxId;
  return {
    geneId,
    taxId,
    status: cell(row.get('status')),
    rnaAcc: cell(row.get('RNA_nucleotide_accession.version')),
    rnaGi: cell(row.get('RNA_nucleotide_gi')),
    protAcc: cell(row.get('protein_accession.version')),
    protGi: cell(row.get('protein_gi')),
    genAcc: cell(row.get('genomic_nucleotide_accession.version')),
    genGi: cell(row.get('genomic_nucleotide_gi')),
    start: coord(row.get('start_position_on_the_genomic_accession')),
    end: coord(row.get('end_position_on_the_genomic_accession')),
    // Here "-" is the minus strand, not an empty cell.
    orientation: (row.get('orientation') ?? '').trim(),
    assembly: cell(row.get('assembly')),
    matureAcc: cell(row.get('mature_peptide_accession.version')),
    matureGi: cell(row.get('mature_peptide_gi')),
  };
}

export function parsePubmed(row: TsvRow): { geneId: number; taxId: number; pmid: number } | string {
  const geneId = id(row, 'GeneID');
  if (typeof geneId === 'string') return geneId;
  const taxId = id(row, 'tax_id');
  if (typeof taxId === 'string') return taxId;
  const pmid = id(row, 'PubMed_ID');
  if (typeof pmid === 'string') return pmid;
  return { geneId, taxId, pmid };
}

export function parseGo(row: TsvRow): (GoRow & { taxId: number }) | string {
  const geneId = id(row, 'GeneID');
  if (typeof geneId === 'string') return geneId;
  const taxId = id(row, 'tax_id');
  if (typeof taxId === 'string') return taxId;
  const goId = cell(row.get('GO_ID'));
  if (!/^GO:\d{7}$/.test(goId)) return `GO_ID "${goId}" is not a GO identifier`;
  return {
    geneId,
    taxId,
    goId,
    evidence: cell(row.get('Evidence')),
    qualifier: cell(row.get('Qualifier')),
    term: cell(row.get('GO_term')),
    pubmed: cell(row.get('PubMed')),
    category: cell(row.get('Category')),
  };
}

export function parseCondition(row: TsvRow): ConditionRow | string {
  const geneId = id(row, 'GeneID');
  if (typeof geneId === 'string') return geneId;
  const diseaseName = cell(row.get('DiseaseName'));
  if (!diseaseName) return 'no DiseaseName';
  return {
    geneId,
    conceptId: cell(row.get('ConceptID')),
    diseaseName,
    sourceName: cell(row.get('SourceName')),
    sourceId: cell(row.get('SourceID')),
    diseaseMim: cell(row.get('DiseaseMIM')),
  };
}

/** NCBI's Modification_date (20240317) as a date (2024-03-17). */
export function isoDate(yyyymmdd: string): string | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(yyyymmdd);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
}

/** RNA accessions (NM_, NR_, XM_, XR_): the only catalog lines whose length the gene records use. */
const RNA_ACCESSION = /^[NX][MR]_\d+\.\d+$/;

/**
 * A line of the RefSeq release catalog (`RefSeq-release<N>.catalog`, no header): taxonomy ID,
 * species name, accession.version, [gi, before 2018,] release directories, status, length.
 * Undefined for a line of another kind of sequence; a reason when the line is malformed.
 */
export function parseCatalogLine(line: string): { taxId: number; accession: string; length: number } | string | undefined {
  const cells = line.split('\t');
  if (cells.length !== 6 && cells.length !== 7) return `a RefSeq catalog line has 6 columns (7 with gi), this one ${cells.length}`;
  const accession = (cells[2] ?? '').trim();
  if (!RNA_ACCESSION.test(accession)) return undefined;
  const taxId = Number(cells[0]);
  const length = Number(cells[cells.length - 1]);
  if (!Number.isSafeInteger(taxId) || taxId <= 0) return `tax_id is not a number: ${cells[0]}`;
  if (!Number.isSafeInteger(length) || length <= 0) return `length is not a positive whole number: ${cells[cells.length - 1]}`;
  return { taxId, accession, length };
}
