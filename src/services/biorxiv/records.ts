/**
 * Records as the API returns them, checked and put in the upstream's field order. Two kinds come
 * in saved pages: preprint versions (`details`) and publication links (`pubs`).
 */
import { categoryKey } from './categories.js';

/** One version of a preprint, ready to store. */
export interface Paper {
  /** Lower case: DOIs are case-insensitive. */
  doiKey: string;
  doi: string;
  version: number;
  date: string;
  category: string;
  /** The record as served (JSON text); its jatsxml is a path below the site, see `siteLink`. */
  doc: string;
}

/** A preprint's journal publication, as `pubs` lists it. */
export interface Pub {
  preprintDoiKey: string;
  publishedDoiKey: string;
  publishedDate: string;
  doc: string;
}

// The field order of a real `details` record; `funder` (newer records) sits before `published`.
const PAPER_FIELDS = ['doi', 'title', 'authors', 'author_corresponding', 'author_corresponding_institution', 'date', 'version', 'type', 'license', 'category', 'jatsxml', 'abstract'] as const;

export const PUB_FIELDS = [
  'preprint_doi',
  'published_doi',
  'published_journal',
  'preprint_platform',
  'preprint_title',
  'preprint_authors',
  'preprint_category',
  'preprint_date',
  'published_date',
  'preprint_abstract',
  'preprint_author_corresponding',
  'preprint_author_corresponding_institution',
] as const;

export const DOI = /^10\.\d{4,9}\/\S+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written YYYY-MM-DD. */
export function isDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value;
}

/** The path of a version's JATS XML below the site; the served record gets the site's origin in front. */
export function jatsPath(doi: string, version: number): string {
  return `/content/${doi}v${version}.source.xml`;
}

type Obj = Record<string, unknown>;

/** Every spec field is a string: numbers are written out, absent ones are empty. */
function text(rec: Obj, key: string): string | { bad: string } {
  const v = rec[key];
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return { bad: `field "${key}" is not a string` };
}

function otherServer(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return value.toLowerCase() === 'biorxiv' ? undefined : value;
}

/** Checks one `details` record; returns why it cannot be loaded instead when it cannot. */
export function toPaper(rec: Obj): Paper | string {
  const doi = typeof rec.doi === 'string' ? rec.doi.trim() : '';
  if (!DOI.test(doi)) return `malformed doi "${String(rec.doi)}"`;
  const v = typeof rec.version === 'number' ? String(rec.version) : rec.version;
  if (typeof v !== 'string' || !/^[1-9]\d{0,5}$/.test(v.trim())) return `${doi}: malformed version "${String(rec.version)}"`;
  const version = Number(v.trim());
  const date = typeof rec.date === 'string' ? rec.date.trim() : '';
  if (!isDate(date)) return `${doi}: malformed date "${String(rec.date)}" (expected YYYY-MM-DD)`;
  const server = otherServer(rec.server);
  if (server) return `${doi}: a ${server} record (this service serves bioRxiv)`;

  const out: Obj = {};
  for (const key of PAPER_FIELDS) {
    const t = text(rec, key);
    if (typeof t !== 'string') return `${doi}: ${t.bad}`;
    out[key] = t;
  }
  out.doi = doi;
  out.date = date;
  out.version = String(version);
  out.jatsxml = jatsPath(doi, version);
  if ('funder' in rec) out.funder = rec.funder;
  const published = text(rec, 'published');
  if (typeof published !== 'string') return `${doi}: ${published.bad}`;
  // The spec: empty when unpublished (the upstream writes "NA").
  out.published = published === 'NA' ? '' : published;
  out.server = 'biorxiv';
  for (const [k, val] of Object.entries(rec)) if (!(k in out)) out[k] = val;
  return { doiKey: doi.toLowerCase(), doi, version, date, category: categoryKey(out.category as string), doc: JSON.stringify(out) };
}

/** Checks one `pubs` record (the older `pub` endpoint's `biorxiv_doi` is read as `preprint_doi`). */
export function toPub(rec: Obj): Pub | string {
  const raw = rec.preprint_doi ?? rec.biorxiv_doi;
  const doi = typeof raw === 'string' ? raw.trim() : '';
  if (!DOI.test(doi)) return `malformed preprint_doi "${String(raw)}"`;
  const published = typeof rec.published_doi === 'string' ? rec.published_doi.trim() : '';
  if (!DOI.test(published)) return `${doi}: malformed published_doi "${String(rec.published_doi)}"`;
  const date = typeof rec.published_date === 'string' ? rec.published_date.trim() : '';
  if (!isDate(date)) return `${doi}: malformed published_date "${String(rec.published_date)}" (expected YYYY-MM-DD)`;
  const server = otherServer(rec.preprint_platform);
  if (server) return `${doi}: a ${server} record (this service serves bioRxiv)`;

  const out: Obj = {};
  for (const key of PUB_FIELDS) {
    const t = key === 'preprint_doi' ? doi : text(rec, key);
    if (typeof t !== 'string') return `${doi}: ${t.bad}`;
    out[key] = t;
  }
  out.published_doi = published;
  out.published_date = date;
  if (out.preprint_platform === '') out.preprint_platform = 'bioRxiv';
  for (const [k, val] of Object.entries(rec)) if (!(k in out) && k !== 'biorxiv_doi') out[k] = val;
  return { preprintDoiKey: doi.toLowerCase(), publishedDoiKey: published.toLowerCase(), publishedDate: date, doc: JSON.stringify(out) };
}

/** Which kind of record a parsed value is, by its keys. */
export function recordKind(value: unknown): 'paper' | 'pub' | string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  const rec = value as Obj;
  if ('doi' in rec) return 'paper';
  if ('preprint_doi' in rec || 'biorxiv_doi' in rec || 'published_doi' in rec) return 'pub';
  return 'neither a preprint record (doi, version, date, ...) nor a publication record (preprint_doi, published_doi, published_date, ...)';
}
