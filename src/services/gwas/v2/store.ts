/**
 * API v2's reads of the catalog tables (the same generation v1 serves). A list is a FROM, WHERE
 * conditions and an ORDER BY; in the service's default order (newest first, here the reverse of load
 * order) over a whole table, a page is a range of the table's dense load-order number counted from
 * its end, however deep; otherwise it is an indexed filter with LIMIT/OFFSET.
 */
import { tableSet } from '../../../core/ingest/dataset.js';
import { ident, type Db, type SqlValue } from '../../../core/store/db.js';
import { tableExists } from '../../../core/store/tables.js';
import type { ServiceContext } from '../../types.js';
import { CATALOG, SERVICE } from '../catalog/handlers.js';
import { CATALOG_PREFIX, tables, type CatalogTables } from '../catalog/store.js';
import { v2Errors } from './errors.js';
import type { V2Paging } from './params.js';
import type { Sql } from '../../../core/store/sql.js';

export type Row = Record<string, unknown>;

export interface ListQuery {
  /** `table alias`. */
  from: string;
  cols: string;
  where: string[];
  params: SqlValue[];
  order: string;
  /** The table's dense load-order column (1..N): the size of the whole table, and its pages in reverse load order. */
  dense?: string;
  /** Whether `order` is the default (reverse load order), so that a whole-table page is a range of `dense`. */
  byDefault?: boolean;
  /**
   * When the only condition is one widened trait: its rows' `dense` numbers in default order (a
   * range of the closure's key) and how many there are, so a page reads just its own rows.
   */
  under?: Under;
}

/** The rows under one term: a query of their dense numbers, newest first, and their count. */
export interface Under {
  ids: string;
  params: SqlValue[];
  total: number;
}

/** A list's trait filter as a whole condition, with the rows under the term when it widens one term. */
export interface TraitFilter extends Sql {
  under?: Under;
}

/** Where each list finds a trait's rows: its link table and key, and the closure's table and key. */
const LISTS = {
  assocs: { links: 'assoc_traits', linkKey: 'assoc_id', key: 'a.id', closure: 'assoc_under', closureKey: 'ord', dense: 'a.ord', count: 'assocs' },
  studies: { links: 'study_traits', linkKey: 'acc', key: 's.acc', closure: 'study_under', closureKey: 'sid', dense: 's.id', count: 'studies' },
} as const;
export type TraitList = keyof typeof LISTS;

export class V2Reader {
  constructor(
    readonly db: Db,
    readonly n: CatalogTables,
    /** Whether the generation holds EFO's is_a links (a load with efo.obo). */
    readonly efo = false,
    /** Whether the generation holds what is under each term (loaded by a version that builds it). */
    readonly closure = false,
  ) {}

  async page(q: ListQuery, paging: V2Paging): Promise<{ rows: Row[]; total: number }> {
    const offset = paging.page * paging.size;
    if (q.under && q.byDefault && q.where.length === 1) {
      const { ids, params, total } = q.under;
      if (offset >= total) return { rows: [], total };
      const rows = await this.db.query<Row>(`SELECT ${q.cols} FROM ${q.from} WHERE ${q.dense} IN (${ids} LIMIT ? OFFSET ?) ORDER BY ${q.dense} DESC`, [...params, paging.size, offset], {
        hot: true,
      });
      return { rows, total };
    }
    const whole = q.dense !== undefined && q.where.length === 0;
    if (whole && q.byDefault) {
      const total = await this.size(q);
      const hi = total - offset;
      if (hi <= 0) return { rows: [], total };
      const rows = await this.db.query<Row>(`SELECT ${q.cols} FROM ${q.from} WHERE ${q.dense} > ? AND ${q.dense} <= ? ORDER BY ${q.dense} DESC`, [hi - paging.size, hi], {
        hot: true,
      });
      return { rows, total };
    }
    const where = q.where.length ? ` WHERE ${q.where.join(' AND ')}` : '';
    // A whole table's size is its highest dense number: no count of every row.
    const total = whole ? await this.size(q) : Number((await this.db.one<{ c: number }>(`SELECT COUNT(*) AS c FROM ${q.from}${where}`, q.params))?.c ?? 0);
    if (offset >= total) return { rows: [], total };
    const rows = await this.db.query<Row>(`SELECT ${q.cols} FROM ${q.from}${where} ORDER BY ${q.order} LIMIT ? OFFSET ?`, [...q.params, paging.size, offset]);
    return { rows, total };
  }

  private async size(q: ListQuery): Promise<number> {
    const max = await this.db.one<{ m: number | null }>(`SELECT MAX(${q.dense}) AS m FROM ${q.from}`, [], { hot: true });
    return Number(max?.m ?? 0);
  }

  async one(sql: string, params: readonly SqlValue[]): Promise<Row | undefined> {
    return this.db.one<Row>(sql, params, { hot: true });
  }

  /** Ancestry rows of some studies, in file order. */
  async ancestries(accs: readonly string[]): Promise<Map<string, Row[]>> {
    const out = new Map<string, Row[]>();
    if (accs.length === 0) return out;
    const rows = await this.db.query<Row>(`SELECT id, acc, doc FROM ${this.n.ancestries} WHERE acc IN (${marks(accs.length)}) ORDER BY acc, id`, [...accs]);
    for (const r of rows) {
      const list = out.get(String(r.acc)) ?? [];
      list.push(r);
      out.set(String(r.acc), list);
    }
    return out;
  }

  /** Each study's v2 parts (`doc2`), for the background traits of its associations. */
  async studyParts(accs: readonly string[]): Promise<Map<string, Row>> {
    const out = new Map<string, Row>();
    const unique = [...new Set(accs)];
    if (unique.length === 0) return out;
    const rows = await this.db.query<{ acc: string; doc2: string }>(`SELECT acc, doc2 FROM ${this.n.studies} WHERE acc IN (${marks(unique.length)})`, unique);
    for (const r of rows) out.set(r.acc, JSON.parse(r.doc2) as Row);
    return out;
  }

  /** SNP documents (v1's) by lower-case rsId. */
  async snps(rsids: readonly string[]): Promise<Map<string, Row>> {
    const out = new Map<string, Row>();
    const unique = [...new Set(rsids.map((r) => r.toLowerCase()))];
    if (unique.length === 0) return out;
    const rows = await this.db.query<{ k: string; doc: string }>(`SELECT rsid_lc AS k, doc FROM ${this.n.snps} WHERE rsid_lc IN (${marks(unique.length)})`, unique);
    for (const r of rows) out.set(r.k, JSON.parse(r.doc) as Row);
    return out;
  }

  /**
   * The EFO terms a trait filter names: terms with the given short forms (any case) or labels,
   * including parent categories that only the trait mappings know and, with efo.obo loaded, any
   * term of EFO (an ancestor of the catalog's traits, say). Empty when none matches.
   */
  async terms(shortForm: string | undefined, label: string | undefined): Promise<string[]> {
    const found = new Set<string>();
    const n = this.n;
    // Each source of terms by one condition on its short-form or label column.
    const from = (sf: string, map: string, efo: string) =>
      [
        `SELECT short_form AS k FROM ${n.traits} WHERE ${sf}`,
        `SELECT parent AS k FROM ${n.trait_map} WHERE ${map}`,
        ...(this.efo ? [`SELECT short_form AS k FROM ${n.efo_terms} WHERE ${efo}`] : []),
      ].join(' UNION ');
    const times = <T>(v: T): T[] => Array.from({ length: this.efo ? 3 : 2 }, () => v);
    if (shortForm !== undefined) {
      // As written first (an index seek), then ignoring case (a scan of the terms).
      const exact = await this.db.query<{ k: string }>(from('short_form = ?', 'parent = ?', 'short_form = ?'), times(shortForm));
      const sf = shortForm.toLowerCase();
      const rows = exact.length ? exact : await this.db.query<{ k: string }>(from('LOWER(short_form) = ?', 'LOWER(parent) = ?', 'LOWER(short_form) = ?'), times(sf));
      for (const r of rows) found.add(r.k);
    }
    if (label !== undefined) {
      const lc = label.toLowerCase();
      const rows = await this.db.query<{ k: string }>(from('label_lc = ?', 'parent_lc = ?', 'label_lc = ?'), times(lc));
      const byLabel = new Set(rows.map((r) => r.k));
      if (shortForm === undefined) for (const k of byLabel) found.add(k);
      else for (const k of [...found]) if (!byLabel.has(k)) found.delete(k);
    }
    return [...found];
  }

  /**
   * A list's rows with one of some traits (`show_child_trait` false) or under one of them (true):
   * the closure built at load where the generation has it, else a walk of EFO at request time.
   */
  async traitFilter(list: TraitList, terms: readonly string[], widen: boolean): Promise<TraitFilter> {
    const l = LISTS[list];
    const n = this.n;
    const linked = (cond: Sql): Sql => ({ sql: `${l.key} IN (SELECT ${l.linkKey} FROM ${n[l.links]} WHERE ${cond.sql})`, params: cond.params });
    if (!widen) return linked({ sql: `short_form IN (${marks(terms.length)})`, params: [...terms] });
    if (!this.closure) return linked(await this.childCondition('short_form', terms));
    const found = await this.db.query<{ id: number; c: number }>(`SELECT id, ${l.count} AS c FROM ${n.under_terms} WHERE short_form IN (${marks(terms.length)})`, [...terms], { hot: true });
    if (found.length === 0) return { sql: '1 = 0', params: [] };
    const ids = found.map((f) => Number(f.id));
    const filter: TraitFilter = { sql: `${l.dense} IN (SELECT ${l.closureKey} FROM ${n[l.closure]} WHERE anc IN (${marks(ids.length)}))`, params: ids };
    if (ids.length === 1) {
      filter.under = { ids: `SELECT ${l.closureKey} FROM ${n[l.closure]} WHERE anc = ? ORDER BY ${l.closureKey} DESC`, params: ids, total: Number(found[0]?.c) };
    }
    return filter;
  }

  /**
   * The condition `show_child_trait` puts on a column of EFO short forms, in a generation loaded
   * before the closure was built: the terms themselves,
   * those the trait mappings file under them and, with efo.obo loaded, every descendant in EFO
   * (is_a, transitively) of either. The walk is one recursive query; UNION keeps each term once, so
   * a cycle in the file ends it, and it goes at most as deep as there are terms. Its terms are then
   * given as a list, which both databases plan well (PostgreSQL guesses a recursive query's size
   * blindly and would scan whole tables); a very wide trait keeps the walk as a subquery instead.
   */
  async childCondition(column: string, terms: readonly string[]): Promise<Sql> {
    const n = this.n;
    const list = marks(terms.length);
    if (!this.efo) {
      return { sql: `(${column} IN (${list}) OR ${column} IN (SELECT short_form FROM ${n.trait_map} WHERE parent IN (${list})))`, params: [...terms, ...terms] };
    }
    const seeds = terms.map(() => 'SELECT CAST(? AS TEXT)').join(' UNION ');
    const walk = `WITH RECURSIVE under_t(sf) AS (${seeds} UNION SELECT short_form FROM ${n.trait_map} WHERE parent IN (${list})
      UNION SELECT e.child FROM ${n.efo_edges} e JOIN under_t u ON e.parent = u.sf) SELECT sf FROM under_t`;
    const params = [...terms, ...terms];
    const found = await this.db.query<{ sf: string }>(`${walk} LIMIT ${MAX_LISTED + 1}`, params, { hot: true });
    if (found.length > MAX_LISTED) return { sql: `${column} IN (${walk})`, params };
    return { sql: `${column} IN (${marks(found.length)})`, params: found.map((r) => r.sf) };
  }
}

/** Terms under a trait passed as a list of values up to this many (far below either database's limit of parameters). */
const MAX_LISTED = 2000;

export const marks = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/** Whether a generation has EFO links (generations loaded before efo.obo was read have no table). */
async function hasEfo(db: Db, table: string): Promise<boolean> {
  return (await tableExists(db, table)) && (await db.one(`SELECT 1 AS x FROM ${ident(table)} LIMIT 1`)) !== undefined;
}

// Readers per database and generation; `false` marks a generation loaded before v2 was served.
const readers = new WeakMap<object, Map<number, V2Reader | false>>();

/** The reader of the served catalog, undefined when none is loaded. */
export async function v2Reader(ctx: ServiceContext): Promise<V2Reader | undefined> {
  const gen = await ctx.generations.active(SERVICE, CATALOG);
  if (gen === undefined) return undefined;
  let byGen = readers.get(ctx.db);
  if (!byGen) readers.set(ctx.db, (byGen = new Map()));
  let r = byGen.get(gen);
  if (r === undefined) {
    if (byGen.size > 8) byGen.clear();
    const t = tableSet(CATALOG_PREFIX, gen);
    r = (await tableExists(ctx.db, t.name('trait_map'))) ? new V2Reader(ctx.db, tables(t), await hasEfo(ctx.db, t.name('efo_edges')), await tableExists(ctx.db, t.name('under_terms'))) : false;
    byGen.set(gen, r);
  }
  if (r === false) throw v2Errors.notLoadedForV2();
  return r;
}
