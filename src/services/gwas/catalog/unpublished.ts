/**
 * The catalog's other downloads that API v2 serves: the unpublished studies and their ancestries
 * (`gwas-catalog-unpublished-studies-v1.0.3.1.tsv`, `...-unpublished-ancestries-...`: studies whose
 * summary statistics were deposited before their paper, each row naming its body of work) and the
 * trait mappings (`gwas_catalog_trait-mappings_r...tsv`: each reported trait's EFO term and the
 * catalog's parent category of that term, the only piece of the EFO hierarchy a release carries).
 *
 * The unpublished tables have the published tables' columns; their rows say `not yet curated` where
 * a published study has a PubMed id or a date, which is how they are told apart.
 */
import type { TsvRow } from '../tsv.js';
import { blank, intOrNull, parsePlatform, parseTraits, shortFormOf } from './parse.js';
import { ACCESSION } from './records.js';

type Json = Record<string, unknown>;

export const NOT_CURATED = 'not yet curated';

/** A body of work (draft manuscript, preprint) as the unpublished studies' rows name it. */
export interface BodyOfWork {
  /** What tells one from another: its DOI or link, else its title and first author. */
  key: string;
  title: string | null;
  firstAuthor: string | null;
  doc: Json;
}

export interface UnpublishedStudyRecord {
  kind: 'unpublished';
  acc: string;
  trait: string;
  cohort: string;
  variantCount: number | null;
  bow: BodyOfWork | null;
  /** v2's unpublished study without its links and body-of-work fields (`title`, `first_Author`). */
  doc: Json;
}

export interface UnpublishedAncestryRecord {
  kind: 'unpublishedAncestry';
  acc: string;
  doc: Json;
}

export interface TraitMappingRecord {
  kind: 'traitMapping';
  shortForm: string;
  parents: { shortForm: string; label: string }[];
}

const given = (v: string): string | null => (v === '' || v === NOT_CURATED || blank(v) ? null : v);

/** A row of the studies table that is an unpublished study. */
export function isUnpublishedStudy(r: TsvRow): boolean {
  return (r.get('PUBMED ID') || r.get('PUBMEDID')) === NOT_CURATED;
}

/** A row of the ancestry table that belongs to an unpublished study. */
export function isUnpublishedAncestry(r: TsvRow): boolean {
  return r.get('DATE') === NOT_CURATED;
}

export function unpublishedStudyRecord(r: TsvRow): UnpublishedStudyRecord | string {
  const acc = r.get('STUDY ACCESSION');
  if (!ACCESSION.test(acc)) return acc ? `malformed STUDY ACCESSION "${acc}"` : 'no STUDY ACCESSION';
  const platform = parsePlatform(r.get('PLATFORM [SNPS PASSING QC]'));
  const title = given(r.get('STUDY'));
  const firstAuthor = given(r.get('FIRST AUTHOR'));
  const link = given(r.get('LINK'));
  const doc: Json = {};
  const set = (k: string, v: unknown) => {
    if (v !== null && v !== undefined && v !== '') doc[k] = v;
  };
  set('genotyping_technology', given(r.get('GENOTYPING TECHNOLOGY')));
  set('study_accession', acc);
  set('array_manufacturer', platform.manufacturers.join(', ') || null);
  set('variant_count', platform.snpCount);
  set('statistical_model', given(r.get('STATISTICAL MODEL')));
  set('disease_trait', given(r.get('DISEASE/TRAIT')));
  set('background_trait', given(r.get('BACKGROUND TRAIT')));
  set('cohort', given(r.get('COHORT')));
  const bow: BodyOfWork | null =
    title || firstAuthor || link
      ? {
          key: link ?? `${title ?? ''}\t${firstAuthor ?? ''}`,
          title,
          firstAuthor,
          doc: Object.fromEntries(Object.entries({ title, first_author: firstAuthor, doi: link }).filter(([, v]) => v !== null)),
        }
      : null;
  return {
    kind: 'unpublished',
    acc,
    trait: given(r.get('DISEASE/TRAIT')) ?? '',
    cohort: given(r.get('COHORT')) ?? '',
    variantCount: platform.snpCount,
    bow,
    doc,
  };
}

export function unpublishedAncestryRecord(r: TsvRow): UnpublishedAncestryRecord | string {
  const acc = r.get('STUDY ACCESSION');
  if (!ACCESSION.test(acc)) return acc ? `malformed STUDY ACCESSION "${acc}"` : 'no STUDY ACCESSION';
  const doc: Json = {};
  const set = (k: string, v: unknown) => {
    if (v !== null && v !== undefined && v !== '') doc[k] = v;
  };
  set('stage', given(r.get('STAGE')));
  set('sample_size', intOrNull(r.get('NUMBER OF INDIVIDUALS') || r.get('NUMBER OF INDIVDUALS')));
  set('cases', intOrNull(r.get('NUMBER OF CASES')));
  set('controls', intOrNull(r.get('NUMBER OF CONTROLS')));
  set('sample_description', given(r.get('SAMPLE DESCRIPTION')));
  set('ancestry_category', given(r.get('BROAD ANCESTRAL CATEGORY')));
  set('ancestry', given(r.get('ADDITIONAL ANCESTRY DESCRIPTION')));
  set('ancestry_description', given(r.get('FOUNDER/GENETICALLY ISOLATED POPULATION')));
  set('country_recruitment', given(r.get('COUNTRY OF RECRUITMENT')));
  return { kind: 'unpublishedAncestry', acc, doc };
}

export function traitMappingRecord(r: TsvRow): TraitMappingRecord | string {
  const uri = r.get('EFO URI');
  if (!/^https?:\/\//.test(uri)) return uri ? `malformed EFO URI "${uri}"` : 'no EFO URI';
  const parents = parseTraits(r.get('Parent term'), r.get('Parent URI')).map((p) => ({ shortForm: p.shortForm, label: p.label }));
  if (parents.length === 0) return 'no Parent URI';
  return { kind: 'traitMapping', shortForm: shortFormOf(uri), parents };
}
