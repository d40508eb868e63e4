/**
 * One function per registry operation. No HTTP here: inputs are checked values, outputs are data,
 * failures are the registry's errors from its catalogue.
 */
import { decodeToken, encodeToken, paramsDigest } from '../../core/http/tokens.js';
import { tableSet, type TableSet } from '../../core/ingest/dataset.js';
import { ident, type SqlValue } from '../../core/store/db.js';
import type { ServiceContext } from '../types.js';
import { ctErrors } from './errors.js';
import type { SearchInput } from './params.js';
import { FieldValueError, SearchCompiler, planSearch } from './search.js';
import type { Sql } from '../../core/store/sql.js';
import { TABLE_PREFIX, aliasTarget, studyDoc, tablesOf } from './store.js';

export const SERVICE = 'clinicaltrials';
export const DATASET = 'studies';

export interface StudyPage {
  /** Each study as the JSON text stored at load. */
  docs: string[];
  totalCount: number;
  nextPageToken: string | undefined;
  /** True on the first page (CSV sends its header only there). */
  firstPage: boolean;
}

interface TokenBody {
  g: number;
  d: string;
  a: SqlValue[];
  t: number;
}

function readToken(token: string): TokenBody {
  const body = decodeToken(token) as Partial<TokenBody> | undefined;
  if (!body || typeof body.g !== 'number' || typeof body.d !== 'string' || !Array.isArray(body.a) || typeof body.t !== 'number') {
    throw ctErrors.badPageToken('not a token this server issued (it may be truncated); use the nextPageToken of the previous page');
  }
  return body as TokenBody;
}

async function generation(ctx: ServiceContext): Promise<TableSet | undefined> {
  const gen = await ctx.generations.active(SERVICE, DATASET);
  return gen === undefined ? undefined : tableSet(TABLE_PREFIX, gen);
}

export async function searchStudies(ctx: ServiceContext, input: SearchInput): Promise<StudyPage> {
  const digest = paramsDigest(input.identity as Record<string, unknown>);
  let token: TokenBody | undefined;
  let t: TableSet | undefined;
  if (input.pageToken !== undefined) {
    token = readToken(input.pageToken);
    if (token.d !== digest) {
      throw ctErrors.badPageToken('the token belongs to a search with other parameters; subsequent pages must repeat the first page’s query, filters and sort');
    }
    // A token continues on the data it started on while that data is still kept (it is until the
    // second load after it); after that the walk must start again.
    if (!(await ctx.generations.servable(SERVICE, DATASET, token.g))) {
      throw ctErrors.badPageToken('the data this token was issued for has been replaced by a newer load; start again from the first page');
    }
    t = tableSet(TABLE_PREFIX, token.g);
  } else {
    t = await generation(ctx);
  }
  if (!t) return { docs: [], totalCount: 0, nextPageToken: undefined, firstPage: true };

  const compiler = new SearchCompiler(ctx.db.dialect, tablesOf(t));
  const filters: Sql[] = [];
  const inList = (col: string, values: readonly string[]): Sql => ({ sql: `${col} IN (${values.map(() => '?').join(', ')})`, params: [...values] });
  if (input.statuses) filters.push(inList('s.overall_status', input.statuses));
  if (input.ids) filters.push(inList('s.nct_id', input.ids));
  if (input.phases) {
    filters.push({
      sql: `s.id IN (SELECT p.study_id FROM ${ident(tablesOf(t).phases)} p WHERE p.phase IN (${input.phases.map(() => '?').join(', ')}))`,
      params: [...input.phases],
    });
  }
  let plan;
  try {
    if (input.advanced) filters.push(compiler.predicate(input.advanced));
    plan = planSearch(compiler, { query: input.query, filters, sort: input.sort });
  } catch (err) {
    if (err instanceof FieldValueError) {
      throw ctErrors.invalidQuery(input.advanced ? 'filter.advanced' : 'query.term', `${err.field}: "${err.value}" — ${err.allowed}`);
    }
    throw err;
  }

  let total = token?.t;
  if (total === undefined) {
    const c = plan.count();
    total = Number((await ctx.db.one<{ n: number }>(c.sql, c.params))?.n ?? 0);
  }
  if (token && token.a.length !== plan.keyCount) throw ctErrors.badPageToken('the token does not fit this search');
  const q = plan.page(token?.a, input.pageSize + 1);
  const rows = await ctx.db.query<Record<string, unknown>>(q.sql, q.params);
  const more = rows.length > input.pageSize;
  const page = more ? rows.slice(0, input.pageSize) : rows;
  const last = page[page.length - 1];
  const next = more && last ? encodeToken({ g: t.gen, d: digest, a: Array.from({ length: plan.keyCount }, (_, i) => (last[`k${i}`] ?? null) as SqlValue), t: total }) : undefined;
  return { docs: page.map((r) => r.doc as string), totalCount: total, nextPageToken: next, firstPage: token === undefined };
}

export type StudyLookup = { kind: 'study'; doc: string } | { kind: 'moved'; nctId: string };

/** A study by NCT number; an old number listed in a study's aliases answers with a redirect. */
export async function getStudy(ctx: ServiceContext, nctId: string): Promise<StudyLookup> {
  const t = await generation(ctx);
  if (t) {
    const doc = await studyDoc(ctx.db, t, nctId);
    if (doc !== undefined) return { kind: 'study', doc };
    const moved = await aliasTarget(ctx.db, t, nctId);
    if (moved) return { kind: 'moved', nctId: moved };
  }
  throw ctErrors.studyNotFound(nctId);
}

export const API_VERSION = '2.0.5';

/** API version, and the data timestamp: the release the served load carries (its newest study version date). */
export async function version(ctx: ServiceContext): Promise<{ apiVersion: string; dataTimestamp?: string }> {
  const [load] = await ctx.generations.served(SERVICE);
  const stamp = load?.release ?? load?.finishedAt ?? undefined;
  if (!stamp) return { apiVersion: API_VERSION };
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(stamp) ? `${stamp}T00:00:00` : stamp.replace(/\.\d+Z$|Z$/, '');
  return { apiVersion: API_VERSION, dataTimestamp: iso };
}
