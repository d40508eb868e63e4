/**
 * API v2's envelopes, as the service sends them (Spring HATEOAS, HAL), which differ from its own
 * OpenAPI document's `links`/`content`/`total_elements`:
 * - a page is `{_embedded: {<relation>: [...]}, _links, page: {size, totalElements, totalPages,
 *   number}}`; an empty page, or one past the end, has no `_embedded`;
 * - page links are `first`, `prev`, `self`, `next`, `last`: `first` and `last` when there is a page
 *   before or after this one, `prev`/`next` where they exist (`prev` even past the end);
 * - each link repeats the request's query as the client wrote it, with `page` and `size` (and a
 *   Spring `sort`, as `property,asc`) moved to its end;
 * - a collection (a study's ancestries) is `{_embedded: {...}}` alone, `{}` when empty.
 */
import type { Query } from '../../../core/http/params.js';
import type { V2Paging } from './params.js';

type Json = Record<string, unknown>;

export const href = (h: string): Json => ({ href: h });
export const templated = (h: string): Json => ({ href: h, templated: true });

export interface PageLinks {
  /** The list's URL without its query. */
  path: string;
  /** The query string as received (without `?`), repeated in every link. */
  rawQuery: string;
  query: Query;
}

/** Spring's `sort` values as its links write them back: `property,direction`. */
function sortValues(q: Query): string[] {
  const raw = q.sort;
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return values.filter((v) => v.trim() !== '').map((v) => (/,\s*(asc|desc)\s*$/i.test(v) ? v.replace(/,\s*(asc|desc)\s*$/i, (_m, d: string) => `,${d.toLowerCase()}`) : `${v},asc`));
}

function nameOf(pair: string): string {
  const name = (pair.split('=')[0] ?? '').replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

function pageHref(l: PageLinks, page: number, size: number): string {
  const kept = l.rawQuery
    .split('&')
    .filter((pair) => pair !== '')
    .filter((pair) => {
      const name = nameOf(pair);
      return name !== 'page' && name !== 'size' && name !== 'sort';
    });
  kept.push(`page=${page}`, `size=${size}`);
  for (const s of sortValues(l.query)) kept.push(`sort=${encodeURIComponent(s).replace(/%2C/g, ',')}`);
  return `${l.path}?${kept.join('&')}`;
}

export function pagedModel(relation: string, items: Json[], total: number, paging: V2Paging, l: PageLinks): Json {
  const totalPages = Math.ceil(total / paging.size);
  const hasPrev = paging.page > 0;
  const hasNext = paging.page + 1 < totalPages;
  const links: Json = {};
  if (hasPrev || hasNext) links.first = href(pageHref(l, 0, paging.size));
  if (hasPrev) links.prev = href(pageHref(l, paging.page - 1, paging.size));
  links.self = href(pageHref(l, paging.page, paging.size));
  if (hasNext) links.next = href(pageHref(l, paging.page + 1, paging.size));
  if (hasPrev || hasNext) links.last = href(pageHref(l, Math.max(0, totalPages - 1), paging.size));
  const out: Json = {};
  if (items.length) out._embedded = { [relation]: items };
  out._links = links;
  out.page = { size: paging.size, totalElements: total, totalPages, number: paging.page };
  return out;
}

export function collectionModel(relation: string, items: Json[]): Json {
  return items.length ? { _embedded: { [relation]: items } } : {};
}
