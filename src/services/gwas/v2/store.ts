/**
 * API v2's reads of the catalog tables (the same generation v1 serves). A list is a FROM, WHERE
 * conditions and an ORDER BY; in the service's default order (newest first, here the reverse of load
 * order) over a whole table, a page is a range of the table's dense load-order number counted from
 * its end, however deep; otherwise it is an indexed filter with LIMIT/OFFSET.
 */
import { tableSet } from '../../../core/ingest/dataset.js';
import type { Db, SqlValue } from '../../../core/store/db.js';
import { tableExists } from '../../../core/store/tables.js';
import type { ServiceContext } from '../../types.js';
import { CATALOG, SERVICE } from '../catalog/handlers.js';
import { CATALOG_PREFIX, tables, type CatalogTables } from '../catalog/store.js';
import { v2Errors } from './errors.js';
import type { V2Paging } from './params.js';

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
}

export class V2Reader {
  constructor(
    readonly db: Db,
    readonly n: CatalogTables,
  ) {}

  async page(q: ListQuery, paging: V2Paging): Promise<{ rows: Row[]; total: number }> {
    const offset = paging.page * paging.size;
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
   * including parent categories that only the trait mappings know. Empty when none matches.
   */
  async terms(shortForm: string | undefined, label: string | undefined): Promise<string[]> {
    const found = new Set<string>();
    if (shortForm !== undefined) {
      // As written first (an index seek), then ignoring case (a scan of the terms).
      const exact = await this.db.query<{ k: string }>(
        `SELECT short_form AS k FROM ${this.n.traits} WHERE short_form = ? UNION SELECT parent AS k FROM ${this.n.trait_map} WHERE parent = ?`,
        [shortForm, shortForm],
      );
      const sf = shortForm.toLowerCase();
      const rows = exact.length
        ? exact
        : await this.db.query<{ k: string }>(
            `SELECT short_form AS k FROM ${this.n.traits} WHERE LOWER(short_form) = ? UNION SELECT parent AS k FROM ${this.n.trait_map} WHERE LOWER(parent) = ?`,
            [sf, sf],
          );
      for (const r of rows) found.add(r.k);
    }
    if (label !== undefined) {
      const lc = label.toLowerCase();
      const rows = await this.db.query<{ k: string }>(
        `SELECT short_form AS k FROM ${this.n.traits} WHERE label_lc = ? UNION SELECT parent AS k FROM ${this.n.trait_map} WHERE parent_lc = ?`,
        [lc, lc],
      );
      const byLabel = new Set(rows.map((r) => r.k));
      if (shortForm === undefined) for (const k of byLabel) found.add(k);
      else for (const k of [...found]) if (!byLabel.has(k)) found.delete(k);
    }
    return [...found];
  }
}

export const marks = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

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
    r = (await tableExists(ctx.db, t.name('trait_map'))) ? new V2Reader(ctx.db, tables(t)) : false;
    byGen.set(gen, r);
  }
  if (r === false) throw v2Errors.notLoadedForV2();
  return r;
}
