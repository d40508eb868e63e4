/**
 * Unpublished studies, their ancestries and bodies of work in API v2's shape, from the catalog's
 * unpublished-studies and -ancestries downloads. What those files do not carry (CC0 agreement,
 * imputation, array information, assembly, GCP ids, publication dates) is left out.
 */
import { href, templated } from './hal.js';
import { summaryStatsFolder } from './render.js';

type Json = Record<string, unknown>;

const seg = encodeURIComponent;

export const unpublishedHref = (base: string, acc: string) => `${base}/unpublished-studies/${seg(acc)}`;
export const bowHref = (base: string, id: number) => `${base}/body-of-works/${id}`;

/** The order the service writes an unpublished study's fields in. */
const ORDER = [
  'genotyping_technology',
  'study_accession',
  'array_manufacturer',
  'variant_count',
  'full_summary_stats',
  'statistical_model',
  'disease_trait',
  'background_trait',
  'cohort',
  'title',
  'first_Author',
];

export function renderUnpublished(doc: Json, bow: { id: number; doc: Json } | undefined, base: string): Json {
  const acc = String(doc.study_accession);
  const all: Json = { ...doc, full_summary_stats: summaryStatsFolder(acc), title: bow?.doc.title, first_Author: bow?.doc.first_author };
  const out: Json = {};
  for (const k of ORDER) if (all[k] !== undefined && all[k] !== null) out[k] = all[k];
  const self = unpublishedHref(base, acc);
  const links: Json = { self: href(self), ancestries: templated(`${self}/unpublished-ancestries{?sort,direction}`) };
  if (bow) links.body_of_work = href(bowHref(base, bow.id));
  out._links = links;
  return out;
}

export function renderUnpublishedAncestry(acc: string, id: number, doc: Json, base: string): Json {
  return { ...doc, _links: { self: href(`${unpublishedHref(base, acc)}/unpublished-ancestries/${id}`) } };
}

export function renderBodyOfWork(id: number, doc: Json, base: string): Json {
  const self = bowHref(base, id);
  return { ...doc, _links: { self: href(self), body_of_works: templated(`${self}/unpublished-studies{?page,size,sort}`) } };
}
