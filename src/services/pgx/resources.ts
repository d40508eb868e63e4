/**
 * The spec's resources, field by field and in its types. Values the loaded files do not give are
 * empty strings, lists and objects (and null for a number), so every field is always present with
 * its type; docs/compatibility.md says where each field comes from.
 */

export interface ClinicalAnnotation {
  id: string;
  gene: string;
  drug: string;
  phenotype: string;
  evidenceLevel: string;
  annotation: string;
  pmid: string;
  studyType: string;
  population: string;
  sources: string[];
  /** Not in the spec: the variant or haplotypes annotated, and the annotation's page. */
  variant: string;
  url: string;
}

export interface Gene {
  id: string;
  symbol: string;
  name: string;
  chromosome: string;
  chromosomeLocation: string;
  function: string;
  description: string;
  /** The annotations themselves in the single-gene response, their number in lists. */
  clinicalAnnotations: ClinicalAnnotation[] | number;
  relatedDrugs: string[];
}

export interface Drug {
  id: string;
  name: string;
  genericNames: string[];
  tradeNames: string[];
  drugClasses: string[];
  indication: string;
  relatedGenes: string[];
}

export interface GeneDrugPair {
  gene: string;
  drug: string;
  sources: string[];
  cpicLevel: string;
  evidenceLevel: string;
  clinicalAnnotationCount: number;
  hasGuideline: boolean;
  guidelineUrl: string;
}

export interface Recommendation {
  phenotypes: Record<string, string>;
  implications: Record<string, string>;
  recommendation: string;
  classification: string;
  population: string;
}

export interface Guideline {
  id: string;
  name: string;
  source: string;
  genes: string[];
  drugs: string[];
  recommendationLevel: string;
  lastUpdated: string;
  summary: string;
  recommendations: Recommendation[];
  pdfUrl: string;
  pmid: string;
}

export interface Allele {
  name: string;
  gene: string;
  function: string;
  activityScore: number | null;
  frequencies: Record<string, number>;
  definingVariants: string[];
  pharmVarId: string;
}

export interface VariantReference {
  type: string;
  id: string;
  url: string;
  pmids: string[];
}

export interface Variant {
  rsid: string;
  chromosome: string;
  position: number | null;
  gene: string;
  alleles: string[];
  consequence: string;
  clinicalSignificance: string;
  frequencies: Record<string, number>;
  references: VariantReference[];
}

export interface DrugLabel {
  id: string;
  drug: string;
  source: string;
  sections: { testing: string; dosing: string; warnings: string };
  biomarkers: string[];
  testingRecommended: boolean;
  labelUrl: string;
  lastUpdated: string;
  /** Not in the spec: the annotation's title and PharmGKB's testing level. */
  name: string;
  testingLevel: string;
}

export interface Pathway {
  id: string;
  name: string;
  description: string;
  diagramUrl: string;
  drugs: string[];
  genes: string[];
  steps: { step: number; process: string; genes: string[] }[];
}

/** PharmGKB's pages for its objects (the addresses its own files link to). */
export const SITE = 'https://www.pharmgkb.org';
