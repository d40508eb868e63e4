/**
 * A planned query answered in the database: the count, the best score, and only the rows asked
 * for (the page, or every hit for `return_all_hits` and `group_by`), ranked by the request's sort
 * keys, then score, then identifier (the live service's order for ties). Facets are aggregated
 * there too; verbose results read each terminal's rows for the page's hits alone.
 */
import { SizedLru } from '../../../../core/cache/lru.js';
import type { Db } from '../../../../core/store/db.js';
import type { Ranked, NodeHit, SearchOutcome, SearchScope } from './engine.js';
import { perGeneration } from '../generation-cache.js';
import { facetResults } from './facets.js';
import { everything, filterSql, planQuery, type Plan, type PlannedTerminal } from './plan.js';
import type { Node, SearchRequest, Terminal } from './request.js';
import { joinSql, sql, sqlText, type Sql } from '../../../../core/store/sql.js';
import { keySql, valueSource } from './values.js';

/** Which rows a request shows. */
export type Rows = 'page' | 'all' | 'none';
export const rowsOf = (req: SearchRequest): Rows => (req.group_by || req.return_all_hits ? 'all' : req.return_counts ? 'none' : 'page');

// Whether an archive holds computed structure models (their identifiers carry prefixes).
const computedCache = perGeneration<boolean>();
export const holdsComputed = (s: SearchScope): Promise<boolean> => {
  const n = s.archive;
  if (!n) return Promise.resolve(false);
  return computedCache(s.db, `${n.sobj}:computed`, async () => {
    // '`' follows '_': each range holds exactly the identifiers starting with the prefix.
    const hit = await s.db.one(`SELECT 1 AS x FROM ${n.sobj} WHERE kind = 'entry' AND ((id >= 'AF_' AND id < 'AF\`') OR (id >= 'MA_' AND id < 'MA\`')) LIMIT 1`);
    return hit !== undefined;
  });
};

/** The condition keeping the content types asked for, on an identifier expression (none when every hit is kept). */
async function contentSql(s: SearchScope, req: SearchRequest, id: string): Promise<string | undefined> {
  const experimental = req.content.has('experimental');
  const computational = req.content.has('computational');
  if (experimental && computational) return undefined;
  if (experimental && !(await holdsComputed(s))) return undefined;
  return `substr(${id}, 1, 3) ${computational ? 'IN' : 'NOT IN'} ('AF_', 'MA_')`;
}

/** ORDER BY terms on the rows `h` (id, score): sort keys, then score unless sorted by, then id. */
async function orderSql(s: SearchScope, req: SearchRequest, constant: boolean): Promise<Sql> {
  const keys: Sql[] = [];
  for (const spec of req.sort) {
    const dir = spec.direction === 'asc' ? 'ASC' : 'DESC';
    if (spec.sort_by === 'score') {
      if (!constant) keys.push(sqlText(`h.score ${dir}`));
      continue;
    }
    const v = await valueSource(s, spec.sort_by, req.return_type);
    let key = v && keySql(s, v, req.return_type, spec.direction, 'h.id');
    if (!key) continue;
    if (spec.filter) {
      // Only the hits the filter keeps have a value to sort by.
      const f = await filterSql(s, spec.filter, req.return_type);
      if (!f) continue;
      key = sql`CASE WHEN h.id IN (${f}) THEN ${key} END`;
    }
    keys.push(sql`${key} ${sqlText(dir)} NULLS LAST`);
  }
  if (!constant && !req.sort.some((k) => k.sort_by === 'score')) keys.push(sqlText('h.score DESC'));
  keys.push(sqlText('h.id'));
  return joinSql(keys, ', ');
}

/**
 * The statements that answer a request: `count` (rows `n`, and `top` when scores vary) and
 * `list` (rows `id`, `score` when scores vary, in rank order: the page, or every hit), or
 * `windowed`, one statement whose rows carry `n` and `top` beside the page (its count is asked
 * apart only when the page is empty). Undefined when nothing can match. `hits` are the hits
 * themselves (rows `id`, and `score`), for facets.
 */
export interface Statements {
  constant: boolean;
  hits: Sql;
  count: Sql;
  list: Sql | undefined;
  windowed: boolean;
  /** The page alone, for a windowed request whose count is known. */
  page?: Sql;
}

export async function statements(s: SearchScope, req: SearchRequest, terminals: PlannedTerminal[] = []): Promise<Statements | undefined> {
  const plan: Plan | undefined = req.query ? await planQuery(s, req.query, req.return_type, req.scoring, terminals) : everything(req.return_type, s.archive);
  if (!plan) return undefined;
  const constant = plan.constant !== undefined;
  const content = await contentSql(s, req, 't.id');
  const hits = sql`SELECT t.id AS id${sqlText(constant ? '' : ', t.score AS score')} FROM (${plan.sql}) t${sqlText(content ? ` WHERE ${content}` : '')}`;
  const score = sqlText(constant ? '' : ', h.score AS score');
  const top = sqlText(constant ? '' : ', MAX(h.score) AS top');
  const rows = rowsOf(req);
  const window = rows === 'page' ? sql` LIMIT ${req.paginate.rows} OFFSET ${req.paginate.start}` : sqlText('');
  const r = plan.ranked;
  if (r && !content && req.sort.every((k) => k.sort_by === 'score' && k.direction === 'desc')) {
    // Already in rank order: the page is read alone, the count beside it without the hits.
    return { constant, hits, count: r.count, list: rows === 'none' ? undefined : sql`${r.list}${window}`, windowed: false };
  }
  const d = plan.direct;
  if (d && !req.sort.some((k) => k.sort_by !== 'score')) {
    // One read of an index, written flat: counted there, a page read in identifier order.
    const c = await contentSql(s, req, d.id);
    const read = sql`SELECT ${sqlText(d.distinct ? 'DISTINCT ' : '')}${sqlText(d.id)} AS id FROM ${sqlText(d.from)} WHERE ${d.where}${sqlText(c ? ` AND ${c}` : '')}`;
    return { constant, hits, count: sql`SELECT COUNT(*) AS n FROM (${read}) h`, list: rows === 'none' ? undefined : sql`${read} ORDER BY ${sqlText(d.id)}${window}`, windowed: false };
  }
  const order = await orderSql(s, req, constant);
  const count = sql`SELECT COUNT(*) AS n${top} FROM (${hits}) h`;
  if (d || rows !== 'page') return { constant, hits, count, list: rows === 'none' ? undefined : sql`SELECT h.id AS id${score} FROM (${hits}) h ORDER BY ${order}${window}`, windowed: false };
  // Hits found by joins are found once: the count and best score ride along with the page.
  const over = sqlText(`, COUNT(*) OVER () AS n${constant ? '' : ', MAX(h.score) OVER () AS top'}`);
  const page = sql`SELECT h.id AS id${score} FROM (${hits}) h ORDER BY ${order}${window}`;
  // The count reads every hit, so on PostgreSQL the hits are planned apart (a subquery with an
  // OFFSET is not merged into the outer query): merged, PostgreSQL costed the joins as if the
  // LIMIT stopped them early, which the count does not allow, and chose a nested loop over every
  // object of the return type (over 20 s for EM entries with a chain A, asked for assemblies).
  const fence = sqlText(s.db.dialect === 'postgres' ? ' OFFSET 0' : '');
  return { constant, hits, count, list: sql`SELECT h.id AS id${score}${over} FROM (${hits}${fence}) h ORDER BY ${order}${window}`, windowed: true, page };
}

/** Runs a query of attribute and full-text terminals (or none) in the database. */
export async function sqlSearch(s: SearchScope, req: SearchRequest): Promise<SearchOutcome> {
  const t0 = performance.now();
  const terminals: PlannedTerminal[] = [];
  const st = await statements(s, req, terminals);
  const t1 = performance.now();
  let total: Head = { n: 0 };
  let list: ({ id: string; score?: number | string } & Partial<Head>)[] = [];
  const known = st && counted(s.db, st.count);
  if (st?.windowed && !known) {
    list = await s.db.query(...args(st.list as Sql));
    const first = list[0];
    total = first ? { n: first.n as number | string, top: first.top } : ((await s.db.one<Head>(...args(st.count))) ?? total);
    remember(s.db, st.count, total);
  } else if (st) {
    total = known ?? (await s.db.one<Head>(...args(st.count))) ?? total;
    if (!known) remember(s.db, st.count, total);
    const page = st.windowed ? st.page : st.list;
    if (Number(total.n) > 0 && page) list = await s.db.query(...args(page));
  }
  const n = Number(total.n);
  const top = Number(total.top ?? 0);
  const ranked: Ranked[] = list.map((r) => ({ id: r.id, score: st?.constant || !(top > 0) ? 1 : Number(r.score) / top }));
  if (req.verbosity === 'verbose' && req.query && ranked.length) await annotate(s, req.query, terminals, ranked);
  const t2 = performance.now();
  const facets = st && req.facets.length && n > 0 ? await facetResults(s, req.facets, sql`SELECT h.id AS id FROM (${st.hits}) h`, req.return_type) : undefined;
  const ms = performance.now() - t0;
  // One statement answers every terminal: each is timed as the whole.
  const nodes = new Map(terminals.map((t) => [t.terminal.node_id, ms]));
  return { total: n, ranked, facets, timings: { total: ms, sort: t2 - t1, facets: performance.now() - t2, nodes } };
}

type Head = { n: number | string; top?: number | string | null };

/**
 * Counts (and best scores) of queries already answered, by statement: a generation's tables never
 * change and their names carry its number, so a query paged through is counted once. Per database
 * handle, the most recently used within a budget of memory (the statements are the keys).
 */
const counts = new WeakMap<Db, SizedLru<Head>>();
const COUNTS_BYTES = 8 << 20;
const countKey = (x: Sql) => `${x.sql}\u0000${JSON.stringify(x.params.map((p) => (typeof p === 'bigint' ? String(p) : p)))}`;

function counted(db: Db, count: Sql): Head | undefined {
  return counts.get(db)?.get(countKey(count));
}

function remember(db: Db, count: Sql, head: Head): void {
  let m = counts.get(db);
  if (!m) counts.set(db, (m = new SizedLru<Head>(COUNTS_BYTES)));
  const k = countKey(count);
  // A string's characters take two bytes; the count beside it a few dozen.
  m.set(k, { n: head.n, top: head.top ?? null }, 2 * k.length + 64);
}

const args = (x: Sql): [string, Sql['params']] => [x.sql, x.params];

/**
 * The terminals each shown hit matched, as the engine reports them in verbose results: a group
 * `and` lists its parts' terminals when every part matched, `or` those of the parts that did.
 */
async function annotate(s: SearchScope, query: Node, terminals: PlannedTerminal[], ranked: Ranked[]): Promise<void> {
  const ids = ranked.map((r) => r.id);
  const found = new Map<Terminal, Map<string, NodeHit>>();
  for (const p of terminals) {
    const top = p.ranked ? Number((await s.db.one<{ top: number | string | null }>(...args(sql`SELECT MAX(x.score) AS top FROM (${p.sql}) x`)))?.top ?? 0) : 1;
    const m = new Map<string, NodeHit>();
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const sql = `SELECT x.id AS id${p.ranked ? ', x.score AS score' : ''} FROM (${p.sql.sql}) x WHERE x.id IN (${chunk.map(() => '?').join(',')})`;
      for (const r of await s.db.query<{ id: string; score?: number | string }>(sql, [...p.sql.params, ...chunk])) {
        const v = p.ranked ? Number(r.score) : 1;
        m.set(r.id, { node_id: p.terminal.node_id, service: p.terminal.service, original_score: v, norm_score: top > 0 ? v / top : 1 });
      }
    }
    found.set(p.terminal, m);
  }
  const walk = (n: Node, id: string): NodeHit[] | undefined => {
    if (n.type === 'terminal') {
      const hit = found.get(n)?.get(id);
      return hit ? [hit] : undefined;
    }
    const parts = n.nodes.map((x) => walk(x, id));
    if (n.logical_operator === 'and' && parts.some((p) => p === undefined)) return undefined;
    const hits = parts.flatMap((p) => p ?? []);
    return hits.length ? hits : undefined;
  };
  for (const r of ranked) r.nodes = walk(query, r.id) ?? [];
}
