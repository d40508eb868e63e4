/**
 * Records of ClinVar's bulk files: a line of variant_summary.txt (one allele on one assembly), a line
 * of var_citations.txt, and a whole VariationArchive of the VCV release XML.
 */
import type { TsvRow } from '../tsv.js';
import { cell } from '../text.js';

/** A variant_summary line by column; values as in the file, "-" and "na" read as empty. */
export interface SummaryRow {
  alleleId: string;
  type: string;
  name: string;
  geneId: string;
  geneSymbol: string;
  hgncId: string;
  clinicalSignificance: string;
  clinSigSimple: string;
  lastEvaluated: string;
  rs: string;
  nsv: string;
  rcvs: string;
  phenotypeIds: string;
  phenotypeList: string;
  origin: string;
  originSimple: string;
  assembly: string;
  chromosomeAccession: string;
  chromosome: string;
  start: string;
  stop: string;
  referenceAllele: string;
  alternateAllele: string;
  cytogenetic: string;
  reviewStatus: string;
  numberSubmitters: string;
  guidelines: string;
  testedInGtr: string;
  otherIds: string;
  submitterCategories: string;
  variationId: number;
  positionVcf: string;
  referenceAlleleVcf: string;
  alternateAlleleVcf: string;
  somaticClinicalImpact: string;
  somaticClinicalImpactLastEvaluated: string;
  reviewStatusClinicalImpact: string;
  oncogenicity: string;
  oncogenicityLastEvaluated: string;
  reviewStatusOncogenicity: string;
  scvsGermline: string;
  scvsSomatic: string;
  scvsOncogenicity: string;
}

const COLUMN_OF: Record<Exclude<keyof SummaryRow, 'variationId'>, string> = {
  alleleId: 'AlleleID',
  type: 'Type',
  name: 'Name',
  geneId: 'GeneID',
  geneSymbol: 'GeneSymbol',
  hgncId: 'HGNC_ID',
  clinicalSignificance: 'ClinicalSignificance',
  clinSigSimple: 'ClinSigSimple',
  lastEvaluated: 'LastEvaluated',
  rs: 'RS# (dbSNP)',
  nsv: 'nsv/esv (dbVar)',
  rcvs: 'RCVaccession',
  phenotypeIds: 'PhenotypeIDS',
  phenotypeList: 'PhenotypeList',
  origin: 'Origin',
  originSimple: 'OriginSimple',
  assembly: 'Assembly',
  chromosomeAccession: 'ChromosomeAccession',
  chromosome: 'Chromosome',
  start: 'Start',
  stop: 'Stop',
  referenceAllele: 'ReferenceAllele',
  alternateAllele: 'AlternateAllele',
  cytogenetic: 'Cytogenetic',
  reviewStatus: 'ReviewStatus',
  numberSubmitters: 'NumberSubmitters',
  guidelines: 'Guidelines',
  testedInGtr: 'TestedInGTR',
  otherIds: 'OtherIDs',
  submitterCategories: 'SubmitterCategories',
  positionVcf: 'PositionVCF',
  referenceAlleleVcf: 'ReferenceAlleleVCF',
  alternateAlleleVcf: 'AlternateAlleleVCF',
  somaticClinicalImpact: 'SomaticClinicalImpact',
  somaticClinicalImpactLastEvaluated: 'SomaticClinicalImpactLastEvaluated',
  reviewStatusClinicalImpact: 'ReviewStatusClinicalImpact',
  oncogenicity: 'Oncogenicity',
  oncogenicityLastEvaluated: 'OncogenicityLastEvaluated',
  reviewStatusOncogenicity: 'ReviewStatusOncogenicity',
  scvsGermline: 'SCVsForAggregateGermlineClassification',
  scvsSomatic: 'SCVsForAggregateSomaticClinicalImpact',
  scvsOncogenicity: 'SCVsForAggregateOncogenicityClassification',
};

export const SUMMARY_COLUMNS = ['AlleleID', 'Type', 'Name', 'GeneID', 'GeneSymbol', 'ClinicalSignificance', 'Assembly', 'Chromosome', 'Start', 'Stop', 'ReviewStatus', 'VariationID'];
export const CITATION_COLUMNS = ['AlleleID', 'VariationID', 'citation_source', 'citation_id'];

export type ClinvarRecord =
  { kind: 'row'; row: SummaryRow; seq: number } | { kind: 'citation'; variationId: number; source: string; citationId: string } | { kind: 'vcv'; variationId: number; xml: string };

function clean(v: string | undefined): string {
  const c = cell(v);
  return c === 'na' ? '' : c;
}

export function parseSummary(row: TsvRow): SummaryRow | string {
  const vid = row.get('VariationID');
  if (!vid || !/^\d{1,10}$/.test(vid)) return `VariationID "${vid ?? ''}" is not a number`;
  const out = { variationId: Number(vid) } as SummaryRow;
  for (const [key, column] of Object.entries(COLUMN_OF)) (out as unknown as Record<string, string>)[key] = clean(row.get(column));
  if (!out.name) return 'no Name';
  return out;
}

/** `#AlleleID` is the header's first column; the TSV reader strips the "#". */
export function parseCitation(row: TsvRow): { variationId: number; source: string; citationId: string } | string {
  const vid = row.get('VariationID');
  if (!vid || !/^\d{1,10}$/.test(vid)) return `VariationID "${vid ?? ''}" is not a number`;
  const source = cell(row.get('citation_source'));
  const citationId = cell(row.get('citation_id'));
  if (!source || !citationId) return 'no citation_source or citation_id';
  return { variationId: Number(vid), source, citationId };
}
