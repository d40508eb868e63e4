/**
 * What the readers make of the bulk files: one record per row (or per file, for pathways and
 * guidelines), before the served resources are derived from them at the end of a load.
 */

export interface GeneRow {
  id: string;
  symbol: string;
  name: string;
  chromosome: string;
  chromosomeLocation: string;
  function: string;
  description: string;
  alternateSymbols: string[];
  alternateNames: string[];
}

export interface ChemicalRow {
  id: string;
  name: string;
  genericNames: string[];
  tradeNames: string[];
  drugClasses: string[];
  indication: string;
}

export interface VariantRow {
  id: string;
  rsid: string;
  chromosome: string;
  position: number | null;
  genes: string[];
  alleles: string[];
  consequence: string;
  clinicalSignificance: string;
  frequencies: Record<string, number>;
}

export interface AnnotationRow {
  id: string;
  variant: string;
  genes: string[];
  evidenceLevel: string;
  phenotypeCategories: string[];
  drugs: string[];
  phenotypes: string[];
  lastUpdated: string;
  url: string;
  population: string;
}

export interface AnnotationAlleleRow {
  annotation: string;
  genotype: string;
  text: string;
  function: string;
}

export interface EvidenceRow {
  annotation: string;
  id: string;
  type: string;
  url: string;
  pmid: string;
  summary: string;
}

/** A gene–chemical relationship (the only kind the served resources use). */
export interface RelationshipRow {
  geneId: string;
  gene: string;
  chemicalId: string;
  chemical: string;
  association: string;
}

export interface LabelRow {
  id: string;
  name: string;
  source: string;
  testingLevel: string;
  hasDosingInfo: boolean;
  drugs: string[];
  genes: string[];
  variants: string[];
  lastUpdated: string;
  sections: { testing: string; dosing: string; warnings: string };
}

export interface GuidelineRecommendation {
  phenotypes: Record<string, string>;
  implications: Record<string, string>;
  recommendation: string;
  classification: string;
  population: string;
}

export interface GuidelineRow {
  id: string;
  name: string;
  source: string;
  genes: string[];
  drugs: string[];
  /** The accession of each of `drugs` ('' where the document gives none). */
  drugIds: string[];
  summary: string;
  lastUpdated: string;
  recommendations: GuidelineRecommendation[];
  pdfUrl: string;
  pmid: string;
}

export interface PathwayStep {
  step: number;
  process: string;
  genes: string[];
}

export interface PathwayRow {
  id: string;
  name: string;
  description: string;
  genes: string[];
  drugs: string[];
  steps: PathwayStep[];
}

export interface AlleleRow {
  gene: string;
  /** As the table writes it: `*4`, `rs9923231`, `c.1905+1G>A (*2A)`. */
  allele: string;
  function: string;
  activityScore: number | null;
  frequencies: Record<string, number>;
  definingVariants: string[];
  pharmVarId: string;
}

/** One row of CPIC's gene–drug pair list. */
export interface CpicPairRow {
  gene: string;
  drug: string;
  cpicLevel: string;
  guidelineUrl: string;
  pharmgkbLevel: string;
}

/** The resources whose members the API may give beyond the downloads (see ingest/details.ts). */
export type DetailType = 'gene' | 'chemical' | 'variant' | 'label' | 'pathway' | 'guideline';

/**
 * One member of a resource as the service's API serves it, for what the downloads lack (a gene's
 * cytogenetic location, a label's sections): the value, already checked for the member's type.
 */
export interface DetailRow {
  type: DetailType;
  /** The resource's accession (a variant's rsid). */
  key: string;
  field: string;
  value: unknown;
}

export interface KindRows {
  gene: GeneRow;
  chemical: ChemicalRow;
  variant: VariantRow;
  annotation: AnnotationRow;
  annotationAllele: AnnotationAlleleRow;
  evidence: EvidenceRow;
  relationship: RelationshipRow;
  label: LabelRow;
  guideline: GuidelineRow;
  pathway: PathwayRow;
  allele: AlleleRow;
  cpicPair: CpicPairRow;
  detail: DetailRow;
}

export type Kind = keyof KindRows;

/** A record of one kind, with the key that identifies it within the kind (duplicates are refused). */
export type PgxRecord = { [K in Kind]: { kind: K; key: string; row: KindRows[K] } }[Kind];

export function record<K extends Kind>(kind: K, key: string, row: KindRows[K]): PgxRecord {
  return { kind, key, row } as PgxRecord;
}
