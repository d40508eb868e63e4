/**
 * The summary-statistics operations. A list of associations is chosen as segments (which studies,
 * which part of each), then one page of them is read by key. Without p-value bounds a list runs in
 * study order, then chromosome and position; with `p_lower`/`p_upper` it runs in study order, then
 * ascending p-value, so the bounds are an index range however deep the page.
 */
import { first, type Query } from '../../../core/http/params.js';
import { tableSet } from '../../../core/ingest/dataset.js';
import type { ServiceContext } from '../../types.js';
import { gwasErrors } from '../errors.js';
import { hasP, parsePRange, parseWindow, type Window } from './params.js';
import { SumstatsReader, slice, total, type PRange, type Segment, type Study } from './reader.js';
import { associationList, type ListPlace } from './render.js';
import { SUMSTATS_PREFIX } from './store.js';

type Json = Record<string, unknown>;

export const SUMSTATS = 'sumstats';

export interface SumstatsCall {
  params: Record<string, string>;
  query: Query;
  /** The interface's base URL as the client reached it (`.../gwas/summary-statistics/api`). */
  base: string;
  /** The catalog interface's base URL, for `gwas_catalog` links. */
  catalogBase: string;
  /** This request's URL without its query. */
  path: string;
}

// Readers per database and generation; a reader keeps its generation's study list.
const readers = new WeakMap<object, Map<number, SumstatsReader>>();

export async function ssReader(ctx: ServiceContext): Promise<SumstatsReader | undefined> {
  const gen = await ctx.generations.active('gwas', SUMSTATS);
  if (gen === undefined) return undefined;
  let byGen = readers.get(ctx.db);
  if (!byGen) readers.set(ctx.db, (byGen = new Map()));
  let r = byGen.get(gen);
  if (!r) {
    if (byGen.size > 8) byGen.clear();
    r = new SumstatsReader(ctx.db, tableSet(SUMSTATS_PREFIX, gen));
    byGen.set(gen, r);
  }
  return r;
}

export async function studiesOf(ctx: ServiceContext): Promise<{ db: SumstatsReader | undefined; studies: Study[] }> {
  const db = await ssReader(ctx);
  return { db, studies: db ? await db.studies() : [] };
}

/**
 * Filter parameters to repeat in list links: everything but paging. `start` is paging (an offset)
 * except on chromosome ranges, where it is the range's first base pair and must be kept.
 */
export function carried(q: Query, startIsOffset: boolean): [string, string][] {
  const skip = new Set(startIsOffset ? ['page', 'start', 'size'] : ['page', 'size']);
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(q)) {
    if (skip.has(k) || v === undefined) continue;
    for (const x of Array.isArray(v) ? v : [v]) out.push([k, x]);
  }
  return out;
}

export function byStudy(studies: readonly Study[]): Map<number, Study> {
  return new Map(studies.map((s) => [s.sid, s]));
}

/** A page of associations over the given studies: whole (position order) or p-value bounded. */
export async function studyAssociations(ctx: ServiceContext, call: SumstatsCall, pick: (all: Study[]) => Study[]): Promise<Json> {
  const window = parseWindow(call.query, true);
  const p = parsePRange(call.query);
  const { db, studies } = await studiesOf(ctx);
  const chosen = pick(studies);
  if (!db) return emptyList(call, window);
  const segments = hasP(p) ? await db.pSegments(chosen, p) : db.wholeSegments(chosen);
  return readPage(db, call, segments, studies, window, hasP(p));
}

export async function readPage(db: SumstatsReader, call: SumstatsCall, segments: Segment[], studies: Study[], window: Window, byP: boolean, startIsOffset = true): Promise<Json> {
  const parts = slice(segments, window.offset, window.size);
  const rows = byP ? await db.rowsByRank(parts) : await db.rowsAt(parts);
  const more = window.offset + rows.length < total(segments);
  return associationList(rows, byStudy(studies), call.base, place(call, window, more, startIsOffset));
}

/** The answer before any summary statistics are loaded. */
export function emptyList(call: SumstatsCall, window: Window, startIsOffset = true): Json {
  return associationList([], new Map(), call.base, place(call, window, false, startIsOffset));
}

export function place(call: SumstatsCall, window: Window, more: boolean, startIsOffset = true): ListPlace {
  return { path: call.path, params: carried(call.query, startIsOffset), window, more };
}

/** Associations of one variant (optionally on one chromosome, in one study, within p bounds). */
export async function variantAssociations(ctx: ServiceContext, call: SumstatsCall, vid: string, chromosome?: number): Promise<Json> {
  const window = parseWindow(call.query, true);
  const p: PRange = parsePRange(call.query);
  const { db, studies } = await studiesOf(ctx);
  const acc = first(call.query, 'study_accession');
  const sids = acc ? studies.filter((s) => s.acc === acc).map((s) => s.sid) : undefined;
  const found = db ? await db.variantRows(vid, { ...(sids ? { sids } : {}), p, ...(chromosome ? { chromosome } : {}) }, window.size, window.offset) : { rows: [], total: 0 };
  if (found.total === 0) throw gwasErrors.notFound(`Variant ${vid}${chromosome ? ` on chromosome ${chromosome}` : ''}${acc ? ` in study ${acc}` : ''}`);
  const more = window.offset + found.rows.length < found.total;
  return associationList(found.rows, byStudy(studies), call.base, place(call, window, more));
}

/** A list of plain items (traits, studies) paged in memory: these lists are short. */
export function itemWindow<T>(call: SumstatsCall, items: T[]): { items: T[]; links: ListPlace } {
  const window = parseWindow(call.query, true);
  const part = items.slice(window.offset, window.offset + window.size);
  return { items: part, links: place(call, window, window.offset + part.length < items.length) };
}
