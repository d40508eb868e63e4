/**
 * The HAL envelope of Spring Data REST: `_embedded` keyed by the resource's collection name,
 * `_links`, and for paged lists `page` with a 0-based number. Page links follow Spring HATEOAS:
 * `first` and `last` when there is more than one page, `prev`/`next` where they exist, around
 * `self`; each repeats the request's own parameters with `page`, `size` and `sort`.
 */
import type { Paging } from './params.js';

type Json = Record<string, unknown>;

export interface PageMeta {
  size: number;
  totalElements: number;
  totalPages: number;
  number: number;
}

/** What a paged list's links are built from: its path, the parameters to repeat, and its paging. */
export interface ListLinks {
  /** The list's URL without query (e.g. `.../studies/search/findByDiseaseTrait`). */
  path: string;
  /** `self` as Spring writes it: the bare path for collections, the request URL for finders. */
  self: string;
  /** The request's own parameters other than page/size/sort (a finder's argument, `projection`). */
  params: [string, string][];
  paging: Paging;
  /** Extra links after the page links (`search` on a repository's collection). */
  extra?: Record<string, { href: string; templated?: boolean }>;
}

const enc = (s: string) => encodeURIComponent(s);

function pageHref(l: ListLinks, page: number): string {
  const q: string[] = l.params.map(([k, v]) => `${enc(k)}=${enc(v)}`);
  q.push(`page=${page}`, `size=${l.paging.size}`);
  for (const s of l.paging.sort) q.push(`sort=${enc(`${s.field},${s.dir}`)}`);
  return `${l.path}?${q.join('&')}`;
}

export function pageMeta(paging: Paging, total: number): PageMeta {
  return { size: paging.size, totalElements: total, totalPages: Math.ceil(total / paging.size), number: paging.page };
}

export function pagedCollection(name: string, items: Json[], total: number, l: ListLinks): Json {
  const page = pageMeta(l.paging, total);
  const links: Json = {};
  const navigable = page.totalPages > 1;
  if (navigable) links.first = { href: pageHref(l, 0) };
  if (page.number > 0) links.prev = { href: pageHref(l, page.number - 1) };
  links.self = { href: l.self };
  if (page.number + 1 < page.totalPages) links.next = { href: pageHref(l, page.number + 1) };
  if (navigable) links.last = { href: pageHref(l, page.totalPages - 1) };
  Object.assign(links, l.extra ?? {});
  return { _embedded: { [name]: items }, _links: links, page };
}

/** A list that is not paged (a resource's related resources): all items, a `self` link only. */
export function collection(name: string, items: Json[], self: string): Json {
  return { _embedded: { [name]: items }, _links: { self: { href: self } } };
}
