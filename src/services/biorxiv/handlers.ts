/**
 * One function per operation of the preprint service. No HTTP here: inputs are checked requests,
 * outputs are the `messages` entry and the records (as stored JSON), failures are the service's
 * errors.
 */
import { tableSet, type TableSet } from '../../core/ingest/dataset.js';
import type { ServiceContext } from '../types.js';
import { bxErrors } from './errors.js';
import type { FullTextKind } from './fulltext.js';
import type { Interval, Request } from './paths.js';
import { docs, fileContent, newestDate, pageOf, queriesOf, spanByDate, spanOfNewest, type Queries, type Span } from './queries.js';
import type { Message } from './render.js';
import { TABLE_PREFIX } from './store.js';

export const SERVICE = 'biorxiv';
export const DATASET = 'preprints';
/** The upstream's page: 100 records per call, stepped by `cursor`. */
export const PAGE_SIZE = 100;
const NONE = 'no posts found';

export interface Answer {
  message: Message;
  docs: string[];
}

async function generation(ctx: ServiceContext): Promise<TableSet | undefined> {
  const gen = await ctx.generations.active(SERVICE, DATASET);
  return gen === undefined ? undefined : tableSet(TABLE_PREFIX, gen);
}

function minusDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

type Numbered = Queries['papers'];

/**
 * How each kind of interval becomes a span of numbered records. "The last N days" counts back
 * from the newest record loaded (a mirror's data ends at its load, so today would usually find
 * nothing); N days are that day and the N-1 before it.
 */
const RESOLVE: Record<
  Interval['kind'],
  (ctx: ServiceContext, n: Numbered, scope: string[], i: Interval, anchor: () => Promise<string | undefined>) => Promise<{ span: Span | undefined; label: string }>
> = {
  range: async (ctx, n, scope, i) => {
    const { from, to } = i as Extract<Interval, { kind: 'range' }>;
    return { span: await spanByDate(ctx.db, n, scope, from, to), label: `${from}:${to}` };
  },
  days: async (ctx, n, scope, i, anchor) => {
    const { days } = i as Extract<Interval, { kind: 'days' }>;
    const to = await anchor();
    if (!to) return { span: undefined, label: `${days}d` };
    const from = minusDays(to, days - 1);
    return { span: await spanByDate(ctx.db, n, scope, from, to), label: `${from}:${to}` };
  },
  newest: async (ctx, n, scope, i) => {
    const { count } = i as Extract<Interval, { kind: 'newest' }>;
    const span = await spanOfNewest(ctx.db, n, scope, count);
    return { span, label: span ? `${span.fromDate}:${span.toDate}` : String(count) };
  },
};

type ListRequest = Extract<Request, { op: 'list' }>;
type Listed = { span: Span | undefined; label: string; page: string[] };

/** How the interval is named in `messages` when nothing is loaded to resolve it against. */
const plainLabel = (i: Interval): string => (i.kind === 'range' ? `${i.from}:${i.to}` : i.kind === 'days' ? `${i.days}d` : String(i.count));

async function list(ctx: ServiceContext, n: Numbered, anchorOf: Numbered, req: ListRequest): Promise<Listed> {
  const scope = req.category ? [req.category] : [];
  const { span, label } = await RESOLVE[req.interval.kind](ctx, n, scope, req.interval, () => newestDate(ctx.db, anchorOf));
  const page = span ? await pageOf(ctx.db, n, scope, span, req.cursor, PAGE_SIZE) : [];
  return { span, label, page };
}

const total = (span: Span | undefined) => (span ? span.last - span.first + 1 : 0);

function byDoi(doi: string, found: string[]): Answer {
  return { message: { status: found.length ? 'ok' : NONE, doi, count: found.length, total: found.length }, docs: found };
}

/** `details`: preprint versions posted in an interval (optionally of one category), or every version of one DOI. */
export async function details(ctx: ServiceContext, req: Request): Promise<Answer> {
  const t = await generation(ctx);
  const q = t && queriesOf(t);
  if (req.op === 'doi') return byDoi(req.doi, q ? await docs(ctx.db, q.paperByDoi, [req.doi.toLowerCase()]) : []);
  const { span, label, page } = q ? await list(ctx, req.category ? q.papersIn : q.papers, q.papers, req) : { span: undefined, label: plainLabel(req.interval), page: [] };
  return {
    message: {
      status: page.length ? 'ok' : NONE,
      category: req.category ?? 'all',
      interval: label,
      funder: 'all',
      cursor: req.cursor,
      count: page.length,
      // The upstream sends this one as a string.
      count_new_papers: String(span?.newCount ?? 0),
      total: total(span),
    },
    docs: page,
  };
}

/** `pubs`: preprints published in a journal in an interval (by publication date), or the publication of one DOI. */
export async function pubs(ctx: ServiceContext, req: Request): Promise<Answer> {
  const t = await generation(ctx);
  const q = t && queriesOf(t);
  if (req.op === 'doi') {
    if (!q) return byDoi(req.doi, []);
    // The upstream takes either the preprint's DOI or the journal article's.
    const key = req.doi.toLowerCase();
    const found = await docs(ctx.db, q.pubByPreprint, [key]);
    return byDoi(req.doi, found.length ? found : await docs(ctx.db, q.pubByPublished, [key]));
  }
  const { span, label, page } = q ? await list(ctx, q.pubs, q.pubs, req) : { span: undefined, label: plainLabel(req.interval), page: [] };
  return { message: { status: page.length ? 'ok' : NONE, interval: label, cursor: req.cursor, count: page.length, total: total(span) }, docs: page };
}

const KIND_NAMES: Record<FullTextKind, string> = { pdf: 'PDF', html: 'HTML full text', xml: 'JATS XML' };

/** A version's full-text file, when it was loaded. */
export async function fullText(ctx: ServiceContext, doi: string, version: number, kind: FullTextKind): Promise<Buffer> {
  const t = await generation(ctx);
  const content = t ? await fileContent(ctx.db, queriesOf(t), doi.toLowerCase(), version, kind) : undefined;
  if (!content) throw bxErrors.fileNotFound(`no ${KIND_NAMES[kind]} of ${doi} version ${version} is loaded`);
  return content;
}
