/**
 * Reads of one generation. Every list is a numbering built at load (see store.ts): a range of
 * dates is resolved to its first and last number by two index reads, and a page is a range of
 * numbers read by key, so a page costs the same at cursor 0 and at cursor 900,000.
 */
import type { TableSet } from '../../core/ingest/dataset.js';
import type { Db } from '../../core/store/db.js';
import { tablesOf } from './store.js';

/** A run of numbered records: positions first..last, dated fromDate..toDate. */
export interface Span {
  first: number;
  last: number;
  /** First versions among them (count_new_papers). */
  newCount: number;
  fromDate: string;
  toDate: string;
}

interface Row {
  pos: number;
  new_run: number;
  is_new: number;
  date: string;
}

/** The statements of one numbering; `scope` parameters (the category) come first in each. */
interface Numbering {
  first: string;
  last: string;
  at: string;
  max: string;
  page: string;
}

function numbering(order: string, docs: string, pos: string, date: string, runs: string, scope: string): Numbering {
  const where = scope ? `${scope} = ? AND ` : '';
  const cols = `${pos} AS pos, ${runs}, ${date} AS date`;
  return {
    first: `SELECT ${cols} FROM ${order} WHERE ${where}${date} >= ? ORDER BY ${date}, ${pos} LIMIT 1`,
    last: `SELECT ${cols} FROM ${order} WHERE ${where}${date} <= ? ORDER BY ${date} DESC, ${pos} DESC LIMIT 1`,
    at: `SELECT ${cols} FROM ${order} WHERE ${where}${pos} = ?`,
    max: `SELECT ${cols} FROM ${order} ${scope ? `WHERE ${scope} = ? ` : ''}ORDER BY ${pos} DESC LIMIT 1`,
    page: `SELECT d.doc FROM ${order} o JOIN ${docs} d ON d.rid = o.rid WHERE ${scope ? `o.${scope} = ? AND ` : ''}o.${pos} >= ? AND o.${pos} <= ? ORDER BY o.${pos}`,
  };
}

export interface Queries {
  papers: Numbering;
  papersIn: Numbering;
  pubs: Numbering;
  paperByDoi: string;
  pubByPreprint: string;
  pubByPublished: string;
  file: string;
}

const byGeneration = new Map<number, Queries>();

export function queriesOf(t: TableSet): Queries {
  const hit = byGeneration.get(t.gen);
  if (hit) return hit;
  const n = tablesOf(t);
  const q: Queries = {
    papers: numbering(n.paperOrder, n.papers, 'id', 'date', 'new_run, is_new', ''),
    papersIn: numbering(n.paperOrder, n.papers, 'cseq', 'date', 'cnew_run AS new_run, is_new', 'category'),
    pubs: numbering(n.pubOrder, n.pubs, 'id', 'published_date', '0 AS new_run, 0 AS is_new', ''),
    paperByDoi: `SELECT doc FROM ${n.papers} WHERE doi = ? ORDER BY version`,
    pubByPreprint: `SELECT doc FROM ${n.pubs} WHERE preprint_doi = ?`,
    pubByPublished: `SELECT doc FROM ${n.pubs} WHERE published_doi = ? ORDER BY preprint_doi`,
    file: `SELECT content FROM ${n.files} WHERE doi = ? AND version = ? AND kind = ?`,
  };
  if (byGeneration.size > 16) byGeneration.clear();
  byGeneration.set(t.gen, q);
  return q;
}

const HOT = { hot: true };

function toSpan(a: Row, b: Row): Span {
  return {
    first: Number(a.pos),
    last: Number(b.pos),
    newCount: Number(b.new_run) - Number(a.new_run) + Number(a.is_new),
    fromDate: a.date,
    toDate: b.date,
  };
}

/** The records dated from..to (inclusive), or undefined when there are none. */
export async function spanByDate(db: Db, q: Numbering, scope: string[], from: string, to: string): Promise<Span | undefined> {
  const [a, b] = await Promise.all([db.one<Row>(q.first, [...scope, from], HOT), db.one<Row>(q.last, [...scope, to], HOT)]);
  if (!a || !b || Number(b.pos) < Number(a.pos)) return undefined;
  return toSpan(a, b);
}

/** The `count` newest records. */
export async function spanOfNewest(db: Db, q: Numbering, scope: string[], count: number): Promise<Span | undefined> {
  const b = await db.one<Row>(q.max, scope, HOT);
  if (!b) return undefined;
  const firstPos = Math.max(1, Number(b.pos) - count + 1);
  const a = await db.one<Row>(q.at, [...scope, firstPos], HOT);
  return a ? toSpan(a, b) : undefined;
}

/** The date of the newest record (the anchor of "the last N days"). */
export async function newestDate(db: Db, q: Numbering): Promise<string | undefined> {
  return (await db.one<Row>(q.max, [], HOT))?.date;
}

/** Records at positions first+cursor .. first+cursor+size-1 of a span, as stored JSON. */
export async function pageOf(db: Db, q: Numbering, scope: string[], span: Span, cursor: number, size: number): Promise<string[]> {
  const lo = span.first + cursor;
  const hi = Math.min(span.last, lo + size - 1);
  if (lo > hi) return [];
  return (await db.query<{ doc: string }>(q.page, [...scope, lo, hi], HOT)).map((r) => r.doc);
}

export async function docs(db: Db, sql: string, params: (string | number)[]): Promise<string[]> {
  return (await db.query<{ doc: string }>(sql, params, HOT)).map((r) => r.doc);
}

export async function fileContent(db: Db, q: Queries, doiKey: string, version: number, kind: string): Promise<Buffer | undefined> {
  const r = await db.one<{ content: Buffer | Uint8Array }>(q.file, [doiKey, version, kind], HOT);
  if (!r) return undefined;
  return Buffer.isBuffer(r.content) ? r.content : Buffer.from(r.content);
}
