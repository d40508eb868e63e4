/**
 * The protocol list (`GET /api/v3/protocols`) over both sources: each source's page is cut on its
 * own index (filter columns, then the order column and id), the two are merged, and the page is
 * taken from the merge. Loaded rows overridden by a local copy are left out of the load's side.
 */
import type { TableSet } from '../../core/ingest/dataset.js';
import { ident, type Db } from '../../core/store/db.js';
import { tablesOf } from './store.js';
import type { Sql } from '../../core/store/sql.js';

export const FILTERS = ['public', 'user_public', 'user_private', 'shared_with_user'] as const;
export type Filter = (typeof FILTERS)[number];
export const ORDER_FIELDS = ['activity', 'date', 'name', 'id'] as const;
export type OrderField = (typeof ORDER_FIELDS)[number];

export interface ListQuery {
  filter: Filter;
  /** Words of `key`; every one must start a word of the protocol's title, description or authors. */
  words: string[] | undefined;
  order: OrderField;
  dir: 'asc' | 'desc';
  pageSize: number;
  /** From 1. */
  pageId: number;
}

export interface Viewer {
  /** The user the token acts for. */
  username: string;
  /** Everyone whose private protocols the token sees (the user included). */
  owners: ReadonlySet<string>;
}

const ORDER_COLUMN: Record<OrderField, string> = { activity: 'activity', date: 'published_on', name: 'title_key', id: 'id' };

/** The filter's condition on alias `p`, or undefined when it cannot match anything. */
function filterPart(q: ListQuery, v: Viewer): Sql | undefined {
  switch (q.filter) {
    case 'public':
      return { sql: 'p.public = 1', params: [] };
    case 'user_public':
      return { sql: 'p.owner = ? AND p.public = 1', params: [v.username] };
    case 'user_private':
      return { sql: 'p.owner = ? AND p.public = 0', params: [v.username] };
    case 'shared_with_user': {
      const others = [...v.owners].filter((o) => o !== v.username).sort();
      if (others.length === 0) return undefined;
      return { sql: `p.owner IN (${others.map(() => '?').join(', ')}) AND p.public = 0`, params: others };
    }
  }
}

function keyPart(db: Db, words: string[], textTable: string): Sql {
  if (db.dialect === 'postgres') return { sql: "p.search @@ to_tsquery('simple', ?)", params: [words.map((w) => `${w}:*`).join(' & ')] };
  const t = ident(textTable);
  return { sql: `p.id IN (SELECT rowid FROM ${t} WHERE ${t} MATCH ?)`, params: [words.map((w) => `"${w}"*`).join(' AND ')] };
}

function where(db: Db, q: ListQuery, filter: Sql, textTable: string, loaded: boolean): Sql {
  const parts = [filter];
  if (q.words) parts.push(keyPart(db, q.words, textTable));
  if (loaded) parts.push({ sql: 'NOT EXISTS (SELECT 1 FROM proto_local l WHERE l.id = p.id)', params: [] });
  return { sql: parts.map((p) => p.sql).join(' AND '), params: parts.flatMap((p) => p.params) };
}

// Counts over a load's tables never change (a generation is written once), so they are kept, per
// database; the table name carries the generation.
const loadCounts = new WeakMap<Db, Map<string, number>>();

async function count(db: Db, table: string, cond: Sql, cache: boolean): Promise<number> {
  let kept = cache ? loadCounts.get(db) : undefined;
  if (cache && !kept) loadCounts.set(db, (kept = new Map()));
  const key = `${table}\u0000${cond.sql}\u0000${JSON.stringify(cond.params)}`;
  const hit = kept?.get(key);
  if (hit !== undefined) return hit;
  const n = Number((await db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} p WHERE ${cond.sql}`, cond.params))?.n ?? 0);
  if (kept) {
    if (kept.size > 2000) kept.clear();
    kept.set(key, n);
  }
  return n;
}

export async function listProtocols(db: Db, t: TableSet | undefined, q: ListQuery, v: Viewer): Promise<{ docs: string[]; total: number }> {
  const filter = filterPart(q, v);
  if (!filter || (q.words && q.words.length === 0)) return { docs: [], total: 0 };
  const col = ORDER_COLUMN[q.order];
  const dir = q.dir === 'asc' ? 'ASC' : 'DESC';
  const offset = (q.pageId - 1) * q.pageSize;
  const reach = offset + q.pageSize;

  const localCond = where(db, q, filter, 'proto_local_text', false);
  const sources: { table: string; cond: Sql }[] = [{ table: 'proto_local', cond: localCond }];
  let total = await count(db, 'proto_local', localCond, false);
  if (t) {
    const n = tablesOf(t);
    const table = ident(n.protocols);
    const all = where(db, q, filter, n.text, false);
    // The load's matches (kept), less those replaced by a local copy (few, found through the local table).
    const replaced = await db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM proto_local l JOIN ${table} p ON p.id = l.id WHERE ${all.sql}`, all.params);
    total += (await count(db, table, all, true)) - Number(replaced?.n ?? 0);
    sources.push({ table, cond: where(db, q, filter, n.text, true) });
  }
  if (offset >= total) return { docs: [], total };

  const branches = sources.map(
    (s, i) =>
      `SELECT * FROM (SELECT p.doc AS doc, p.${col} AS k, p.id AS id FROM ${s.table} p WHERE ${s.cond.sql}
       ORDER BY p.${col} ${dir}, p.id ${dir} LIMIT ${reach}) s${i}`,
  );
  const rows = await db.query<{ doc: string }>(`SELECT doc FROM (${branches.join(' UNION ALL ')}) u ORDER BY k ${dir}, id ${dir} LIMIT ? OFFSET ?`, [
    ...sources.flatMap((s) => s.cond.params),
    q.pageSize,
    offset,
  ]);
  return { docs: rows.map((r) => r.doc), total };
}
