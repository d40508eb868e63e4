/**
 * The summary-statistics service's HAL shapes: associations under `_embedded.associations` as an
 * object keyed "0", "1", ... (as the real service writes them), each with links to its trait, study
 * and variant; lists link `self`, `first`, and `prev`/`next` where they exist.
 */
import type { Window } from './params.js';
import { CHROM_SHIFT } from './ingest.js';
import { pText } from './pvalue.js';
import type { AssocRow, Study } from './reader.js';

type Json = Record<string, unknown>;

const href = (h: string) => ({ href: h });
const enc = encodeURIComponent;

export function chromosomeOf(k: number): number {
  return Math.floor(k / CHROM_SHIFT);
}

export function renderAssociation(r: AssocRow, study: Study | undefined, sbase: string): Json {
  const chromosome = chromosomeOf(r.k);
  const acc = study?.acc ?? '';
  const trait = study?.traits[0] ?? null;
  const variant = `${sbase}/chromosomes/${chromosome}/associations/${enc(r.vid)}`;
  const links: Json = {};
  if (trait) links.trait = href(`${sbase}/traits/${enc(trait)}`);
  links.study = href(`${sbase}/studies/${enc(acc)}`);
  links.self = href(`${variant}?study_accession=${enc(acc)}`);
  links.variant = href(variant);
  return {
    p_value: pText(r.pm, r.pe),
    odds_ratio: r.odds,
    effect_allele_frequency: r.eaf,
    chromosome,
    beta: r.beta,
    other_allele: r.oa,
    ci_upper: r.ci_u,
    study_accession: acc,
    effect_allele: r.ea,
    variant_id: r.vid,
    // The harmonisation code of harmonised files; GWAS-SSF files carry none.
    code: null,
    ci_lower: r.ci_l,
    base_pair_location: r.k % CHROM_SHIFT,
    standard_error: r.se,
    trait,
    _links: links,
  };
}

export interface ListPlace {
  /** The list's URL without query. */
  path: string;
  /** Parameters to repeat in its links (filters), in the order given. */
  params: [string, string][];
  window: Window;
  /** Whether items follow this page. */
  more: boolean;
}

function withParams(l: ListPlace, extra: [string, number][]): string {
  const q = [...l.params.map(([k, v]) => `${enc(k)}=${enc(v)}`), ...extra.map(([k, v]) => `${k}=${v}`)];
  return q.length ? `${l.path}?${q.join('&')}` : l.path;
}

export function listLinks(l: ListPlace): Json {
  const { offset, size, by } = l.window;
  const at = (o: number): [string, number][] =>
    by === 'start'
      ? [
          ['start', o],
          ['size', size],
        ]
      : [
          ['page', Math.floor(o / size)],
          ['size', size],
        ];
  const links: Json = { self: href(withParams(l, [])), first: href(withParams(l, at(0))) };
  if (offset > 0) links.prev = href(withParams(l, at(Math.max(0, offset - size))));
  if (l.more) links.next = href(withParams(l, at(offset + size)));
  return links;
}

export function associationList(rows: AssocRow[], studies: Map<number, Study>, sbase: string, place: ListPlace): Json {
  const items: Json = {};
  rows.forEach((r, i) => {
    items[String(i)] = renderAssociation(r, studies.get(r.sid), sbase);
  });
  return { _embedded: { associations: items }, _links: listLinks(place) };
}

/** A study as the service lists it: under its (first) trait, with a link to the catalog's study. */
export function renderStudy(s: Study, trait: string | undefined, sbase: string, catalogBase: string): Json {
  const own = trait ? `${sbase}/traits/${enc(trait)}/studies/${enc(s.acc)}` : `${sbase}/studies/${enc(s.acc)}`;
  const links: Json = { associations: href(`${own}/associations`), self: href(own) };
  if (trait) links.trait = href(`${sbase}/traits/${enc(trait)}`);
  links.gwas_catalog = href(`${catalogBase}/studies/${enc(s.acc)}`);
  return { study_accession: s.acc, _links: links };
}

export function renderTrait(trait: string, sbase: string): Json {
  const self = `${sbase}/traits/${enc(trait)}`;
  return {
    trait,
    _links: {
      studies: href(`${self}/studies`),
      associations: href(`${self}/associations`),
      self: href(self),
      // The ontology service is outside this mirror: the link keeps its public address.
      ols: href(`https://www.ebi.ac.uk/ols/api/terms?id=${enc(trait)}`),
    },
  };
}

export function renderChromosome(name: string | number, n: number, sbase: string): Json {
  return {
    _links: { self: href(`${sbase}/chromosomes/${n}`), associations: href(`${sbase}/chromosomes/${n}/associations`) },
    chromosome: name,
  };
}
