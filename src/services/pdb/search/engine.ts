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
import { tableSet } from '../../../core/ingest/dataset.js';
import type { Db, SqlValue } from '../../../core/store/db.js';
import type { Generations } from '../../../core/store/generations.js';
import { ARCHIVE, ARCHIVE_PREFIX, CCD_PREFIX, COMPONENTS, SERVICE, archiveTables, type ArchiveTables } from '../store.js';
import { attributes, tokens, type Catalogue } from './attributes.js';
import { bad } from './errors.js';
import { facetResults } from './facets.js';
import { searchTables, type ObjKind, type SearchTables } from './indexer.js';
import type { FilterNode, Group, Node, ReturnType, SearchRequest, Service, Terminal } from './request.js';
import { RETURN_KIND, allOfSql, isComputed, mapSql } from './returns.js';
import { attributeCondition, conditionSql, sameRecordSql, type AttributeCondition, type HitSql } from './text.js';

export interface NodeHit {
  node_id: number;
  service: Service;
  original_score: number;
  norm_score: number;
  match_context?: Record<string, unknown>[];
}

/** One terminal's answer: return-type id → original score (and what matched, for verbose). */
export interface TerminalResult {
  scores: Map<string, number>;
  contexts?: Map<string, Record<string, unknown>[]>;
}

/** A combined answer: id → score, and per id the terminals it matched (verbose only). */
interface Combined {
  scores: Map<string, number>;
  nodes: Map<string, NodeHit[]> | undefined;
}

/** Services that answer a terminal beside the attribute and full-text indexes. */
export type TerminalRunner = (t: Terminal, rt: ReturnType, s: SearchScope) => Promise<TerminalResult>;

export interface SearchScope {
  db: Db;
  archive: SearchTables | undefined;
  ccd: SearchTables | undefined;
  /** The archive's generation (engine databases built at load are kept per generation). */
  archiveGen: number | undefined;
  /** The data host's tables of that generation (entries and their files, parts). */
  archiveTables: ArchiveTables | undefined;
  /** The host name the client reached this server by (its URLs with that name are this server's). */
  requestHost?: string | undefined;
}

export async function scopeOf(db: Db, generations: Generations): Promise<SearchScope> {
  const [a, c] = await Promise.all([generations.active(SERVICE, ARCHIVE), generations.active(SERVICE, COMPONENTS)]);
  return {
    db,
    archive: a === undefined ? undefined : searchTables(tableSet(ARCHIVE_PREFIX, a)),
    ccd: c === undefined ? undefined : searchTables(tableSet(CCD_PREFIX, c)),
    archiveGen: a,
    archiveTables: a === undefined ? undefined : archiveTables(tableSet(ARCHIVE_PREFIX, a)),
  };
}

/**
 * A value computed once per database and index generation (tables of a generation never change).
 * Keyed by the database handle too: two stores may hold generations of the same number.
 */
export function perGeneration<T>(): (db: Db, key: string, make: () => Promise<T>) => Promise<T> {
  const byDb = new WeakMap<Db, Map<string, Promise<T>>>();
  return (db, key, make) => {
    let m = byDb.get(db);
    if (!m) byDb.set(db, (m = new Map()));
    let p = m.get(key);
    if (!p) {
      if (m.size >= 4) m.clear();
      const mine = make();
      m.set(key, mine);
      mine.catch(() => m?.delete(key));
      p = mine;
    }
    return p;
  };
}

// Which kinds of object carry an attribute, per index (fixed for a generation).
const kindCache = perGeneration<Map<string, ObjKind[]>>();

function kindMap(db: Db, n: SearchTables): Promise<Map<string, ObjKind[]>> {
  return kindCache(db, n.sattrs, async () => {
    const m = new Map<string, ObjKind[]>();
    for (const r of await db.query<{ attr: string; kind: ObjKind }>(`SELECT attr, kind FROM ${n.sattrs}`)) m.set(r.attr, [...(m.get(r.attr) ?? []), r.kind]);
    return m;
  });
}

async function kindsOf(db: Db, n: SearchTables, attr: string): Promise<ObjKind[]> {
  return (await kindMap(db, n)).get(attr) ?? [];
}

/** Attributes that have at least one indexed value, for the metadata endpoints. */
export async function searchableAttributes(db: Db, n: SearchTables): Promise<Set<string>> {
  return new Set((await kindMap(db, n)).keys());
}

const catalogueOf = (service: Service): Catalogue => (service === 'text_chem' ? 'chemical' : 'structure');
const indexOf = (s: SearchScope, service: Service) => (service === 'text_chem' ? s.ccd : s.archive);

/** The SQL of `(src, dst)` pairs for hits of an attribute's kinds, united. */
async function mapped(s: SearchScope, index: SearchTables, attr: string, hits: HitSql, rt: ReturnType, negate: boolean): Promise<HitSql | undefined> {
  let kinds = await kindsOf(s.db, index, attr);
  if (negate) {
    // The objects of the attribute's kinds that do not match: the universe minus the hits.
    if (kinds.length === 0) kinds = [index === s.ccd ? 'mol_definition' : RETURN_KIND[rt]];
    const parts = kinds.map((k) => ({
      sql: `SELECT o.kind AS kind, o.id AS obj, 0 AS rec FROM ${index.sobj} o WHERE o.kind = ? AND o.id NOT IN (SELECT m.obj FROM (${hits.sql}) m WHERE m.kind = ?)`,
      params: [k, ...hits.params, k] as SqlValue[],
    }));
    hits = { sql: parts.map((p) => p.sql).join(' UNION ALL '), params: parts.flatMap((p) => p.params) };
  }
  const list = kinds.map((k) => mapSql(k, rt, hits, s.archive)).filter((x): x is HitSql => x !== undefined);
  if (list.length === 0) return undefined;
  return { sql: list.map((q) => q.sql).join(' UNION '), params: list.flatMap((q) => q.params) };
}

async function attributeTerminal(s: SearchScope, t: Terminal, rt: ReturnType): Promise<TerminalResult> {
  const c = attributeCondition(catalogueOf(t.service), t.parameters, t.service);
  return conditionsTerminal(s, t.service, [c], rt);
}

async function conditionsTerminal(s: SearchScope, service: Service, list: AttributeCondition[], rt: ReturnType): Promise<TerminalResult> {
  const index = indexOf(s, service);
  const scores = new Map<string, number>();
  const first = list[0] as AttributeCondition;
  if (!index) return { scores };
  const hits = list.length === 1 ? conditionSql(first, index) : sameRecordSql(list, index);
  const q = await mapped(s, index, first.attribute.path, hits, rt, list.length === 1 && first.negation);
  if (!q) return { scores };
  for (const r of await s.db.query<{ dst: string }>(`SELECT DISTINCT m.dst AS dst FROM (${q.sql}) m`, q.params)) if (r.dst !== null) scores.set(r.dst, 1);
  return { scores };
}

const entryCounts = perGeneration<number>();
const entryCount = (db: Db, n: SearchTables) =>
  entryCounts(db, n.sobj, async () => Number((await db.one<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${n.sobj} WHERE kind = 'entry'`))?.n ?? 1));

/** Words per query at most (each is one index lookup). */
const MAX_WORDS = 32;

/**
 * `full_text`: every word of the value must occur in the entry's documents (entry, entities,
 * chains, assemblies: any full-text attribute). Score: Σ over words of idf × (1 + ln tf).
 */
async function fullTextTerminal(s: SearchScope, t: Terminal, rt: ReturnType): Promise<TerminalResult> {
  const scores = new Map<string, number>();
  const n = s.archive;
  const value = t.parameters.value;
  if (typeof value !== 'string') throw bad('full_text takes a string value');
  const words = [...new Set(tokens(value.replace(/\b(AND|OR|NOT)\b/g, ' ')))];
  if (words.length === 0) throw bad('full_text needs at least one word');
  if (words.length > MAX_WORDS) throw bad(`full_text takes at most ${MAX_WORDS} words`);
  if (!n) return { scores };
  const marks = words.map(() => '?').join(',');
  const rows = await s.db.query<{ obj: string; tok: string; c: number | string }>(
    `SELECT o.entry_id AS obj, t.tok AS tok, COUNT(*) AS c FROM ${n.stok} t JOIN ${n.sobj} o ON o.kind = t.kind AND o.id = t.obj WHERE t.tok IN (${marks}) GROUP BY o.entry_id, t.tok`,
    words,
  );
  const total = await entryCount(s.db, n);
  const df = new Map<string, number>();
  const per = new Map<string, Map<string, number>>();
  for (const r of rows) {
    df.set(r.tok, (df.get(r.tok) ?? 0) + 1);
    let m = per.get(r.obj);
    if (!m) per.set(r.obj, (m = new Map()));
    m.set(r.tok, Number(r.c));
  }
  const entryScores = new Map<string, number>();
  for (const [entry, m] of per) {
    if (m.size < words.length) continue;
    let sc = 0;
    for (const [w, c] of m) sc += Math.log(1 + total / (df.get(w) ?? 1)) * (1 + Math.log(c));
    entryScores.set(entry, sc);
  }
  return mapIds(s, 'entry', { scores: entryScores }, rt);
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
  if (!n) return { scores };
  const ids = [...r.scores.keys()];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const marks = chunk.map(() => '?').join(',');
    // Chemical components are listed per entry (kind `comp`); a definition is one of them.
    const hits =
      kind === 'mol_definition'
        ? { sql: `SELECT DISTINCT 'mol_definition' AS kind, id AS obj, 0 AS rec FROM ${n.sobj} WHERE kind = 'comp' AND id IN (${marks})`, params: chunk }
        : { sql: `SELECT kind, id AS obj, 0 AS rec FROM ${n.sobj} WHERE kind = ? AND id IN (${marks})`, params: [kind, ...chunk] };
    const q = mapSql(kind, rt, hits, n);
    if (!q) continue;
    for (const row of await s.db.query<{ src: string; dst: string }>(q.sql, q.params)) {
      if (row.dst === null) continue;
      const sc = r.scores.get(row.src) ?? 0;
      if (sc > (scores.get(row.dst) ?? -1)) scores.set(row.dst, sc);
      const ctx = r.contexts?.get(row.src);
      if (contexts && ctx) contexts.set(row.dst, [...(contexts.get(row.dst) ?? []), ...ctx]);
    }
  }
  return contexts ? { scores, contexts } : { scores };
}

/** Attribute terminals of one `and` group that must match the same nested record. */
function sameRecordGroup(g: Group): AttributeCondition[] | undefined {
  if (g.logical_operator !== 'and' || g.nodes.length < 2) return undefined;
  const conds: AttributeCondition[] = [];
  let nested: string | undefined;
  let service: Service | undefined;
  for (const n of g.nodes) {
    if (n.type !== 'terminal' || (n.service !== 'text' && n.service !== 'text_chem')) return undefined;
    const c = attributeCondition(catalogueOf(n.service), n.parameters, n.service);
    if (!c.attribute.nested || c.negation) return undefined;
    if (nested !== undefined && (c.attribute.nested !== nested || n.service !== service)) return undefined;
    nested = c.attribute.nested;
    service = n.service;
    conds.push(c);
  }
  return conds;
}

export interface RunOptions {
  verbose: boolean;
  scoring: string;
  runners: Partial<Record<Service, TerminalRunner>>;
  timings: Map<number, number>;
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
    nodes?.set(id, terminals.map((t) => ({ node_id: t.node_id, service: t.service, original_score: 1, norm_score: 1 })));
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
    if (!runner) throw bad(`The ${t.service} service is not available on this server`);
    r = await runner(t, rt, s);
  }
  o.timings.set(t.node_id, performance.now() - started);
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
    if (nodes) nodes.set(id, parts.flatMap((p) => p.nodes?.get(id) ?? []));
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

/** A filter node (facets, sort): attribute conditions on the structure attributes, as a set of ids. */
export async function filterIds(s: SearchScope, f: FilterNode, rt: ReturnType): Promise<Set<string>> {
  const toNode = (x: FilterNode, ids: { n: number }): Node =>
    x.type === 'group'
      ? { type: 'group', logical_operator: x.logical_operator, nodes: x.nodes.map((y) => toNode(y, ids)) }
      : { type: 'terminal', service: 'text', node_id: ids.n++, parameters: x.parameters };
  const r = await runNode(s, toNode(f, { n: 0 }), rt, { verbose: false, scoring: 'combined', runners: {}, timings: new Map() });
  return new Set(r.scores.keys());
}

/** Values of an attribute for each return-type id (through the same mappings as hits). */
export async function attributeValues(s: SearchScope, attr: string, rt: ReturnType): Promise<{ dst: string; num: number | null; str: string | null }[]> {
  const cat: Catalogue = rt === 'mol_definition' && attributes('chemical').has(attr) && !attributes('structure').has(attr) ? 'chemical' : 'structure';
  if (!attributes(cat).has(attr)) throw bad(`Attribute ${attr} is not a searchable attribute`);
  const index = cat === 'chemical' ? s.ccd : s.archive;
  if (!index) return [];
  const hits = { sql: `SELECT a.kind AS kind, a.obj AS obj, 0 AS rec, a.num AS num, a.str AS str FROM ${index.sattr} a WHERE a.attr = ?`, params: [attr] };
  const kinds = await kindsOf(s.db, index, attr);
  const out: { dst: string; num: number | null; str: string | null }[] = [];
  for (const k of kinds) {
    const q = mapSql(k, rt, hits, s.archive, ', h.num AS num, h.str AS str');
    if (q) out.push(...(await s.db.query<{ dst: string; num: number | null; str: string | null }>(q.sql, q.params)));
  }
  return out;
}

export interface Ranked {
  id: string;
  score: number;
  nodes?: NodeHit[];
}

export interface SearchOutcome {
  ranked: Ranked[];
  facets: Record<string, unknown>[] | undefined;
  timings: { total: number; sort: number; facets: number; nodes: Map<number, number> };
}

/** Runs the query (or, without one, takes every object of the return type) and ranks the hits. */
export async function search(s: SearchScope, req: SearchRequest, runners: Partial<Record<Service, TerminalRunner>>): Promise<SearchOutcome> {
  const t0 = performance.now();
  const timings = new Map<number, number>();
  const opts: RunOptions = { verbose: req.verbosity === 'verbose', scoring: req.scoring, runners, timings };
  let combined: Combined;
  if (req.query) combined = await runNode(s, req.query, req.return_type, opts);
  else {
    const scores = new Map<string, number>();
    if (s.archive) {
      const q = allOfSql(req.return_type, s.archive);
      for (const r of await s.db.query<{ dst: string }>(q.sql, q.params)) scores.set(r.dst, 1);
    }
    combined = { scores, nodes: undefined };
  }
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
  const facets = req.facets.length ? await facetResults(s, req.facets, new Set(ids), req.return_type) : undefined;
  const t3 = performance.now();
  return { ranked, facets, timings: { total: t3 - t0, sort: t2 - t1, facets: t3 - t2, nodes: timings } };
}

const byId = (a: Ranked, b: Ranked) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

async function sortRanked(s: SearchScope, ranked: Ranked[], req: SearchRequest): Promise<void> {
  const keys: ((a: Ranked, b: Ranked) => number)[] = [];
  for (const spec of req.sort) {
    const dir = spec.direction === 'asc' ? 1 : -1;
    if (spec.sort_by === 'score') {
      keys.push((a, b) => dir * (a.score - b.score));
      continue;
    }
    const values = new Map<string, number | string>();
    const filter = spec.filter ? await filterIds(s, spec.filter, req.return_type) : undefined;
    for (const v of await attributeValues(s, spec.sort_by, req.return_type)) {
      if (filter && !filter.has(v.dst)) continue;
      const x = v.num ?? v.str;
      if (x === null) continue;
      const prev = values.get(v.dst);
      // asc ranks an object by its smallest value, desc by its largest.
      if (prev === undefined || (dir > 0 ? x < prev : x > prev)) values.set(v.dst, x);
    }
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
