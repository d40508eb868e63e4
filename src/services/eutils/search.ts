/**
 * A search as esearch runs it, shared with the utilities that read a history entry: expand `#n`
 * references, compile, count every term (terms that match nothing are reported and left out, as the
 * real service does), then count and page the rest in the default order.
 */
import { compileQuery, leaves, prune, stack, toNode, translate, type StackItem } from '../ncbi/search/compile.js';
import { historyKeys, parseQuery, QuerySyntaxError, type QNode } from '../ncbi/search/query.js';
import type { ServiceContext } from '../types.js';
import type { Backend, DbName } from './data.js';
import { recall } from './history.js';

export class HistoryError extends Error {
  override readonly name = 'HistoryError';
}

export interface SearchOutcome {
  count: number;
  ids: number[];
  translation: string;
  translationSet: { from: string; to: string }[];
  stack: StackItem[];
  phrasesNotFound: string[];
  fieldsNotFound: string[];
  /** The term with history references written out, as the history keeps it. */
  expanded: string;
}

/** A parsed query written back as text. */
export function unparse(n: QNode): string {
  if (n.t === 'group') return `(${unparse(n.c)})`;
  if (n.t === 'op') return `${unparse(n.l)} ${n.op} ${unparse(n.r)}`;
  if (n.t === 'history') return n.raw;
  const text = (n.quoted ? `"${n.text}"` : n.text) + (n.prefix ? '*' : '');
  return n.tag !== undefined ? `${text}[${n.tag}]` : text;
}

async function expand(ctx: ServiceContext, n: QNode, db: DbName, webenv: string | undefined): Promise<QNode> {
  if (n.t === 'group') return { t: 'group', c: await expand(ctx, n.c, db, webenv) };
  if (n.t === 'op') return { ...n, l: await expand(ctx, n.l, db, webenv), r: await expand(ctx, n.r, db, webenv) };
  if (n.t !== 'history') return n;
  const entry = webenv ? await recall(ctx.db, webenv, n.key) : undefined;
  if (!entry || entry.db !== db) throw new HistoryError(`Unable to obtain query #${n.key}`);
  return { t: 'group', c: parseQuery(entry.term) };
}

export async function runSearch(
  ctx: ServiceContext,
  db: DbName,
  b: Backend | undefined,
  term: string,
  opts: { webenv?: string | undefined; retstart: number; retmax: number; field?: string | undefined },
): Promise<SearchOutcome> {
  let q = parseQuery(term);
  if (historyKeys(q).length) q = await expand(ctx, q, db, opts.webenv);
  const expanded = unparse(q);
  if (!b) {
    const c = { translation: expanded, translationSet: [], stack: [], fieldsNotFound: [] };
    return { ...c, count: 0, ids: [], phrasesNotFound: [expanded], expanded };
  }
  const compiled = await compileQuery(b.def, q, b.resolve, opts.field);
  const all = leaves(compiled.plan);
  for (const leaf of all) leaf.count = await b.searcher.count(leaf.node);
  const phrasesNotFound = all.filter((l) => l.count === 0).map((l) => l.raw);
  const kept = prune(compiled.plan);
  if (!kept) {
    return {
      count: 0,
      ids: [],
      translation: `(${translate(compiled.plan)})`,
      translationSet: compiled.translationSet,
      stack: [],
      phrasesNotFound,
      fieldsNotFound: compiled.fieldsNotFound,
      expanded,
    };
  }
  const node = toNode(kept);
  const count = kept.k === 'leaf' ? kept.leaf.count : await b.searcher.count(node);
  const ids = opts.retmax > 0 && opts.retstart < count ? await b.searcher.page(node, opts.retstart, opts.retmax) : [];
  return {
    count,
    ids,
    translation: translate(kept),
    translationSet: compiled.translationSet,
    stack: stack(kept),
    phrasesNotFound,
    fieldsNotFound: compiled.fieldsNotFound,
    expanded,
  };
}

export { QuerySyntaxError };
