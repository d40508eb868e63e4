/**
 * Cells of the catalog's bulk TSVs turned into the pieces of its REST resources. The downloads
 * flatten what the REST API nests (several SNPs of a haplotype in one cell, `;`-separated; an
 * interaction's SNPs ` x `-separated; a locus' genes comma-separated), so these split them again.
 */

/** Missing values as the downloads write them. */
export function blank(v: string): boolean {
  return v === '' || v === 'NA' || v === 'NR' || v === 'null';
}

export function orNull(v: string): string | null {
  return v === '' ? null : v;
}

export function numberOrNull(v: string): number | null {
  const s = v.replace(/,/g, '').trim();
  if (s === '' || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

export function intOrNull(v: string): number | null {
  const n = numberOrNull(v);
  return n === null ? null : Math.round(n);
}

/** A list cell: `a, b, c`. */
export function list(v: string, sep = /\s*,\s*/): string[] {
  return v
    .split(sep)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * The per-SNP parts of a multi-SNP cell: `a; b` (haplotype) or `a x b` (interaction). Parts keep
 * their places (an unknown one is `NR` or empty) so that they line up with the SNPs.
 */
export function perSnp(v: string): string[] {
  if (v.trim() === '') return [];
  return v.split(/\s*;\s*|\s+x\s+/).map((s) => s.trim());
}

/** Dates as the downloads give them (ISO, or m/d/yyyy in older files), as yyyy-mm-dd. */
export function isoDate(v: string): string | null {
  const s = v.trim();
  if (/^\d{4}-\d{2}-\d{2}/.test(s)) return s.slice(0, 10);
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  if (m) return `${m[3]}-${(m[1] as string).padStart(2, '0')}-${(m[2] as string).padStart(2, '0')}`;
  return null;
}

/** A date as Spring's Jackson writes a timestamp (`2021-06-24T00:00:00.000+0000`). */
export function timestamp(date: string | null): string | null {
  return date ? `${date}T00:00:00.000+0000` : null;
}

export interface Pvalue {
  pvalue: number | null;
  mantissa: number | null;
  exponent: number | null;
}

/** `4E-7` -> 4e-7 with mantissa 4 and exponent -7, as the catalog stores them. */
export function parsePvalue(text: string): Pvalue {
  const m = /^\s*(\d+(?:\.\d+)?)\s*[eE]\s*([-+]?\d+)\s*$/.exec(text);
  if (m) {
    const mantissa = Number(m[1]);
    const exponent = Number(m[2]);
    return { pvalue: Number(`${m[1]}e${m[2]}`), mantissa, exponent };
  }
  const n = numberOrNull(text);
  if (n === null) return { pvalue: null, mantissa: null, exponent: null };
  if (n === 0) return { pvalue: 0, mantissa: 0, exponent: 0 };
  const exponent = Math.floor(Math.log10(Math.abs(n)));
  const mantissa = Number((n / 10 ** exponent).toPrecision(12));
  return { pvalue: n, mantissa, exponent };
}

export interface Effect {
  orPerCopyNum: number | null;
  betaNum: number | null;
  betaUnit: string | null;
  betaDirection: string | null;
  range: string | null;
}

/**
 * `OR or BETA` with its `95% CI (TEXT)`: the CI text of a beta names a unit and a direction
 * (`[0.20-0.40] unit increase`); an odds ratio's CI is the bracket alone.
 */
export function parseEffect(value: string, ciText: string): Effect {
  const v = numberOrNull(value);
  const bracket = /\[[^\]]*\]/.exec(ciText)?.[0] ?? null;
  const rest = ciText.replace(/\[[^\]]*\]/, '').trim();
  const dir = /\b(increase|decrease)\b/i.exec(rest)?.[1]?.toLowerCase() ?? null;
  if (dir || (rest && !blank(rest))) {
    const unit = rest.replace(/\b(increase|decrease)\b/i, '').trim();
    return { orPerCopyNum: null, betaNum: v, betaUnit: unit || null, betaDirection: dir, range: bracket };
  }
  return { orPerCopyNum: v, betaNum: null, betaUnit: null, betaDirection: null, range: bracket };
}

export interface Platform {
  manufacturers: string[];
  snpCount: number | null;
  qualifier: string | null;
  imputed: boolean;
  pooled: boolean;
}

/** `Affymetrix, Illumina [~2,500,000] (imputed)` */
export function parsePlatform(v: string): Platform {
  const head = v.split('[')[0] ?? '';
  const inBracket = /\[([^\]]*)\]/.exec(v)?.[1] ?? '';
  const qualifier = /^\s*([~<>])/.exec(inBracket)?.[1] ?? null;
  return {
    manufacturers: list(head).filter((m) => !blank(m)),
    snpCount: intOrNull(inBracket.replace(/[~<>\s]/g, '')),
    qualifier,
    imputed: /\(imputed\)/i.test(v),
    pooled: /\(pooled\)/i.test(v),
  };
}

export interface TraitRef {
  label: string;
  uri: string;
  shortForm: string;
}

export function shortFormOf(uri: string): string {
  return uri.split(/[/#]/).pop() ?? uri;
}

/**
 * `MAPPED_TRAIT` with `MAPPED_TRAIT_URI`. URIs never hold a comma, labels may, so labels are paired
 * with URIs only when the counts agree; otherwise a single URI takes the whole label, and several
 * take their short forms.
 */
export function parseTraits(labels: string, uris: string): TraitRef[] {
  const us = list(uris).filter((u) => /^https?:\/\//.test(u));
  if (us.length === 0) return [];
  const ls = list(labels);
  return us.map((uri, i) => {
    const shortForm = shortFormOf(uri);
    const label = ls.length === us.length ? (ls[i] as string) : us.length === 1 && labels.trim() ? labels.trim() : shortForm;
    return { label, uri, shortForm };
  });
}
