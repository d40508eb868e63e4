/**
 * API v2's answers in their three shapes: a page, an unpaged collection, one resource. No HTTP
 * here: a call carries its path parameters, its query (parsed and as written) and the URLs links are
 * built from. Parameters are read before the database, so a bad one answers 400 even with nothing
 * loaded; with nothing loaded, lists are empty and lookups 404.
 */
import type { Query } from '../../../core/http/params.js';
import type { ServiceContext } from '../../types.js';
import { v2Errors } from './errors.js';
import { collectionModel, pagedModel } from './hal.js';
import { parsePaging, type V2Paging } from './params.js';
import { renderAssociation, renderStudy } from './render.js';
import { v2Reader, type ListQuery, type Row, type V2Reader } from './store.js';

type Json = Record<string, unknown>;

export interface V2Call {
  params: Record<string, string>;
  query: Query;
  /** The query string as the client wrote it (page links repeat it). */
  rawQuery: string;
  /** The API's base URL as the client reached it, e.g. `http://127.0.0.1:8080/gwas/rest/api/v2`. */
  base: string;
  /** This request's URL without its query. */
  path: string;
}

export type V2Operation = (ctx: ServiceContext, call: V2Call) => Promise<Json>;

export type RenderRows = (rows: Row[], r: V2Reader, base: string) => Promise<Json[]> | Json[];

export const parse = (v: unknown): Json => JSON.parse(String(v)) as Json;

/** A page of a list; `build` makes its query once the reader is known. */
export async function paged(
  ctx: ServiceContext,
  call: V2Call,
  relation: string,
  build: (r: V2Reader) => ListQuery | Promise<ListQuery>,
  render: RenderRows,
  paging: V2Paging = parsePaging(call.query),
): Promise<Json> {
  const r = await v2Reader(ctx);
  let items: Json[] = [];
  let total = 0;
  if (r) {
    const page = await r.page(await build(r), paging);
    total = page.total;
    items = await render(page.rows, r, call.base);
  }
  return pagedModel(relation, items, total, paging, { path: call.path, rawQuery: call.rawQuery, query: call.query });
}

export function collection(relation: string, items: Json[]): Json {
  return collectionModel(relation, items);
}

/** The served catalog, or a 404 for `what` when none is loaded. */
export async function readerOr404(ctx: ServiceContext, notFound: () => Error): Promise<V2Reader> {
  const r = await v2Reader(ctx);
  if (!r) throw notFound();
  return r;
}

/** A whole number in a path (`association_id`, `bow_id`...), else 400 naming it. */
export function idParam(name: string, v: string): number {
  if (!/^\d{1,15}$/.test(v)) throw v2Errors.badParameter(name, v, 'a whole number');
  return Number(v);
}

export const renderStudies: RenderRows = async (rows, r, base) => {
  const anc = await r.ancestries(rows.map((x) => String(x.acc)));
  return rows.map((x) =>
    renderStudy(
      parse(x.doc),
      parse(x.doc2),
      (anc.get(String(x.acc)) ?? []).map((a) => parse(a.doc)),
      base,
    ),
  );
};

export const renderAssociations: RenderRows = async (rows, r, base) => {
  const studies = await r.studyParts(rows.map((x) => String(x.acc)));
  return rows.map((x) => renderAssociation(Number(x.id), parse(x.doc2), studies.get(String(x.acc))?.bg, base));
};

/** Sorts a small list in memory by a numeric field, missing values last (ancestries, contexts). */
export function sortBy<T>(items: T[], value: (x: T) => unknown, dir: 'asc' | 'desc'): T[] {
  const sign = dir === 'asc' ? 1 : -1;
  const num = (x: T) => {
    const v = value(x);
    return typeof v === 'number' ? v : null;
  };
  return [...items].sort((a, b) => {
    const x = num(a);
    const y = num(b);
    if (x === null || y === null) return x === null ? (y === null ? 0 : 1) : -1;
    return (x - y) * sign;
  });
}
