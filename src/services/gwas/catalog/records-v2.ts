/**
 * What the catalog's REST API v2 shows of a study or an association beyond the v1 documents, read
 * from the same download rows at load time: a study's cohorts and mapped background traits (the
 * studies TSV's `COHORT`, `MAPPED BACKGROUND TRAIT[ URI]`), an association in v2's snake_case shape
 * with its sort keys. Values the downloads do not carry are left out, never made up.
 */
import type { TsvRow } from '../tsv.js';
import { numberOrNull, parseTraits, type Effect, type Pvalue, type TraitRef } from './parse.js';
import type { SnpDoc } from './records.js';

type Json = Record<string, unknown>;

export interface EfoRef {
  efo_id: string;
  efo_trait: string;
}

export const efoRefs = (ts: readonly TraitRef[]): EfoRef[] => ts.map((t) => ({ efo_id: t.shortForm, efo_trait: t.label }));

/** A study's v2-only parts: its EFO traits, background traits and cohorts (absent when none). */
export interface StudyV2 {
  efo: EfoRef[];
  bg: EfoRef[];
  cohort?: string[];
}

/** `COHORT` lists cohorts `|`-separated (`UKB|FinnGen`), as v2's `cohort` splits them. */
export function cohorts(v: string): string[] {
  return v
    .split('|')
    .map((s) => s.trim())
    .filter((s) => s !== '' && s !== 'NA' && s !== 'null');
}

export function studyV2(r: TsvRow, traits: readonly TraitRef[]): StudyV2 {
  const bg = parseTraits(r.get('MAPPED BACKGROUND TRAIT'), r.get('MAPPED BACKGROUND TRAIT URI'));
  const c = cohorts(r.get('COHORT'));
  return { efo: efoRefs(traits), bg: efoRefs(bg), ...(c.length ? { cohort: c } : {}) };
}

/** The columns v2 sorts associations by; null where the row has no value. */
export interface AssociationKeys {
  /** log10 of the p-value from mantissa and exponent: orders as exponent then mantissa, even below the smallest double. */
  plog: number | null;
  riskFrequency: number | null;
  or: number | null;
  beta: number | null;
}

// v2's own pattern for a confidence interval's bounds (`[0.27-0.29]`).
const RANGE = /\[?([+-]?\d+\.?\d*) ?- ?([+-]?\d+\.?\d*)\]?/;

/** A float as Java prints it in v2's text fields (`or_value`, `beta`): `1.0`, not `1`. */
function javaFloat(n: number): string {
  return Number.isInteger(n) ? `${n}.0` : String(n);
}

export interface AssociationParts {
  row: TsvRow;
  acc: string;
  pubmed: string;
  p: Pvalue;
  effect: Effect;
  traits: readonly TraitRef[];
  snps: readonly SnpDoc[];
  /** The risk alleles as the loci list them (`rs123-A`, `rs123-?`). */
  alleles: readonly string[];
  interaction: boolean;
  haplotype: boolean;
}

/** A location as v2's association lists it: `chr:pos`, `NA` for a missing part. */
function locationText(chrom: string | null, pos: number | null): string {
  const c = chrom ?? 'NA';
  return c.length < 3 ? `${c}:${pos ?? 'NA'}` : '';
}

/**
 * The v2 association document minus `association_id` (the stored row's key) and `bg_efo_traits`
 * (its study's, joined when served), in the order the service writes its fields.
 */
export function associationV2(a: AssociationParts): { doc: Json; keys: AssociationKeys } {
  const r = a.row;
  const out: Json = {};
  const set = (k: string, v: unknown) => {
    if (v !== null && v !== undefined) out[k] = v;
  };
  const rf = r.get('RISK ALLELE FREQUENCY');
  set('risk_frequency', rf === '' ? null : rf);
  set('pvalue_description', r.get('P-VALUE (TEXT)'));
  set('pvalue_mantissa', a.p.mantissa);
  set('pvalue_exponent', a.p.exponent);
  set('multi_snp_haplotype', a.haplotype);
  set('snp_interaction', a.interaction);
  set('range', a.effect.range);
  set('or_per_copy_num', a.effect.orPerCopyNum);
  set('or_value', a.effect.orPerCopyNum === null ? null : javaFloat(a.effect.orPerCopyNum));
  set('beta_num', a.effect.betaNum);
  set('beta_unit', a.effect.betaUnit);
  set('beta_direction', a.effect.betaDirection);
  if (a.effect.betaNum !== null) set('beta', [javaFloat(a.effect.betaNum), a.effect.betaUnit, a.effect.betaDirection].filter(Boolean).join(' '));
  // v2 computes the p-value from mantissa and exponent (0.0 below the smallest double).
  set('p_value', a.p.mantissa === null || a.p.exponent === null ? null : a.p.mantissa * 10 ** a.p.exponent);
  set('efo_traits', efoRefs(a.traits));
  set('reported_trait', r.get('DISEASE/TRAIT') ? [r.get('DISEASE/TRAIT')] : []);
  set('accession_id', a.acc);
  const bySnp = new Map(a.snps.map((s) => [s.rsId.toLowerCase(), s]));
  const pairs = a.alleles.map((name) => {
    const i = name.lastIndexOf('-');
    return i > 0 ? { rs_id: name.slice(0, i).replace(/\s/g, ''), effect_allele: name.slice(i + 1).trim() } : null;
  });
  const snpsOfAlleles = pairs.map((p) => (p ? bySnp.get(p.rs_id.toLowerCase()) : undefined)).filter((s): s is SnpDoc => s !== undefined);
  set(
    'locations',
    snpsOfAlleles.flatMap((s) => s.locations.map((l) => locationText(l.chromosomeName, l.chromosomePosition))),
  );
  set(
    'mapped_genes',
    snpsOfAlleles.flatMap((s) => s.genomicContexts.map((g) => String((g.gene as Json).geneName))),
  );
  set('pubmed_id', a.pubmed || null);
  set('first_author', r.get('FIRST AUTHOR') || null);
  const ci = a.effect.range ? RANGE.exec(a.effect.range) : null;
  if (ci) {
    set('ci_lower', Number(ci[1]));
    set('ci_upper', Number(ci[2]));
  }
  const known = pairs.filter((p): p is { rs_id: string; effect_allele: string } => p !== null);
  set(
    'snp_effect_allele',
    known.map((p) => `${p.rs_id}-${p.effect_allele}`),
  );
  set('snp_allele', known);
  const plog = a.p.mantissa === null || a.p.exponent === null ? null : a.p.mantissa > 0 ? a.p.exponent + Math.log10(a.p.mantissa) : -1e9;
  return { doc: out, keys: { plog, riskFrequency: numberOrNull(rf), or: a.effect.orPerCopyNum, beta: a.effect.betaNum } };
}
