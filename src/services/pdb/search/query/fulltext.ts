/**
 * `full_text`: every word of the value must occur in the entry's documents (entry, entities,
 * chains, assemblies: any full-text attribute). Score: Σ over words of idf × (1 + ln tf), with
 * idf = ln(1 + entries / entries holding the word). Read from the per-entry word table built at
 * load (each word's weight in each entry stored, each word's entry count beside it): the rarest
 * word's entries are the candidates, each other word one index lookup per candidate. A lone
 * word's entries are also indexed by weight: its score is the weight times one idf, so that index
 * reads them in rank order, and the word table counts them.
 */
import { tokens } from '../attributes.js';
import type { SearchScope } from './engine.js';
import { badQuery } from '../../errors.js';
import { perGeneration } from '../generation-cache.js';
import type { SearchTables } from '../build/indexer.js';
import type { ReturnType } from './request.js';
import { RETURN_KIND } from './returns.js';
import { sql, sqlText, type Sql } from '../../../../core/store/sql.js';

/** Words per query at most (each is one index lookup per candidate). */
const MAX_WORDS = 32;

/** The words of a `full_text` value (boolean operators are not words). */
export function fullTextWords(value: unknown): string[] {
  if (typeof value !== 'string') throw badQuery('full_text takes a string value');
  const words = [...new Set(tokens(value.replace(/\b(AND|OR|NOT)\b/g, ' ')))];
  if (words.length === 0) throw badQuery('full_text needs at least one word');
  if (words.length > MAX_WORDS) throw badQuery(`full_text takes at most ${MAX_WORDS} words`);
  return words;
}

const entryCounts = perGeneration<number>();
const entryCount = (s: SearchScope, n: SearchTables) =>
  entryCounts(s.db, n.sobj, async () => Number((await s.db.one<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${n.sobj} WHERE kind = 'entry'`))?.n ?? 1));

/**
 * A lone word's entries in rank order (score descending, then identifier), read from the index by
 * weight without sorting: `list` (rows `id`, `score`; a window may follow) and `count` (rows `n`,
 * `top`), both as the general statements would answer them.
 */
export interface RankedRead {
  count: Sql;
  list: Sql;
}

/**
 * Rows `(id, score)` of the return type's objects whose entry holds every word (an object scores
 * as its entry; a chemical component as its best entry), or undefined when none can; `ranked`
 * beside them for a lone word on entries.
 */
export async function fullTextSql(s: SearchScope, words: string[], rt: ReturnType): Promise<(Sql & { ranked?: RankedRead }) | undefined> {
  const n = s.archive;
  if (!n) return undefined;
  const marks = words.map(() => '?').join(',');
  const df = new Map<string, number>();
  for (const r of await s.db.query<{ tok: string; df: number | string }>(`SELECT tok, df FROM ${n.sdf} WHERE tok IN (${marks})`, words)) df.set(r.tok, Number(r.df));
  if (df.size < words.length) return undefined;
  const total = await entryCount(s, n);
  // The rarest word first: its entries are the candidates the others are looked up for.
  const order = [...words].sort((a, b) => (df.get(a) as number) - (df.get(b) as number));
  // Bound, not written in: one statement text (prepared once) for every word of a shape.
  const idf = (w: string) => Math.log(1 + total / (df.get(w) as number));
  let score = sql`f0.w * ${idf(order[0] as string)}`;
  let joins = sqlText('');
  order.slice(1).forEach((w, i) => {
    const f = sqlText(`f${i + 1}`);
    score = sql`${score} + ${f}.w * ${idf(w)}`;
    joins = sql`${joins} JOIN ${sqlText(n.sfts)} ${f} ON ${f}.tok = ${w} AND ${f}.entry_id = f0.entry_id`;
  });
  const first = order[0] as string;
  const entries = sql`SELECT f0.entry_id AS id, ${score} AS score FROM ${sqlText(n.sfts)} f0 ${joins} WHERE f0.tok = ${first}`;
  const target = RETURN_KIND[rt];
  if (target === 'entry' && words.length === 1) {
    // Ties in weight are ties in score: the index's order is the rank order.
    const list = sql`${entries} ORDER BY f0.w DESC, f0.entry_id`;
    const top = sql`SELECT f0.w * ${idf(first)} FROM ${sqlText(n.sfts)} f0 WHERE f0.tok = ${first} ORDER BY f0.w DESC LIMIT 1`;
    const count = sql`SELECT d.df AS n, (${top}) AS top FROM ${sqlText(n.sdf)} d WHERE d.tok = ${first}`;
    return { ...entries, ranked: { count, list } };
  }
  if (target === 'entry') return entries;
  if (target === 'mol_definition') {
    return sql`SELECT r.id AS id, MAX(e.score) AS score FROM (${entries}) e JOIN ${sqlText(n.sobj)} r ON r.entry_id = e.id AND r.kind = 'comp' GROUP BY r.id`;
  }
  return sql`SELECT r.id AS id, e.score AS score FROM (${entries}) e JOIN ${sqlText(n.sobj)} r ON r.entry_id = e.id AND r.kind = ${target}`;
}
