/**
 * Generated bioRxiv records for tests and benchmarks, in the API's shape. Everything is generated:
 * DOIs use the prefix 10.5555 (reserved for examples and tests, so no real preprint has one), and
 * titles, authors and abstracts say so.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const CATEGORY_NAMES = [
  'animal behavior and cognition',
  'biochemistry',
  'bioengineering',
  'bioinformatics',
  'biophysics',
  'cancer biology',
  'cell biology',
  'clinical trials',
  'developmental biology',
  'ecology',
  'epidemiology',
  'evolutionary biology',
  'genetics',
  'genomics',
  'immunology',
  'microbiology',
  'molecular biology',
  'neuroscience',
  'paleontology',
  'pathology',
  'pharmacology and toxicology',
  'physiology',
  'plant biology',
  'scientific communication and education',
  'synthetic biology',
  'systems biology',
  'zoology',
];

const WORDS = (
  'cell gene protein signal pathway network model tissue neuron receptor membrane expression variant genome ' +
  'sequence structure binding activity response regulation development growth stress imaging analysis method ' +
  'population evolution selection function mechanism circuit behavior metabolism enzyme transcription'
).split(' ');
const SURNAMES = ['Generated', 'Synthetic', 'Example', 'Sample', 'Placeholder', 'Fixture', 'Mock', 'Dummy'];

export interface GenOptions {
  /** Posting date of paper 0 (YYYY-MM-DD). */
  start?: string;
  /** Papers first posted per day. */
  perDay?: number;
  /** Varies the text only; DOIs and dates depend on the paper number alone. */
  seed?: number;
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function words(seed: number, n: number): string {
  let x = seed >>> 0 || 1;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out.push(WORDS[(x >>> 8) % WORDS.length] as string);
  }
  return out.join(' ');
}

/** Every fourth paper has a second version, posted two weeks after the first. */
export const versionsOf = (p: number): number => (p % 4 === 3 ? 2 : 1);
/** Every fifth paper is published in a (generated) journal. */
export const isPublished = (p: number): boolean => p % 5 === 0;
export const categoryOf = (p: number): string => CATEGORY_NAMES[p % CATEGORY_NAMES.length] as string;

export function postedOn(p: number, version: number, opts: GenOptions = {}): string {
  const first = addDays(opts.start ?? '2020-01-01', Math.floor(p / (opts.perDay ?? 50)));
  return version === 1 ? first : addDays(first, 14 * (version - 1));
}

export function doiOf(p: number, opts: GenOptions = {}): string {
  return `10.5555/${postedOn(p, 1, opts).replace(/-/g, '.')}.${String(p).padStart(6, '0')}`;
}

export const publishedDoiOf = (p: number): string => `10.5555/generated-journal.${p}`;

/** One version of paper `p`, as a `details` record. */
export function paperRecord(p: number, version: number, opts: GenOptions = {}): Record<string, string> {
  const doi = doiOf(p, opts);
  const seed = p * 31 + (opts.seed ?? 1);
  return {
    doi,
    title: `Generated preprint ${p}: ${words(seed, 6)}`,
    authors: `${SURNAMES[p % 8]}, A.; ${SURNAMES[(p + 3) % 8]}, B. C.; ${SURNAMES[(p + 5) % 8]}, D.`,
    author_corresponding: `A. ${SURNAMES[p % 8]}`,
    author_corresponding_institution: 'Generated Institute of Test Data',
    date: postedOn(p, version, opts),
    version: String(version),
    type: 'new results',
    license: p % 3 === 0 ? 'cc_by' : 'cc_by_nc_nd',
    category: categoryOf(p),
    jatsxml: `https://www.biorxiv.org/content/early/${postedOn(p, version, opts).replace(/-/g, '/')}/${p}.source.xml`,
    abstract: `Generated record, not a real preprint. ${words(seed + version, 120)}.`,
    published: isPublished(p) ? publishedDoiOf(p) : 'NA',
    server: 'biorxiv',
  };
}

/** The `pubs` record of a published paper: in the journal 60 days after its first version. */
export function pubRecord(p: number, opts: GenOptions = {}): Record<string, string> {
  const r = paperRecord(p, 1, opts);
  return {
    preprint_doi: r.doi as string,
    published_doi: publishedDoiOf(p),
    published_journal: 'Journal of Generated Results',
    preprint_platform: 'bioRxiv',
    preprint_title: r.title as string,
    preprint_authors: r.authors as string,
    preprint_category: r.category as string,
    preprint_date: r.date as string,
    published_date: addDays(r.date as string, 60),
    preprint_abstract: r.abstract as string,
    preprint_author_corresponding: r.author_corresponding as string,
    preprint_author_corresponding_institution: r.author_corresponding_institution as string,
  };
}

/** The first `n` version records, paper by paper (so a second version comes before papers posted earlier than it). */
export function* papers(n: number, opts: GenOptions = {}): Generator<Record<string, string>> {
  let made = 0;
  for (let p = 0; made < n; p++) {
    for (let v = 1; v <= versionsOf(p) && made < n; v++, made++) yield paperRecord(p, v, opts);
  }
}

/** How many papers the first `n` version records cover. */
export function paperCount(n: number): number {
  let made = 0;
  let p = 0;
  for (; made < n; p++) made += versionsOf(p);
  return p;
}

/** Writes records as saved API pages of `perPage` records: `{dir}/{name}-{k}.json`. Returns the files. */
export function writePages(dir: string, name: string, records: Iterable<Record<string, string>>, perPage = 100): string[] {
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  let batch: Record<string, string>[] = [];
  let cursor = 0;
  const flush = () => {
    if (!batch.length) return;
    const file = join(dir, `${name}-${String(files.length).padStart(6, '0')}.json`);
    const messages = [{ status: 'ok', cursor, count: batch.length }];
    writeFileSync(file, JSON.stringify({ messages, collection: batch }));
    files.push(file);
    cursor += batch.length;
    batch = [];
  };
  for (const r of records) {
    batch.push(r);
    if (batch.length >= perPage) flush();
  }
  flush();
  return files;
}
