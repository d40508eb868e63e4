/**
 * Turns a parsed search (query expressions, filters, sort, page position) into SQL for SQLite
 * (FTS5) or PostgreSQL (tsvector). Both read an index: FTS5 MATCH / GIN, and B-tree indexes for
 * filters and sort keys. Pages are keyset pages: the last row's sort values are the next page's
 * start, so a walk over every page sees each study exactly once.
 */
import type { Dialect, SqlValue } from '../../core/store/db.js';
import { ident } from '../../core/store/db.js';
import { structuredField } from './areas.js';
import { PHASES, SEXES, STATUSES, STD_AGES, STUDY_TYPES, enumValue } from './enums.js';
import type { Area, Node } from './essie.js';
import { ageDays } from './extract.js';
import type { Sql } from '../../core/store/sql.js';

export interface SearchTables {
  /** PostgreSQL: a narrow (id, v tsvector) table per area, so an area's matches sit on few pages. */
  areaText?: Readonly<Record<Area, string>>;
  studies: string;
  /** The documents, apart from the narrow studies table so that scans and sorts stay small. */
  docs: string;
  phases: string;
  /** FTS5 table (SQLite) or tsvector table (PostgreSQL). */
  text: string;
}

export const SORT_FIELDS = {
  LastUpdatePostDate: { column: 'last_update_post_date', defaultDir: 'desc' },
  EnrollmentCount: { column: 'enrollment_count', defaultDir: 'asc' },
  StartDate: { column: 'start_date', defaultDir: 'desc' },
  StudyFirstPostDate: { column: 'study_first_post_date', defaultDir: 'desc' },
} as const;

export type SortField = keyof typeof SORT_FIELDS | '@relevance';

export interface SortKey {
  field: SortField;
  dir: 'asc' | 'desc';
}

/** A value that does not fit its field; the route names the parameter it came from. */
export class FieldValueError extends Error {
  constructor(
    readonly field: string,
    readonly value: string,
    readonly allowed: string,
  ) {
    super(`invalid value "${value}" for ${field}: ${allowed}`);
  }
}

// Relevance weights per FTS5 column, in AREAS order: titles and ids weigh most, free text least.
const BM25_WEIGHTS = '3.0, 3.0, 1.0, 1.5, 1.5, 4.0, 1.0, 5.0, 0.5';

const DATE = /^\d{4}(-\d{2}(-\d{2})?)?$/;

function allowedList(values: readonly string[]): string {
  return `allowed values are ${values.join(', ')}`;
}

function enumFor(field: string): readonly string[] {
  switch (field) {
    case 'OverallStatus':
      return STATUSES;
    case 'StudyType':
      return STUDY_TYPES;
    case 'Sex':
      return SEXES;
    case 'Phase':
      return PHASES;
    default:
      return STD_AGES;
  }
}

function checkedEnum(field: string, raw: string): string {
  const v = enumValue(raw);
  const allowed = enumFor(field);
  if (!allowed.includes(v)) throw new FieldValueError(field, raw, allowedList(allowed));
  return v;
}

function checkedDate(field: string, raw: string): string {
  if (!DATE.test(raw)) throw new FieldValueError(field, raw, 'dates are YYYY, YYYY-MM or YYYY-MM-DD (MIN and MAX in RANGE)');
  return raw;
}

function checkedInt(field: string, raw: string): number {
  if (!/^\d+$/.test(raw)) throw new FieldValueError(field, raw, 'expected a whole number');
  return Number(raw);
}

function checkedAge(field: string, raw: string): number {
  const d = ageDays(raw);
  if (d === null) throw new FieldValueError(field, raw, 'ages are a number and a unit, e.g. "16 years" or "6 months"');
  return d;
}

function checkedBool(field: string, raw: string): number {
  const v = raw.toLowerCase();
  if (v !== 'true' && v !== 'false') throw new FieldValueError(field, raw, 'expected true or false');
  return v === 'true' ? 1 : 0;
}

const isMin = (s: string) => s.toUpperCase() === 'MIN';
const isMax = (s: string) => s.toUpperCase() === 'MAX';

export class SearchCompiler {
  constructor(
    readonly dialect: Dialect,
    readonly t: SearchTables,
  ) {}

  private col(name: string): string {
    return `s.${name}`;
  }

  /** A structured `AREA[Field]value` term as a predicate on the studies table. */
  field(n: Extract<Node, { t: 'field' }>): Sql {
    const f = structuredField(n.field);
    if (!f) throw new FieldValueError(n.field, '', 'unknown field');
    const c = this.col(f.column);
    const phases = ident(this.t.phases);
    if (n.op === 'missing') {
      if (f.type === 'phase') return { sql: `NOT EXISTS (SELECT 1 FROM ${phases} p WHERE p.study_id = s.id)`, params: [] };
      return { sql: `${c} IS NULL`, params: [] };
    }
    switch (f.type) {
      case 'enum':
        if (n.op !== 'eq') throw new FieldValueError(f.name, 'RANGE', 'RANGE applies to dates and numbers only');
        return { sql: `${c} = ?`, params: [checkedEnum(f.name, n.value)] };
      case 'phase':
        if (n.op !== 'eq') throw new FieldValueError(f.name, 'RANGE', 'RANGE applies to dates and numbers only');
        return { sql: `s.id IN (SELECT p.study_id FROM ${phases} p WHERE p.phase = ?)`, params: [checkedEnum(f.name, n.value)] };
      case 'stdage':
        if (n.op !== 'eq') throw new FieldValueError(f.name, 'RANGE', 'RANGE applies to dates and numbers only');
        return { sql: `${c} LIKE ?`, params: [`%|${checkedEnum(f.name, n.value)}|%`] };
      case 'bool':
        if (n.op !== 'eq') throw new FieldValueError(f.name, 'RANGE', 'RANGE applies to dates and numbers only');
        return { sql: `${c} = ?`, params: [checkedBool(f.name, n.value)] };
      case 'id': {
        if (n.op !== 'eq') throw new FieldValueError(f.name, 'RANGE', 'RANGE applies to dates and numbers only');
        const id = normalizeNctId(n.value);
        if (!id) throw new FieldValueError(f.name, n.value, 'expected an NCT number such as NCT04852770');
        return { sql: `${c} = ?`, params: [id] };
      }
      case 'date': {
        // Partial dates ("2022", "2022-05") cover every date they begin: compare as text up to "~".
        if (n.op === 'eq') {
          const v = checkedDate(f.name, n.value);
          return { sql: `(${c} >= ? AND ${c} < ?)`, params: [v, `${v}~`] };
        }
        const parts: string[] = [];
        const params: SqlValue[] = [];
        if (!isMin(n.lo)) {
          parts.push(`${c} >= ?`);
          params.push(checkedDate(f.name, n.lo));
        }
        if (!isMax(n.hi)) {
          parts.push(`${c} < ?`);
          params.push(`${checkedDate(f.name, n.hi)}~`);
        }
        if (!parts.length) parts.push(`${c} IS NOT NULL`);
        return { sql: `(${parts.join(' AND ')})`, params };
      }
      case 'int':
      case 'age': {
        const read = f.type === 'int' ? checkedInt : checkedAge;
        if (n.op === 'eq') return { sql: `${c} = ?`, params: [read(f.name, n.value)] };
        const parts: string[] = [];
        const params: SqlValue[] = [];
        if (!isMin(n.lo)) {
          parts.push(`${c} >= ?`);
          params.push(read(f.name, n.lo));
        }
        if (!isMax(n.hi)) {
          parts.push(`${c} <= ?`);
          params.push(read(f.name, n.hi));
        }
        if (!parts.length) parts.push(`${c} IS NOT NULL`);
        return { sql: `(${parts.join(' AND ')})`, params };
      }
    }
  }

  /** One text term in FTS5 syntax: an optional column filter and a quoted phrase. */
  ftsLeaf(n: Extract<Node, { t: 'text' }>): string {
    const phrase = `"${n.words.join(' ').replace(/"/g, '""')}"${n.prefix ? ' *' : ''}`;
    return n.area === 'all' ? phrase : `{${n.area}} : ${phrase}`;
  }

  /** One text term as a PostgreSQL tsquery: words joined as a phrase, `:*` for a prefix. */
  tsLeaf(n: Extract<Node, { t: 'text' }>): string {
    const words = n.words.map((w) => `'${w.replace(/'/g, "''")}'`);
    if (n.prefix) words[words.length - 1] += ':*';
    return words.length === 1 ? (words[0] as string) : `(${words.join(' <-> ')})`;
  }

  areaTable(area: Area): string {
    const t = this.t.areaText?.[area];
    if (!t) throw new Error(`no text table for area ${area}`);
    return ident(t);
  }

  /** Any expression as a SQL predicate (text terms through the text index). */
  predicate(n: Node): Sql {
    switch (n.t) {
      case 'true':
        return { sql: '1=1', params: [] };
      case 'and':
      case 'or': {
        const parts = n.c.map((c) => this.predicate(c));
        return { sql: `(${parts.map((p) => p.sql).join(n.t === 'and' ? ' AND ' : ' OR ')})`, params: parts.flatMap((p) => p.params) };
      }
      case 'not': {
        const p = this.predicate(n.c);
        return { sql: `NOT ${p.sql}`, params: p.params };
      }
      case 'field':
        return this.field(n);
      case 'text':
        if (this.dialect === 'sqlite') {
          const fts = ident(this.t.text);
          return { sql: `s.id IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ?)`, params: [this.ftsLeaf(n)] };
        }
        return { sql: `s.id IN (SELECT a.id FROM ${this.areaTable(n.area)} a WHERE a.v @@ to_tsquery('simple', ?))`, params: [this.tsLeaf(n)] };
    }
  }

  /** The whole expression as one FTS5 MATCH, when it has only text terms and FTS5 can say it. */
  ftsExpression(n: Node): string | null {
    switch (n.t) {
      case 'text':
        return this.ftsLeaf(n);
      case 'and': {
        const pos: string[] = [];
        const neg: string[] = [];
        for (const c of n.c) {
          const e = c.t === 'not' ? this.ftsExpression(c.c) : this.ftsExpression(c);
          if (e === null) return null;
          (c.t === 'not' ? neg : pos).push(`(${e})`);
        }
        // FTS5 has only binary NOT: "a NOT b" works, "NOT b" alone does not.
        if (!pos.length) return null;
        return pos.join(' AND ') + (neg.length ? ` NOT (${neg.join(' OR ')})` : '');
      }
      case 'or': {
        const parts: string[] = [];
        for (const c of n.c) {
          const e = c.t === 'not' ? null : this.ftsExpression(c);
          if (e === null) return null;
          parts.push(`(${e})`);
        }
        return parts.join(' OR ');
      }
      default:
        return null;
    }
  }

  /** Text terms that count towards relevance: those not under a NOT. */
  positiveLeaves(n: Node, out: Extract<Node, { t: 'text' }>[] = []): Extract<Node, { t: 'text' }>[] {
    if (n.t === 'text') out.push(n);
    else if (n.t === 'and' || n.t === 'or') n.c.forEach((c) => this.positiveLeaves(c, out));
    return out;
  }

  hasText(n: Node): boolean {
    if (n.t === 'text') return true;
    if (n.t === 'and' || n.t === 'or') return n.c.some((c) => this.hasText(c));
    if (n.t === 'not') return this.hasText(n.c);
    return false;
  }

  /** PostgreSQL relevance, ascending is best: each positive term ranked on its own area's vector. */
  pgRelevance(n: Node): Sql | undefined {
    const leaves = this.positiveLeaves(n);
    if (!leaves.length) return undefined;
    const ranks = leaves.map((l) => `COALESCE((SELECT ts_rank(a.v, to_tsquery('simple', ?)) FROM ${this.areaTable(l.area)} a WHERE a.id = s.id), 0)`);
    return { sql: `(-(${ranks.join(' + ')}))`, params: leaves.map((l) => this.tsLeaf(l)) };
  }

  /** A text-only expression whose terms all search one area, as one tsquery on that area's table. */
  singleAreaQuery(n: Node): { area: Area; query: string } | null {
    const areas = new Set<Area>();
    const walk = (x: Node): string | null => {
      switch (x.t) {
        case 'text':
          areas.add(x.area);
          return this.tsLeaf(x);
        case 'not': {
          const inner = walk(x.c);
          return inner === null ? null : `!(${inner})`;
        }
        case 'and':
        case 'or': {
          const parts = x.c.map(walk);
          if (parts.some((p) => p === null)) return null;
          return parts.map((p) => `(${p as string})`).join(x.t === 'and' ? ' & ' : ' | ');
        }
        default:
          return null;
      }
    };
    const query = walk(n);
    const [area] = [...areas];
    return query !== null && areas.size === 1 && area ? { area, query } : null;
  }
}

const NCT = /^[Nn][Cc][Tt]0*([1-9]\d{0,7})$/;

/** NCT numbers may be given without leading zeros or in lower case; the stored form is NCT + 8 digits. */
export function normalizeNctId(raw: string): string | null {
  const m = NCT.exec(raw.trim());
  return m ? `NCT${(m[1] as string).padStart(8, '0')}` : null;
}

export interface Plan {
  /** The rows of one page after `after` (the previous page's last key values). */
  page(after: readonly SqlValue[] | undefined, limit: number): Sql;
  count(): Sql;
  /** How many key values a row carries (its sort keys and its NCT number). */
  readonly keyCount: number;
}

interface OrderKey {
  expr: string;
  params: SqlValue[];
  dir: 'asc' | 'desc';
  nullable: boolean;
}

export interface PlanInput {
  query: Node;
  filters: Sql[];
  sort: readonly SortKey[];
}

/** Plans a search: which index answers the text, how rows are ranked, ordered and paged. */
export function planSearch(c: SearchCompiler, input: PlanInput): Plan {
  const studies = ident(c.t.studies);
  const text = ident(c.t.text);
  const where: Sql[] = [...input.filters];
  let from: Sql;
  // Relevance exists only when some text term is not negated.
  let rel: Sql | undefined;
  const hasText = c.hasText(input.query);

  if (c.dialect === 'sqlite') {
    const pure = hasText ? c.ftsExpression(input.query) : null;
    if (pure !== null) {
      // The common case: the whole query is one FTS5 MATCH, which also ranks.
      from = {
        sql: `(SELECT rowid AS rid, bm25(${text}, ${BM25_WEIGHTS}) AS rel FROM ${text} WHERE ${text} MATCH ?) r JOIN ${studies} s ON s.id = r.rid`,
        params: [pure],
      };
      const match = { sql: `${text} MATCH ?`, params: [pure] };
      if (input.sort.every((k) => k.field === '@relevance')) {
        return topRanked({
          from: text,
          id: `${text}.rowid`,
          match: { sql: `${text} MATCH ?`, params: [pure] },
          rel: { sql: `bm25(${text}, ${BM25_WEIGHTS})`, params: [] },
          studies,
          docs: ident(c.t.docs),
          dir: input.sort[0]?.dir ?? 'desc',
          filter: where.length ? andAll(where) : undefined,
          // "rowid + 0" keeps SQLite from handing the id list to FTS5 as lookups (one MATCH per id).
          filterId: `(${text}.rowid + 0)`,
        });
      }
      // Counting needs no ranking, and no join at all when nothing else filters.
      const count = where.length ? { from: { sql: `${text} JOIN ${studies} s ON s.id = ${text}.rowid`, params: [] }, where: [match, ...where] } : { from: { sql: text, params: [] }, where: [match] };
      return finish(c, from, where, count, { sql: 'r.rel', params: [] }, input.sort, hasText);
    }
    where.unshift(c.predicate(input.query));
    const leaves = c.positiveLeaves(input.query);
    if (leaves.length) {
      const match = leaves.map((l) => `(${c.ftsLeaf(l)})`).join(' OR ');
      from = {
        sql: `${studies} s LEFT JOIN (SELECT rowid AS rid, bm25(${text}, ${BM25_WEIGHTS}) AS rel FROM ${text} WHERE ${text} MATCH ?) r ON r.rid = s.id`,
        params: [match],
      };
      rel = { sql: 'COALESCE(r.rel, 0)', params: [] };
    } else {
      from = { sql: `${studies} s`, params: [] };
    }
    return finish(c, from, where, { from: { sql: `${studies} s`, params: [] }, where }, rel, input.sort, hasText);
  }

  // PostgreSQL: a narrow tsvector table per area, each with its GIN index.
  const single = hasText ? c.singleAreaQuery(input.query) : null;
  if (single && input.sort.every((k) => k.field === '@relevance')) {
    // The common case: every term in one area (one query parameter) is one tsquery on one table.
    const ts = `to_tsquery('simple', ?)`;
    return topRanked({
      from: `${c.areaTable(single.area)} x`,
      id: 'x.id',
      match: { sql: `x.v @@ ${ts}`, params: [single.query] },
      rel: { sql: `(-ts_rank(x.v, ${ts}))`, params: [single.query] },
      studies,
      docs: ident(c.t.docs),
      dir: input.sort[0]?.dir ?? 'desc',
      filter: where.length ? andAll(where) : undefined,
      filterId: 'x.id',
    });
  }
  where.unshift(c.predicate(input.query));
  from = { sql: `${studies} s`, params: [] };
  return finish(c, from, where, { from, where }, c.pgRelevance(input.query), input.sort, hasText);
}

function andAll(parts: Sql[]): Sql {
  return { sql: parts.map((p) => p.sql).join(' AND '), params: parts.flatMap((p) => p.params) };
}

function finish(c: SearchCompiler, from: Sql, where: Sql[], count: { from: Sql; where: Sql[] }, rel: Sql | undefined, sort: readonly SortKey[], hasText: boolean): Plan {
  const keys: OrderKey[] = [];
  const sortKeys: readonly SortKey[] = sort.length ? sort : hasText ? [{ field: '@relevance', dir: 'desc' }] : [];
  for (const k of sortKeys) {
    // Relevance "desc" is best-first; `rel` is defined so that ascending is best-first.
    if (k.field === '@relevance') {
      if (rel) keys.push({ expr: rel.sql, params: rel.params, dir: k.dir === 'desc' ? 'asc' : 'desc', nullable: false });
    } else keys.push({ expr: `s.${SORT_FIELDS[k.field].column}`, params: [], dir: k.dir, nullable: true });
  }
  // Ties (and unsorted searches) go by row id: load order, the same on both databases.
  keys.push({ expr: 's.id', params: [], dir: 'asc', nullable: false });

  const whereSql = (base: Sql[], extra?: Sql): Sql => {
    const all = extra ? [...base, extra] : base;
    return { sql: all.length ? ` WHERE ${all.map((w) => w.sql).join(' AND ')}` : '', params: all.flatMap((w) => w.params) };
  };

  const order = keys
    .map((k) => {
      if (!k.nullable) return `${k.expr} ${k.dir.toUpperCase()}`;
      // Studies without the sort field come last, both ways.
      return c.dialect === 'sqlite' ? `(${k.expr} IS NULL), ${k.expr} ${k.dir.toUpperCase()}` : `${k.expr} ${k.dir.toUpperCase()} NULLS LAST`;
    })
    .join(', ');
  const orderParams = keys.flatMap((k) => (k.nullable ? [] : k.params));

  const select = keys.map((k, i) => `${k.expr} AS k${i}`).join(', ');
  const selectParams = keys.flatMap((k) => k.params);
  // The page is chosen on the narrow tables; only its rows fetch their documents.
  const outerOrder = keys
    .map((k, i) => {
      const e = `q.k${i}`;
      if (!k.nullable) return `${e} ${k.dir.toUpperCase()}`;
      return c.dialect === 'sqlite' ? `(${e} IS NULL), ${e} ${k.dir.toUpperCase()}` : `${e} ${k.dir.toUpperCase()} NULLS LAST`;
    })
    .join(', ');
  const docs = ident(c.t.docs);

  return {
    keyCount: keys.length,
    page(after, limit) {
      const keyset = after ? afterPredicate(keys, after) : undefined;
      const w = whereSql(where, keyset);
      const inner = `SELECT s.id AS id, ${select} FROM ${from.sql}${w.sql} ORDER BY ${order} LIMIT ?`;
      return {
        sql: `SELECT d.doc AS doc, q.* FROM (${inner}) q JOIN ${docs} d ON d.id = q.id ORDER BY ${outerOrder}`,
        params: [...selectParams, ...from.params, ...w.params, ...orderParams, limit],
      };
    },
    count() {
      const w = whereSql(count.where);
      return { sql: `SELECT COUNT(*) AS n FROM ${count.from.sql}${w.sql}`, params: [...count.from.params, ...w.params] };
    },
  };
}

/**
 * A text-only search ranked by relevance alone: the text index finds, ranks and cuts the page
 * itself, and only the page's rows fetch their documents (ranking every match and joining them
 * all first costs several times more on broad terms). Filters on study columns become one set of
 * ids that the matches are checked against.
 */
interface Ranked {
  from: string;
  id: string;
  match: Sql;
  /** Relevance, ascending is best. */
  rel: Sql;
  studies: string;
  docs: string;
  dir: 'asc' | 'desc';
  filter: Sql | undefined;
  filterId: string;
}

function topRanked(r: Ranked): Plan {
  const d = r.dir === 'desc' ? 'ASC' : 'DESC';
  const cmp = r.dir === 'desc' ? '>' : '<';
  const within = r.filter ? { sql: ` AND ${r.filterId} IN (SELECT s.id FROM ${r.studies} s WHERE ${r.filter.sql})`, params: r.filter.params } : { sql: '', params: [] };
  return {
    keyCount: 2,
    page(after, limit) {
      const keyset = after ? ` AND (${r.rel.sql} ${cmp} ? OR (${r.rel.sql} = ? AND ${r.id} > ?))` : '';
      const inner = `SELECT ${r.id} AS rid, ${r.rel.sql} AS rel FROM ${r.from} WHERE ${r.match.sql}${within.sql}${keyset} ORDER BY rel ${d}, rid ASC LIMIT ?`;
      const params: SqlValue[] = [...r.rel.params, ...r.match.params, ...within.params];
      if (after) params.push(...r.rel.params, after[0] ?? null, ...r.rel.params, after[0] ?? null, after[1] ?? null);
      params.push(limit);
      return {
        sql: `SELECT d.doc AS doc, q.rel AS k0, q.rid AS k1 FROM (${inner}) q JOIN ${r.docs} d ON d.id = q.rid ORDER BY q.rel ${d}, q.rid ASC`,
        params,
      };
    },
    count: () => ({ sql: `SELECT COUNT(*) AS n FROM ${r.from} WHERE ${r.match.sql}${within.sql}`, params: [...r.match.params, ...within.params] }),
  };
}

/** Rows strictly after `after` in the order of `keys` (nulls last in each key). */
function afterPredicate(keys: OrderKey[], after: readonly SqlValue[]): Sql {
  const ors: string[] = [];
  const params: SqlValue[] = [];
  keys.forEach((k, i) => {
    const v = after[i];
    if (v === null || v === undefined) return; // nothing sorts after a null within the same key
    const eqs: string[] = [];
    const eqParams: SqlValue[] = [];
    for (let j = 0; j < i; j++) {
      const kj = keys[j] as OrderKey;
      const vj = after[j];
      if (vj === null || vj === undefined) eqs.push(`${kj.expr} IS NULL`);
      else {
        eqs.push(`${kj.expr} = ?`);
        eqParams.push(...kj.params, vj);
      }
    }
    const cmp = k.dir === 'asc' ? '>' : '<';
    const strict = k.nullable ? `(${k.expr} ${cmp} ? OR ${k.expr} IS NULL)` : `${k.expr} ${cmp} ?`;
    const strictParams = k.nullable ? [...k.params, v, ...k.params] : [...k.params, v];
    ors.push(`(${[...eqs, strict].join(' AND ')})`);
    params.push(...eqParams, ...strictParams);
  });
  return { sql: ors.length ? `(${ors.join(' OR ')})` : '1=0', params };
}
