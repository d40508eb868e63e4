/**
 * Runs a search: each terminal on its service's index or engine, its hits mapped onto the return
 * type, groups combined as sets (`and` intersects, `or` unites), then scores, sort, facets and
 * the page. Knows nothing of HTTP.
 *
 * Scores: each terminal's original scores are normalised by its own best (its top hit 1.0); a hit's
 * combined score is the sum of the normalised scores of the terminals it matched (`and` and `or`
 * alike); the final scores are divided by the best combined score, so the top hit is 1.0 and every
 * other lies in (0, 1]. With `scoring_strategy` naming a service, only that service's terminals
 * count (hits matched only by others score 0).
 */
import { tableSet } from '../../../../core/ingest/dataset.js';
import type { Db } from '../../../../core/store/db.js';
import type { Generations } from '../../../../core/store/generations.js';
import { ident } from '../../../../core/store/db.js';
import { ARCHIVE, ARCHIVE_PREFIX, CCD_PREFIX, COMPONENTS, SERVICE, SIFTS, SIFTS_PREFIX, archiveTables, type ArchiveTables } from '../../store/tables.js';
import { attributeCondition, type AttributeCondition } from './text.js';
import { badQuery } from '../../errors.js';
import { facetResults } from './facets.js';
import { fullTextSql, fullTextWords } from './fulltext.js';
import { perGeneration } from '../generation-cache.js';
import { attrKey, servedSearchTables, type ObjKind, type SearchTables } from '../build/indexer.js';
import { holdsComputed, rowsOf, sqlSearch } from './paging.js';
import { attributeSql, catalogueOf, filterSql, inSql, sameRecordGroup } from './plan.js';
import type { Node, ReturnType, SearchRequest, Service, Terminal } from './request.js';
import { RETURN_KIND, isComputed, mapSql } from './returns.js';
import { sql, sqlText, type Sql } from '../../../../core/store/sql.js';
import { uniprotIndex } from './uniprot.js';
import { indexedAttributes, keySql, valueSource } from './values.js';

export { perGeneration };

export interface NodeHit {
  node_id: number;
  service: Service;
  original_score: number;
  norm_score: number;
  match_context?: Record<string, unknown>[];
}

type Contexts = Map<string, Record<string, unknown>[]>;

/**
 * One terminal's answer: return-type id → original score, and what matched (for verbose results):
 * given, or read on demand for the hits a response shows (`contextsOf`), when finding where a hit
 * matched costs as much as finding it.
 */
export interface TerminalResult {
  scores: Map<string, number>;
  contexts?: Contexts;
  contextsOf?: (ids: string[]) => Promise<Contexts>;
}

/** A combined answer: id → score, and per id the terminals it matched (verbose only). */
interface Combined {
  scores: Map<string, number>;
  nodes: Map<string, NodeHit[]> | undefined;
}

/** Services that answer a terminal beside the attribute and full-text indexes. */
export type TerminalRunner = (t: Terminal, rt: ReturnType, s: SearchScope) => Promise<TerminalResult>;

/**
 * An engine's terminal that is the whole query, answered as a count, the best score and one
 * window of hits in rank order (with their match contexts when asked), without every hit;
 * undefined when the engine cannot for this request (its general runner answers then).
 */
export type TerminalPager = (
  t: Terminal,
  rt: ReturnType,
  s: SearchScope,
  window: { start: number; rows: number },
  contexts: boolean,
) => Promise<{ total: number; top: number; hits: { id: string; score: number; context?: Record<string, unknown>[] | undefined }[] } | undefined>;

export interface SearchScope {
  db: Db;
  archive: SearchTables | undefined;
  ccd: SearchTables | undefined;
  /** The archive's generation (engine databases built at load are kept per generation). */
  archiveGen: number | undefined;
  /** The data host's tables of that generation (entries and their files, parts). */
  archiveTables: ArchiveTables | undefined;
  /** The UniProt attributes' values, from the SIFTS mapping when it and the archive are loaded (uniprot.ts). */
  uniprot?: SearchTables | undefined;
  /** The host name the client reached this server by (its URLs with that name are this server's). */
  requestHost?: string | undefined;
}

export async function scopeOf(db: Db, generations: Generations): Promise<SearchScope> {
  const [a, c, m] = await Promise.all([generations.active(SERVICE, ARCHIVE), generations.active(SERVICE, COMPONENTS), generations.active(SERVICE, SIFTS)]);
  const archive = a === undefined ? undefined : await servedSearchTables(db, tableSet(ARCHIVE_PREFIX, a));
  const data = a === undefined ? undefined : archiveTables(tableSet(ARCHIVE_PREFIX, a));
  return {
    db,
    archive,
    ccd: c === undefined ? undefined : await servedSearchTables(db, tableSet(CCD_PREFIX, c)),
    archiveGen: a,
    archiveTables: data,
    uniprot: archive && data && m !== undefined ? uniprotIndex(archive, data.chains, ident(tableSet(SIFTS_PREFIX, m).name('chains')), db.dialect) : undefined,
  };
}

/** Attributes that have at least one indexed value, for the metadata endpoints. */
export async function searchableAttributes(db: Db, n: SearchTables): Promise<Set<string>> {
  return new Set((await indexedAttributes(db, n)).keys());
}

/** Query results as a map for the in-memory path (a query mixing in engine services); rows without a score score 1. */
async function scoresOf(s: SearchScope, sql: Sql | undefined): Promise<TerminalResult> {
  const scores = new Map<string, number>();
  if (sql) for (const r of await s.db.query<{ id: string; score?: number | string }>(sql.sql, sql.params)) scores.set(r.id, r.score === undefined ? 1 : Number(r.score));
  return { scores };
}

function attributeTerminal(s: SearchScope, t: Terminal, rt: ReturnType): Promise<TerminalResult> {
  return conditionsTerminal(s, t.service, [attributeCondition(catalogueOf(t.service), t.parameters, t.service)], rt);
}

async function conditionsTerminal(s: SearchScope, service: Service, list: AttributeCondition[], rt: ReturnType): Promise<TerminalResult> {
  return scoresOf(s, (await attributeSql(s, service, list, rt))?.sql);
}

async function fullTextTerminal(s: SearchScope, t: Terminal, rt: ReturnType): Promise<TerminalResult> {
  return scoresOf(s, await fullTextSql(s, fullTextWords(t.parameters.value), rt));
}

/**
 * Hits found outside SQL (engines, scans) onto the return type: each target keeps its best
 * source's score, and the match contexts of all its sources.
 */
export async function mapIds(s: SearchScope, kind: ObjKind, r: TerminalResult, rt: ReturnType): Promise<TerminalResult> {
  if (RETURN_KIND[rt] === kind || r.scores.size === 0) return r;
  const n = s.archive;
  const scores = new Map<string, number>();
  const contexts = r.contexts ? new Map<string, Record<string, unknown>[]>() : undefined;
  // For contexts read on demand: each target's sources.
  const sources = r.contextsOf ? new Map<string, string[]>() : undefined;
  if (!n) return { scores };
  const ids = [...r.scores.keys()];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const marks = chunk.map(() => '?').join(',');
    // Chemical components are listed per entry (kind `comp`); a definition is one of them.
    const hits =
      kind === 'mol_definition'
        ? { sql: `SELECT DISTINCT 'mol_definition' AS kind, id AS obj, 0 AS rec, '' AS entry_id FROM ${n.sobj} WHERE kind = 'comp' AND id IN (${marks})`, params: chunk }
        : { sql: `SELECT kind, id AS obj, 0 AS rec, entry_id FROM ${n.sobj} WHERE kind = ? AND id IN (${marks})`, params: [kind, ...chunk] };
    const m = mapSql(kind, rt, hits, n, s.db.dialect);
    if (!m) continue;
    for (const row of await s.db.query<{ src: string; dst: string }>(m.sql, m.params)) {
      if (row.dst === null) continue;
      const sc = r.scores.get(row.src) ?? 0;
      if (sc > (scores.get(row.dst) ?? -1)) scores.set(row.dst, sc);
      const ctx = r.contexts?.get(row.src);
      if (contexts && ctx) contexts.set(row.dst, [...(contexts.get(row.dst) ?? []), ...ctx]);
      sources?.set(row.dst, [...(sources.get(row.dst) ?? []), row.src]);
    }
  }
  const read = r.contextsOf;
  if (read && sources) {
    const contextsOf = async (dsts: string[]) => {
      const found = await read([...new Set(dsts.flatMap((d) => sources.get(d) ?? []))]);
      return new Map(dsts.map((d) => [d, (sources.get(d) ?? []).flatMap((src) => found.get(src) ?? [])]));
    };
    return { scores, contextsOf };
  }
  return contexts ? { scores, contexts } : { scores };
}

export interface RunOptions {
  verbose: boolean;
  scoring: string;
  runners: Partial<Record<Service, TerminalRunner>>;
  timings: Map<number, number>;
  /** Terminals whose match contexts are read for the shown hits, by node id. */
  later: Map<number, (ids: string[]) => Promise<Contexts>>;
}

async function runNode(s: SearchScope, node: Node, rt: ReturnType, o: RunOptions): Promise<Combined> {
  if (node.type === 'terminal') return runTerminal(s, node, rt, o);
  const same = sameRecordGroup(node);
  if (same) {
    const terminals = node.nodes as Terminal[];
    const started = performance.now();
    const r = await conditionsTerminal(s, terminals[0]?.service ?? 'text', same, rt);
    const ms = performance.now() - started;
    for (const t of terminals) o.timings.set(t.node_id, ms);
    return combineTerminals(terminals, r, o);
  }
  const parts: Combined[] = [];
  for (const n of node.nodes) parts.push(await runNode(s, n, rt, o));
  return node.logical_operator === 'and' ? intersect(parts) : unite(parts);
}

/** Several terminals answered by one query (a same-record group): each scores its hits 1. */
function combineTerminals(terminals: Terminal[], r: TerminalResult, o: RunOptions): Combined {
  const scores = new Map<string, number>();
  const nodes = o.verbose ? new Map<string, NodeHit[]>() : undefined;
  for (const id of r.scores.keys()) {
    scores.set(id, terminals.filter((t) => counts(t, o)).length);
    nodes?.set(
      id,
      terminals.map((t) => ({ node_id: t.node_id, service: t.service, original_score: 1, norm_score: 1 })),
    );
  }
  return { scores, nodes };
}

const counts = (t: Terminal, o: RunOptions) => o.scoring === 'combined' || o.scoring === t.service;

async function runTerminal(s: SearchScope, t: Terminal, rt: ReturnType, o: RunOptions): Promise<Combined> {
  const started = performance.now();
  let r: TerminalResult;
  if (t.service === 'text' || t.service === 'text_chem') r = await attributeTerminal(s, t, rt);
  else if (t.service === 'full_text') r = await fullTextTerminal(s, t, rt);
  else {
    const runner = o.runners[t.service];
    if (!runner) throw badQuery(`The ${t.service} service is not available on this server`);
    r = await runner(t, rt, s);
  }
  o.timings.set(t.node_id, performance.now() - started);
  if (o.verbose && r.contextsOf) o.later.set(t.node_id, r.contextsOf);
  let top = 0;
  for (const v of r.scores.values()) if (v > top) top = v;
  const scores = new Map<string, number>();
  const nodes = o.verbose ? new Map<string, NodeHit[]>() : undefined;
  const weight = counts(t, o) ? 1 : 0;
  for (const [id, v] of r.scores) {
    const norm = top > 0 ? v / top : 1;
    scores.set(id, norm * weight);
    if (nodes) {
      const hit: NodeHit = { node_id: t.node_id, service: t.service, original_score: v, norm_score: norm };
      const ctx = r.contexts?.get(id);
      if (ctx) hit.match_context = ctx;
      nodes.set(id, [hit]);
    }
  }
  return { scores, nodes };
}

function intersect(parts: Combined[]): Combined {
  const sorted = [...parts].sort((a, b) => a.scores.size - b.scores.size);
  const [first, ...rest] = sorted;
  const scores = new Map<string, number>();
  const nodes = first?.nodes ? new Map<string, NodeHit[]>() : undefined;
  if (!first) return { scores, nodes };
  outer: for (const [id, sc] of first.scores) {
    let total = sc;
    for (const p of rest) {
      const v = p.scores.get(id);
      if (v === undefined) continue outer;
      total += v;
    }
    scores.set(id, total);
    if (nodes)
      nodes.set(
        id,
        parts.flatMap((p) => p.nodes?.get(id) ?? []),
      );
  }
  return { scores, nodes };
}

function unite(parts: Combined[]): Combined {
  const scores = new Map<string, number>();
  const nodes = parts[0]?.nodes ? new Map<string, NodeHit[]>() : undefined;
  for (const p of parts) {
    for (const [id, sc] of p.scores) {
      scores.set(id, (scores.get(id) ?? 0) + sc);
      if (nodes) nodes.set(id, [...(nodes.get(id) ?? []), ...(p.nodes?.get(id) ?? [])]);
    }
  }
  return { scores, nodes };
}

/** Values of an attribute for every object of a return type (through the same mappings as hits). */
export async function attributeValues(s: SearchScope, attr: string, rt: ReturnType): Promise<{ dst: string; num: number | null; str: string | null }[]> {
  const v = await valueSource(s, attr, rt);
  if (!v) return [];
  const hits = { sql: `SELECT a.kind AS kind, a.obj AS obj, 0 AS rec, a.entry_id AS entry_id, a.num AS num, a.str AS str FROM ${v.index.sattr} a WHERE a.attr = ?`, params: [attrKey(v.index, attr)] };
  const out: { dst: string; num: number | null; str: string | null }[] = [];
  for (const k of v.kinds) {
    const m = mapSql(k, rt, hits, s.archive, s.db.dialect, ', h.num AS num, h.str AS str');
    if (m) out.push(...(await s.db.query<{ dst: string; num: number | null; str: string | null }>(m.sql, m.params)));
  }
  return out;
}

export interface Ranked {
  id: string;
  score: number;
  nodes?: NodeHit[];
}

export interface SearchOutcome {
  total: number;
  /** The hits shown, ranked: the page, every hit (`return_all_hits`, `group_by`) or none (`return_counts`). */
  ranked: Ranked[];
  facets: Record<string, unknown>[] | undefined;
  timings: { total: number; sort: number; facets: number; nodes: Map<number, number> };
}

/**
 * Runs the query (or, without one, takes every object of the return type) and ranks the hits.
 * Queries of attribute and full-text terminals are answered in the database (paging.ts); a query
 * with an engine's terminal combines its terminals' hits here.
 */
export async function search(s: SearchScope, req: SearchRequest, runners: Partial<Record<Service, TerminalRunner>>, pagers: Partial<Record<Service, TerminalPager>> = {}): Promise<SearchOutcome> {
  if (!req.query || inSql(req.query)) return sqlSearch(s, req);
  const paged = await pagedTerminal(s, req, pagers);
  if (paged) return paged;
  const t0 = performance.now();
  const timings = new Map<number, number>();
  const opts: RunOptions = { verbose: req.verbosity === 'verbose', scoring: req.scoring, runners, timings, later: new Map() };
  const combined = await runNode(s, req.query, req.return_type, opts);
  let ids = [...combined.scores.keys()];
  if (!req.content.has('computational')) ids = ids.filter((id) => !isComputed(id));
  if (!req.content.has('experimental')) ids = ids.filter((id) => isComputed(id));
  let top = 0;
  for (const id of ids) top = Math.max(top, combined.scores.get(id) ?? 0);
  const ranked: Ranked[] = ids.map((id) => {
    const r: Ranked = { id, score: top > 0 ? (combined.scores.get(id) ?? 0) / top : 1 };
    const nodes = combined.nodes?.get(id);
    if (nodes) r.nodes = nodes;
    return r;
  });
  const t1 = performance.now();
  await sortRanked(s, ranked, req);
  const t2 = performance.now();
  const facets = req.facets.length && ids.length ? await facetResults(s, req.facets, idsSql(s, ids), req.return_type) : undefined;
  const t3 = performance.now();
  const rows = rowsOf(req);
  const shown = rows === 'all' ? ranked : rows === 'none' ? [] : ranked.slice(req.paginate.start, req.paginate.start + req.paginate.rows);
  await readContexts(shown, opts.later);
  return { total: ranked.length, ranked: shown, facets, timings: { total: t3 - t0, sort: t2 - t1, facets: t3 - t2, nodes: timings } };
}

/**
 * A lone engine terminal whose engine pages its own hits: when nothing needs every hit (facets,
 * attribute sort keys, groups, every hit shown) and no content type is to be left out.
 */
async function pagedTerminal(s: SearchScope, req: SearchRequest, pagers: Partial<Record<Service, TerminalPager>>): Promise<SearchOutcome | undefined> {
  const t = req.query;
  const rows = rowsOf(req);
  if (t?.type !== 'terminal' || rows === 'all' || req.facets.length || req.sort.some((k) => k.sort_by !== 'score')) return undefined;
  const pager = pagers[t.service];
  if (!pager) return undefined;
  // The engine keeps every content type: right when the archive holds experimental structures only, or both are asked for.
  const all = req.content.has('computational') && req.content.has('experimental');
  if (!all && (!req.content.has('experimental') || (await holdsComputed(s)))) return undefined;
  const t0 = performance.now();
  const window = rows === 'none' ? { start: 0, rows: 0 } : req.paginate;
  const verbose = req.verbosity === 'verbose';
  const r = await pager(t, req.return_type, s, window, verbose);
  if (!r) return undefined;
  const top = r.top;
  const ranked = r.hits.map((h): Ranked => {
    const out: Ranked = { id: h.id, score: top > 0 ? h.score / top : 1 };
    if (verbose) out.nodes = [{ node_id: t.node_id, service: t.service, original_score: h.score, norm_score: top > 0 ? h.score / top : 1, ...(h.context?.length ? { match_context: h.context } : {}) }];
    return out;
  });
  const ms = performance.now() - t0;
  return { total: r.total, ranked, facets: undefined, timings: { total: ms, sort: 0, facets: 0, nodes: new Map([[t.node_id, ms]]) } };
}

/** The match contexts of the shown hits that their terminals read on demand. */
async function readContexts(shown: Ranked[], later: RunOptions['later']): Promise<void> {
  for (const [node, read] of later) {
    const hits = shown.flatMap((r) => (r.nodes ?? []).filter((h) => h.node_id === node).map((h) => ({ id: r.id, h })));
    if (hits.length === 0) continue;
    const found = await read(hits.map((x) => x.id));
    for (const { id, h } of hits) {
      const ctx = found.get(id);
      if (ctx?.length) h.match_context = ctx;
    }
  }
}

/** Identifiers found in memory as SQL rows `id` (one parameter, read as a JSON array). */
function idsSql(s: SearchScope, ids: string[]): Sql {
  const json = JSON.stringify(ids);
  return s.db.dialect === 'postgres' ? sql`SELECT jsonb_array_elements_text(CAST(${json} AS jsonb)) COLLATE "C" AS id` : sql`SELECT value AS id FROM json_each(${json})`;
}

const byId = (a: Ranked, b: Ranked) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Each hit's sort key of one attribute, read for the hits alone. */
async function sortKeys(s: SearchScope, ids: Sql, spec: SearchRequest['sort'][number], rt: ReturnType): Promise<Map<string, number | string>> {
  const values = new Map<string, number | string>();
  const v = await valueSource(s, spec.sort_by, rt);
  let key = v && keySql(s, v, rt, spec.direction, 'h.id');
  if (key && spec.filter) {
    const f = await filterSql(s, spec.filter, rt);
    key = f && sql`CASE WHEN h.id IN (${f}) THEN ${key} END`;
  }
  if (!key) return values;
  for (const r of await s.db.query<{ id: string; k: number | string | null }>(...sqlArgs(sql`SELECT h.id AS id, ${key} AS k FROM (${ids}) h`))) if (r.k !== null) values.set(r.id, r.k);
  return values;
}

const sqlArgs = (x: Sql): [string, Sql['params']] => [x.sql, x.params];

async function sortRanked(s: SearchScope, ranked: Ranked[], req: SearchRequest): Promise<void> {
  const keys: ((a: Ranked, b: Ranked) => number)[] = [];
  const ids = req.sort.some((k) => k.sort_by !== 'score')
    ? idsSql(
        s,
        ranked.map((r) => r.id),
      )
    : sqlText('');
  for (const spec of req.sort) {
    const dir = spec.direction === 'asc' ? 1 : -1;
    if (spec.sort_by === 'score') {
      keys.push((a, b) => dir * (a.score - b.score));
      continue;
    }
    const values = await sortKeys(s, ids, spec, req.return_type);
    keys.push((a, b) => {
      const x = values.get(a.id);
      const y = values.get(b.id);
      if (x === undefined || y === undefined) return x === undefined ? (y === undefined ? 0 : 1) : -1;
      return x < y ? -dir : x > y ? dir : 0;
    });
  }
  if (!req.sort.some((k) => k.sort_by === 'score')) keys.push((a, b) => b.score - a.score);
  ranked.sort((a, b) => {
    for (const k of keys) {
      const c = k(a, b);
      if (c !== 0) return c;
    }
    return byId(a, b);
  });
}
