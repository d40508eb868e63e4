/**
 * Query parameters of each operation, checked: a missing required parameter or a value outside
 * the spec's enumeration is a 400 naming the parameter and what it allows. Enumerated values are
 * matched without regard to case (`source=cpic` as PharmGKB's own clients send it) and passed on
 * as the spec writes them. Empty parameters count as absent; unknown ones are ignored.
 */
import { first, type Query } from '../../core/http/params.js';
import { CHROMOSOMES, CPIC_LEVELS, EVIDENCE_LEVELS, GUIDELINE_SOURCES, LABEL_SOURCES, labelSource } from './enums.js';
import { pgxErrors } from './errors.js';

export function optional(q: Query, ...names: string[]): string | undefined {
  for (const name of names) {
    const v = first(q, name)?.trim();
    if (v) return v;
  }
  return undefined;
}

export function required(q: Query, name: string): string {
  const v = optional(q, name);
  if (v === undefined) throw pgxErrors.missingParameter(name);
  return v;
}

function oneOf(q: Query, name: string, allowed: readonly string[], alias?: string): string | undefined {
  const v = optional(q, name, ...(alias ? [alias] : []));
  if (v === undefined) return undefined;
  const hit = allowed.find((a) => a.toLowerCase() === v.toLowerCase());
  if (!hit) throw pgxErrors.invalidValue(name, v, `expected one of ${allowed.join(', ')}`);
  return hit;
}

export interface GeneSearch {
  q?: string | undefined;
}
export interface PairQuery {
  gene?: string | undefined;
  drug?: string | undefined;
  cpicLevel?: string | undefined;
}
export interface GuidelineQuery {
  source?: string | undefined;
  gene?: string | undefined;
  drug?: string | undefined;
}
export interface VariantQuery {
  chromosome?: string | undefined;
  position?: number | undefined;
}
export interface AnnotationQuery {
  gene?: string | undefined;
  drug?: string | undefined;
  evidenceLevel?: string | undefined;
  phenotype?: string | undefined;
  /** Only through the real service's `location.fingerprint`. */
  variant?: string | undefined;
}
export interface LabelQuery {
  drug?: string | undefined;
  gene?: string | undefined;
  source?: string | undefined;
}
export interface PathwayQuery {
  drug?: string | undefined;
  gene?: string | undefined;
}

const MAX_POSITION = 2_147_483_647;

function position(q: Query): number | undefined {
  const v = optional(q, 'position');
  if (v === undefined) return undefined;
  const n = /^\d+$/.test(v) ? Number(v) : NaN;
  if (!(n >= 1 && n <= MAX_POSITION)) throw pgxErrors.invalidValue('position', v, 'expected a GRCh38 position, a whole number from 1');
  return n;
}

/** The spec's operations. */
export const spec = {
  geneSearch: (q: Query): GeneSearch => ({ q: optional(q, 'q') }),
  chemicalSearch: (q: Query) => ({ name: optional(q, 'name') }),
  pairs: (q: Query): PairQuery => ({
    gene: optional(q, 'gene'),
    drug: optional(q, 'drug'),
    cpicLevel: oneOf(q, 'cpicLevel', CPIC_LEVELS),
  }),
  guidelines: (q: Query): GuidelineQuery => ({
    source: oneOf(q, 'source', GUIDELINE_SOURCES),
    gene: optional(q, 'gene'),
    drug: optional(q, 'drug'),
  }),
  alleles: (q: Query) => ({ gene: required(q, 'gene') }),
  alleleLookup: (q: Query) => ({ gene: optional(q, 'gene') }),
  variants: (q: Query): VariantQuery => ({
    chromosome: oneOf(q, 'chromosome', CHROMOSOMES),
    position: position(q),
  }),
  annotations: (q: Query): AnnotationQuery => ({
    gene: optional(q, 'gene'),
    drug: optional(q, 'drug'),
    evidenceLevel: oneOf(q, 'evidenceLevel', EVIDENCE_LEVELS),
    phenotype: optional(q, 'phenotype'),
  }),
  labels: (q: Query): LabelQuery => {
    const drug = required(q, 'drug');
    const source = oneOf(q, 'source', LABEL_SOURCES);
    return { drug, source: source && labelSource(source) };
  },
  pathways: (q: Query): PathwayQuery => ({ drug: optional(q, 'drug'), gene: optional(q, 'gene') }),
};

/** The same operations under the real service's `/v1/data/...` parameter names. */
export const data = {
  gene: (q: Query): GeneSearch => ({ q: optional(q, 'symbol') }),
  chemical: (q: Query) => ({ name: optional(q, 'name') }),
  variant: (q: Query) => ({ rsid: optional(q, 'symbol', 'name') }),
  annotations: (q: Query): AnnotationQuery => ({
    gene: optional(q, 'location.genes.symbol'),
    drug: optional(q, 'relatedChemicals.name', 'relatedChemicals.accessionId'),
    evidenceLevel: oneOf(q, 'levelOfEvidence.term', EVIDENCE_LEVELS),
    variant: optional(q, 'location.fingerprint'),
  }),
  guidelines: (q: Query): GuidelineQuery => ({
    source: oneOf(q, 'source', GUIDELINE_SOURCES),
    gene: optional(q, 'relatedGenes.symbol'),
    drug: optional(q, 'relatedChemicals.name', 'relatedChemicals.accessionId'),
  }),
  labels: (q: Query): LabelQuery => {
    const source = oneOf(q, 'source', LABEL_SOURCES);
    return {
      source: source && labelSource(source),
      gene: optional(q, 'relatedGenes.symbol'),
      drug: optional(q, 'relatedChemicals.name', 'relatedChemicals.accessionId'),
    };
  },
  pathways: (q: Query): PathwayQuery => ({
    gene: optional(q, 'relatedGenes.symbol'),
    drug: optional(q, 'relatedChemicals.name', 'relatedChemicals.accessionId'),
  }),
};
