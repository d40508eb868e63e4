/**
 * The path grammar of `/details/{server}/...` and `/pubs/{server}/...`. What follows the server is
 * an interval (or a DOI), then optionally a category (details only; the spec's form), a cursor
 * and a format (the upstream's form):
 *
 *   {start}/{end}[/{category}][/{cursor}[/{format}]]    dates YYYY-MM-DD
 *   {N}[/{cursor}[/{format}]]                            details: the N newest records; pubs: N days back (the spec)
 *   {N}d[/{cursor}[/{format}]]                           the last N days
 *   {doi}[/na[/{format}]]                                one preprint, every version
 *
 * The form is chosen by the first segment, from a table; each form reads its own segments.
 */
import type { Query } from '../../core/http/params.js';
import { first } from '../../core/http/params.js';
import { CATEGORIES, knownCategory } from './categories.js';
import { bxErrors } from './errors.js';
import { DOI, isDate } from './records.js';
import type { Format } from './render.js';

export type Endpoint = 'details' | 'pubs';

export type Interval = { kind: 'range'; from: string; to: string } | { kind: 'newest'; count: number } | { kind: 'days'; days: number };

export type Request = { op: 'list'; interval: Interval; category: string | undefined; cursor: number; format: Format } | { op: 'doi'; doi: string; format: Format };

const MAX_DAYS = 100_000;
const FORMATS = new Set(['json', 'xml']);
const isNumber = (s: string) => /^\d+$/.test(s);
const categoryList = CATEGORIES.join(', ');

class Reader {
  private i = 0;
  constructor(
    readonly segments: string[],
    readonly format: Format,
  ) {}

  peek(): string | undefined {
    return this.segments[this.i];
  }

  next(): string | undefined {
    return this.segments[this.i++];
  }

  fail(reason: string): never {
    throw bxErrors.invalid(reason, this.format);
  }

  /** Nothing may follow what was read. */
  end(): void {
    const rest = this.segments.slice(this.i);
    if (rest.length) this.fail(`unexpected path segment "${rest.join('/')}" after the ${this.i === 0 ? 'server' : `"${this.segments.slice(0, this.i).join('/')}"`}`);
  }
}

function date(r: Reader, which: string): string {
  const d = r.next();
  if (d === undefined) r.fail(`missing ${which} date: expected {start}/{end} as YYYY-MM-DD/YYYY-MM-DD`);
  if (!isDate(d)) r.fail(`invalid ${which} date "${d}": expected a calendar date as YYYY-MM-DD`);
  return d;
}

function positive(r: Reader, s: string, what: string, max: number): number {
  const n = Number(s);
  if (!Number.isSafeInteger(n) || n < 1 || n > max) r.fail(`invalid ${what} "${s}": expected a whole number from 1 to ${max}`);
  return n;
}

/** The optional category, cursor and format after a list's interval. */
function listTail(r: Reader, endpoint: Endpoint, interval: Interval, q: Query): Request {
  let category: string | undefined;
  const seg = r.peek();
  if (seg !== undefined && !isNumber(seg) && !/^[-+]?\d/.test(seg) && !FORMATS.has(seg.toLowerCase())) {
    r.next();
    if (endpoint === 'pubs') r.fail(`unexpected path segment "${seg}": pubs take {interval}/{cursor}/{format}, with no category`);
    category = knownCategory(seg);
    if (!category) r.fail(`invalid category "${seg}": expected one of ${categoryList}`);
  }
  let cursor = 0;
  const c = r.peek();
  if (c !== undefined && !FORMATS.has(c.toLowerCase())) {
    r.next();
    if (!isNumber(c) || !Number.isSafeInteger(Number(c))) r.fail(`invalid cursor "${c}": expected 0 or a positive whole number (the index of the first record)`);
    cursor = Number(c);
  }
  const f = r.next();
  const format = f === undefined ? 'json' : (f.toLowerCase() as Format);
  if (f !== undefined && !FORMATS.has(format)) r.fail(`invalid format "${f}": expected json or xml`);
  r.end();

  const given = first(q, 'category');
  if (given !== undefined) {
    if (endpoint === 'pubs') r.fail('the category parameter is not a filter of pubs');
    const fromQuery = knownCategory(given);
    if (!fromQuery) r.fail(`invalid category "${given}": expected one of ${categoryList} (spaces or underscores for the hyphens also do)`);
    if (category !== undefined && category !== fromQuery) r.fail(`two different categories: "${category}" in the path and "${given}" in the query`);
    category = fromQuery;
  }
  return { op: 'list', interval, category, cursor, format };
}

interface Form {
  /** Whether the first segment after the server starts this form. */
  starts(segment: string): boolean;
  read(r: Reader, endpoint: Endpoint, q: Query): Request;
}

const FORMS: Form[] = [
  {
    starts: (s) => /^10\.\d+$/.test(s),
    read(r) {
      const doi = `${r.next() as string}/${r.next() ?? ''}`;
      if (!DOI.test(doi)) r.fail(`invalid DOI "${doi}": expected e.g. 10.1101/339747`);
      const na = r.peek();
      if (na !== undefined && (na.toLowerCase() === 'na' || isNumber(na))) r.next();
      const f = r.next();
      const format = f === undefined ? 'json' : (f.toLowerCase() as Format);
      if (f !== undefined && !FORMATS.has(format)) r.fail(`invalid format "${f}": expected json or xml (as in {doi}/na/json)`);
      r.end();
      return { op: 'doi', doi, format };
    },
  },
  {
    starts: (s) => /^\d{4}-\d{1,2}-\d{1,2}$/.test(s),
    read(r, endpoint, q) {
      const from = date(r, 'start');
      const to = date(r, 'end');
      if (from > to) r.fail(`the start date ${from} is after the end date ${to}`);
      return listTail(r, endpoint, { kind: 'range', from, to }, q);
    },
  },
  {
    starts: (s) => /^\d+d$/i.test(s),
    read(r, endpoint, q) {
      const days = positive(r, (r.next() as string).slice(0, -1), 'number of days', MAX_DAYS);
      return listTail(r, endpoint, { kind: 'days', days }, q);
    },
  },
  {
    starts: isNumber,
    read(r, endpoint, q) {
      const s = r.next() as string;
      // The spec gives pubs' interval as "days back"; for details the upstream reads N as the N newest posts.
      const interval: Interval = endpoint === 'pubs' ? { kind: 'days', days: positive(r, s, 'number of days', MAX_DAYS) } : { kind: 'newest', count: positive(r, s, 'number of records', 1e9) };
      return listTail(r, endpoint, interval, q);
    },
  },
];

/** Reads the segments after `/{endpoint}/{server}/` into a request, or throws the service's error naming the wrong part. */
export function parseRequest(endpoint: Endpoint, segments: string[], q: Query): Request {
  const segs = segments.length && segments[segments.length - 1] === '' ? segments.slice(0, -1) : segments;
  const format: Format = segs[segs.length - 1]?.toLowerCase() === 'xml' ? 'xml' : 'json';
  const r: Reader = new Reader(segs, format);
  const head = r.peek();
  if (head === undefined || head === '') {
    r.fail(`missing interval: expected /${endpoint}/biorxiv/{start}/{end}, /${endpoint}/biorxiv/{N}, /${endpoint}/biorxiv/{N}d or /${endpoint}/biorxiv/{doi}`);
  }
  const form = FORMS.find((f) => f.starts(head));
  if (!form) {
    r.fail(
      `invalid interval "${head}": expected two dates (YYYY-MM-DD/YYYY-MM-DD), a number (${endpoint === 'pubs' ? 'days back' : 'the N newest posts'}), a number of days (e.g. 7d) or a DOI (e.g. 10.1101/339747)`,
    );
  }
  return form.read(r, endpoint, q);
}

/** The server segment: only bioRxiv is served (upstream letters may be in either case). */
export function checkServer(server: string, segments: string[]): void {
  if (server.toLowerCase() === 'biorxiv') return;
  const format: Format = segments[segments.length - 1]?.toLowerCase() === 'xml' ? 'xml' : 'json';
  throw bxErrors.invalid(`unknown server "${server}": this service serves biorxiv`, format);
}
