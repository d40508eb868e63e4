/**
 * The search index of one generation of a database, the same on SQLite and PostgreSQL:
 * - rank (r, id, w): every record with its place in the default order (r = 1 first);
 * - post (f, t, r): one row per sub-field, term and record, clustered by (f, t, r), so that a term's
 *   records come out of the index already in the default order and a page is a range read;
 * - terms (f, t, n): how many records each term has (counts of single terms without a scan).
 * While loading, postings go unsorted into `rawpost` with record ids; `finishIndex` ranks the records
 * and writes the sorted index in one pass, which is much faster than keeping it sorted row by row.
 */
import type { TableSet } from '../../../core/ingest/dataset.js';
import { ident, type Db, type SqlValue } from '../../../core/store/db.js';
import type { Atom, CNode } from './fields.js';
import type { Sql } from '../../../core/store/sql.js';

export const INDEX_TABLES = ['rawpost', 'rank', 'post', 'terms'] as const;

export interface IndexTables {
  rawpost: string;
  rank: string;
  post: string;
  terms: string;
  /** The hot single-term queries of this generation, built once. */
  termCount: string;
  termPage: string;
  idsByRank: string;
}

const cache = new Map<string, IndexTables>();

export function indexTables(t: TableSet): IndexTables {
  const key = t.name('post');
  const hit = cache.get(key);
  if (hit) return hit;
  const n = { rawpost: t.name('rawpost'), rank: t.name('rank'), post: t.name('post'), terms: t.name('terms') };
  const out: IndexTables = {
    ...n,
    termCount: `SELECT n FROM ${ident(n.terms)} WHERE f = ? AND t = ?`,
    termPage: `SELECT k.id FROM ${ident(n.post)} p JOIN ${ident(n.rank)} k ON k.r = p.r WHERE p.f = ? AND p.t = ? ORDER BY p.r LIMIT ? OFFSET ?`,
    idsByRank: `SELECT id FROM ${ident(n.rank)} WHERE r = ?`,
  };
  if (cache.size > 64) cache.clear();
  cache.set(key, out);
  return out;
}

export async function createIndexTables(db: Db, n: IndexTables): Promise<void> {
  const unlogged = db.dialect === 'postgres' ? 'UNLOGGED ' : '';
  await db.exec(`CREATE ${unlogged}TABLE ${ident(n.rawpost)} (f INTEGER NOT NULL, t TEXT NOT NULL, id INTEGER NOT NULL)`);
}

export type Posting = readonly [field: number, term: string, id: number];

/**
 * The postings of a finished index as they were before `finishIndex` sorted them: an update starts
 * from the served generation's terms, drops those of the records it replaces and adds theirs anew.
 */
export async function reopenIndex(db: Db, from: IndexTables, to: IndexTables): Promise<void> {
  await db.run(`INSERT INTO ${ident(to.rawpost)} (f, t, id) SELECT p.f, p.t, k.id FROM ${ident(from.post)} p JOIN ${ident(from.rank)} k ON k.r = p.r`);
}

export async function addPostings(tx: Db, n: IndexTables, rows: readonly Posting[]): Promise<void> {
  if (rows.length) await tx.insertMany(n.rawpost, ['f', 't', 'id'], rows as unknown as SqlValue[][]);
}

/**
 * Ranks the records and writes the sorted index. `records` is a SELECT of (id, w) over every record;
 * `order` is the default order over those columns (e.g. `w DESC, id`).
 */
export async function finishIndex(db: Db, n: IndexTables, records: string, order: string): Promise<void> {
  const [rank, post, terms, raw] = [ident(n.rank), ident(n.post), ident(n.terms), ident(n.rawpost)];
  if (db.dialect === 'sqlite') {
    await db.exec(`
      CREATE TABLE ${rank} (r INTEGER PRIMARY KEY, id INTEGER NOT NULL, w INTEGER NOT NULL);
      INSERT INTO ${rank} (r, id, w) SELECT ROW_NUMBER() OVER (ORDER BY ${order}), id, w FROM (${records});
      CREATE UNIQUE INDEX ${ident(n.rank + '_id')} ON ${rank} (id);
      CREATE TABLE ${post} (f INTEGER NOT NULL, t TEXT NOT NULL, r INTEGER NOT NULL, PRIMARY KEY (f, t, r)) WITHOUT ROWID;
      INSERT INTO ${post} (f, t, r) SELECT DISTINCT p.f, p.t, k.r FROM ${raw} p JOIN ${rank} k ON k.id = p.id ORDER BY 1, 2, 3;
      CREATE TABLE ${terms} (f INTEGER NOT NULL, t TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (f, t)) WITHOUT ROWID;
      INSERT INTO ${terms} (f, t, n) SELECT f, t, COUNT(*) FROM ${post} GROUP BY f, t;
      DROP TABLE ${raw};
      ANALYZE ${rank}; ANALYZE ${post}; ANALYZE ${terms};
    `);
    return;
  }
  await db.exec(`
    CREATE TABLE ${rank} (r INTEGER PRIMARY KEY, id INTEGER NOT NULL, w INTEGER NOT NULL);
    INSERT INTO ${rank} (r, id, w) SELECT ROW_NUMBER() OVER (ORDER BY ${order}), id, w FROM (${records}) AS src;
    CREATE UNIQUE INDEX ${ident(n.rank + '_id')} ON ${rank} (id);
    CREATE TABLE ${post} (f INTEGER NOT NULL, t TEXT COLLATE "C" NOT NULL, r INTEGER NOT NULL);
    INSERT INTO ${post} (f, t, r) SELECT DISTINCT p.f, p.t, k.r FROM ${raw} p JOIN ${rank} k ON k.id = p.id ORDER BY 1, 2, 3;
    CREATE UNIQUE INDEX ${ident(n.post + '_ftr')} ON ${post} (f, t, r);
    CREATE TABLE ${terms} (f INTEGER NOT NULL, t TEXT COLLATE "C" NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (f, t));
    INSERT INTO ${terms} (f, t, n) SELECT f, t, COUNT(*) FROM ${post} GROUP BY f, t;
    DROP TABLE ${raw};
    ANALYZE ${rank}; ANALYZE ${post}; ANALYZE ${terms};
  `);
}

/** The first string after every string that starts with `p` (for prefix ranges). */
function after(p: string): string {
  const last = p.charCodeAt(p.length - 1);
  return p.slice(0, -1) + String.fromCharCode(last + 1);
}

function marks(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

function atomWhere(a: Atom, alias: string): Sql {
  const f = a.fields.length === 1 ? `${alias}.f = ?` : `${alias}.f IN (${marks(a.fields.length)})`;
  if (a.prefix) {
    const t = a.terms[0] ?? '';
    return { sql: `${f} AND ${alias}.t >= ? AND ${alias}.t < ?`, params: [...a.fields, t, after(t)] };
  }
  const t = a.terms.length === 1 ? `${alias}.t = ?` : `${alias}.t IN (${marks(a.terms.length)})`;
  return { sql: `${f} AND ${t}`, params: [...a.fields, ...a.terms] };
}

/** Whether an atom is one term of one sub-field: its records are one index range without duplicates. */
function single(a: Atom): boolean {
  return a.fields.length === 1 && a.terms.length === 1 && !a.prefix;
}

// Per database handle (tests and tools may hold several), per generation table.
const termCountCaches = new WeakMap<Db, Map<string, Map<number, number>>>();
const totalCaches = new WeakMap<Db, Map<string, number>>();

function cacheOf<V>(caches: WeakMap<Db, Map<string, V>>, db: Db): Map<string, V> {
  let c = caches.get(db);
  if (!c) caches.set(db, (c = new Map()));
  return c;
}

export class Searcher {
  private readonly post: string;
  private readonly rank: string;
  private readonly terms: string;
  constructor(
    private readonly db: Db,
    readonly n: IndexTables,
  ) {
    this.post = ident(n.post);
    this.rank = ident(n.rank);
    this.terms = ident(n.terms);
  }

  /** Records of a term summed over its sub-fields: exact for a single term, an upper bound otherwise. */
  async estimate(node: CNode): Promise<number> {
    if (node.k === 'uid') return node.ids.length;
    if (node.k === 'atom') {
      if (single(node)) {
        const r = await this.db.one<{ n: number }>(this.n.termCount, [node.fields[0] as number, node.terms[0] as string], { hot: true });
        return Number(r?.n ?? 0);
      }
      const w = atomWhere(node, 'x');
      const r = await this.db.one<{ n: number | null }>(`SELECT SUM(x.n) AS n FROM ${this.terms} x WHERE ${w.sql}`, w.params);
      return Number(r?.n ?? 0);
    }
    if (node.k === 'not') return this.estimate(node.a);
    const parts = await Promise.all(node.c.map((c) => this.estimate(c)));
    return node.k === 'and' ? Math.min(...parts) : parts.reduce((a, b) => a + b, 0);
  }

  private async set(node: CNode): Promise<Sql> {
    if (node.k === 'uid') {
      if (node.ids.length === 0) return { sql: `SELECT r FROM ${this.rank} WHERE 1 = 0`, params: [] };
      return { sql: `SELECT r FROM ${this.rank} WHERE id IN (${marks(node.ids.length)})`, params: [...node.ids] };
    }
    if (node.k === 'atom') {
      const w = atomWhere(node, 'p');
      return { sql: `SELECT ${single(node) ? '' : 'DISTINCT '}p.r FROM ${this.post} p WHERE ${w.sql}`, params: w.params };
    }
    if (node.k === 'or') {
      const parts = await Promise.all(node.c.map((c) => this.set(c)));
      return { sql: parts.map((p) => `SELECT r FROM (${p.sql}) u`).join(' UNION '), params: parts.flatMap((p) => p.params) };
    }
    if (node.k === 'not') {
      const a = await this.set(node.a);
      const b = this.pred(node.b, 'd');
      return { sql: `SELECT d.r FROM (${a.sql}) d WHERE NOT ${b.sql}`, params: [...a.params, ...b.params] };
    }
    // AND: read the smallest part and probe the others for each of its records.
    const sizes = await Promise.all(node.c.map((c) => (c.k === 'not' ? Infinity : this.estimate(c))));
    let best = 0;
    sizes.forEach((s, i) => {
      if (s < (sizes[best] as number)) best = i;
    });
    const driver = await this.set(node.c[best] as CNode);
    const preds = node.c.filter((_, i) => i !== best).map((c) => this.pred(c, 'd'));
    return {
      sql: `SELECT d.r FROM (${driver.sql}) d WHERE ${preds.map((p) => p.sql).join(' AND ')}`,
      params: [...driver.params, ...preds.flatMap((p) => p.params)],
    };
  }

  /** A condition on `alias.r`: the record has the node's terms. */
  private pred(node: CNode, alias: string): Sql {
    if (node.k === 'uid') {
      if (node.ids.length === 0) return { sql: '1 = 0', params: [] };
      return { sql: `${alias}.r IN (SELECT r FROM ${this.rank} WHERE id IN (${marks(node.ids.length)}))`, params: [...node.ids] };
    }
    if (node.k === 'atom') {
      const w = atomWhere(node, 'q');
      return { sql: `EXISTS (SELECT 1 FROM ${this.post} q WHERE ${w.sql} AND q.r = ${alias}.r)`, params: w.params };
    }
    if (node.k === 'not') {
      const a = this.pred(node.a, alias);
      const b = this.pred(node.b, alias);
      return { sql: `(${a.sql} AND NOT ${b.sql})`, params: [...a.params, ...b.params] };
    }
    const parts = node.c.map((c) => this.pred(c, alias));
    return { sql: `(${parts.map((p) => p.sql).join(node.k === 'and' ? ' AND ' : ' OR ')})`, params: parts.flatMap((p) => p.params) };
  }

  async count(node: CNode): Promise<number> {
    if (node.k === 'atom' && single(node)) return this.estimate(node);
    if (node.k === 'uid') {
      if (!node.ids.length) return 0;
      const r = await this.db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM ${this.rank} WHERE id IN (${marks(node.ids.length)})`, node.ids);
      return Number(r?.n ?? 0);
    }
    const s = await this.set(node);
    const r = await this.db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM (${s.sql}) c`, s.params);
    return Number(r?.n ?? 0);
  }

  /** Record ids of one page in the default order. */
  async page(node: CNode, offset: number, limit: number): Promise<number[]> {
    if (limit <= 0) return [];
    if (node.k === 'atom' && single(node)) {
      const rows = await this.db.query<{ id: number }>(this.n.termPage, [node.fields[0] as number, node.terms[0] as string, limit, offset], { hot: true });
      return rows.map((r) => Number(r.id));
    }
    const s = await this.set(node);
    const rows = await this.db.query<{ id: number }>(`SELECT k.id FROM (${s.sql}) s JOIN ${this.rank} k ON k.r = s.r ORDER BY s.r LIMIT ? OFFSET ?`, [...s.params, limit, offset]);
    return rows.map((r) => Number(r.id));
  }

  /** Which of the ids are records of this generation, in the order given. */
  async existing(ids: readonly number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = await this.db.query<{ id: number }>(`SELECT id FROM ${this.rank} WHERE id IN (${marks(ids.length)})`, ids);
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** How many distinct terms each sub-field has (einfo's TermCount); a generation never changes, so kept. */
  async termCounts(): Promise<Map<number, number>> {
    const termCountCache = cacheOf(termCountCaches, this.db);
    const hit = termCountCache.get(this.n.terms);
    if (hit) return hit;
    const rows = await this.db.query<{ f: number; n: number }>(`SELECT f, COUNT(*) AS n FROM ${this.terms} GROUP BY f`);
    const out = new Map(rows.map((r) => [Number(r.f), Number(r.n)]));
    if (termCountCache.size > 16) termCountCache.clear();
    termCountCache.set(this.n.terms, out);
    return out;
  }

  async total(): Promise<number> {
    const totalCache = cacheOf(totalCaches, this.db);
    const hit = totalCache.get(this.n.rank);
    if (hit !== undefined) return hit;
    const r = await this.db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM ${this.rank}`);
    const n = Number(r?.n ?? 0);
    if (totalCache.size > 16) totalCache.clear();
    totalCache.set(this.n.rank, n);
    return n;
  }

  async weights(ids: readonly number[]): Promise<Map<number, number>> {
    if (!ids.length) return new Map();
    const rows = await this.db.query<{ id: number; w: number }>(`SELECT id, w FROM ${this.rank} WHERE id IN (${marks(ids.length)})`, ids);
    return new Map(rows.map((r) => [Number(r.id), Number(r.w)]));
  }
}
