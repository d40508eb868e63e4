/**
 * The catalog's operations in three shapes Spring Data REST gives its resources: a paged list, an
 * unpaged list of a resource's related resources, and one resource. No HTTP here: a call carries
 * checked path parameters, the query, and the URLs the answer's links are built from.
 */
import { first, type Query } from '../../../core/http/params.js';
import { tableSet } from '../../../core/ingest/dataset.js';
import type { ServiceContext } from '../../types.js';
import { gwasErrors } from '../errors.js';
import { collection, pagedCollection } from './hal.js';
import { carried, parsePaging } from './params.js';
import { CatalogReader, RESOURCES, by, sortable, type Filter, type Resource, type Row } from './queries.js';
import { renderAssociation, renderGene, renderPublication, renderSnp, renderStudy, renderTrait, type AssociationExtras } from './render.js';
import { CATALOG_PREFIX } from './store.js';

type Json = Record<string, unknown>;

export const SERVICE = 'gwas';
export const CATALOG = 'catalog';

export interface CatalogCall {
  params: Record<string, string>;
  query: Query;
  /** The API's base URL as the client reached it, e.g. `http://127.0.0.1:8080/gwas/rest/api`. */
  base: string;
  /** This request's URL without its query. */
  path: string;
  /** This request's URL with its query, as given. */
  url: string;
}

/** The collection name under `_embedded`, per resource. */
export const EMBED: Record<Resource, string> = {
  studies: 'studies',
  associations: 'associations',
  snps: 'singleNucleotidePolymorphisms',
  efoTraits: 'efoTraits',
  genes: 'genes',
  publications: 'publications',
};

/** The repository path of each resource below the base URL. */
export const REPO: Record<Resource, string> = { ...EMBED };

// Readers per database and generation (a process may hold several databases, as tests do).
const readers = new WeakMap<object, Map<number, CatalogReader>>();

export async function reader(ctx: ServiceContext): Promise<CatalogReader | undefined> {
  const gen = await ctx.generations.active(SERVICE, CATALOG);
  if (gen === undefined) return undefined;
  let byGen = readers.get(ctx.db);
  if (!byGen) readers.set(ctx.db, (byGen = new Map()));
  let r = byGen.get(gen);
  if (!r) {
    if (byGen.size > 8) byGen.clear();
    r = new CatalogReader(ctx.db, tableSet(CATALOG_PREFIX, gen));
    byGen.set(gen, r);
  }
  return r;
}

const PROJECTIONS: Record<string, (keyof AssociationExtras)[]> = {
  associationBySnp: ['snps', 'efoTraits'],
  associationByStudy: ['efoTraits', 'study'],
  associationByEfoTrait: ['study', 'snps'],
};

/** Rows as resources; studies get their ancestries, associations what a projection inlines. */
export async function render(r: Resource, rows: Row[], call: CatalogCall, db: CatalogReader | undefined): Promise<Json[]> {
  const base = call.base;
  switch (r) {
    case 'studies': {
      const anc = db ? await db.ancestries(rows.map((x) => String(x.k))) : new Map<string, Json[]>();
      return rows.map((x) => renderStudy(x.doc, anc.get(String(x.k)) ?? [], base));
    }
    case 'associations': {
      const projection = PROJECTIONS[first(call.query, 'projection') ?? ''];
      if (!projection || !db) return rows.map((x) => renderAssociation(Number(x.k), x.doc, base));
      const ids = rows.map((x) => Number(x.k));
      const snps = projection.includes('snps') ? await db.related('snps', ids) : undefined;
      const traits = projection.includes('efoTraits') ? await db.related('efoTraits', ids) : undefined;
      const studies = new Map<string, Json>();
      if (projection.includes('study')) {
        const accs = [...new Set(rows.map((x) => String(x.doc.studyId)))];
        const found = await Promise.all(accs.map((acc) => db.one('studies', by.studyAcc(acc))));
        const anc = await db.ancestries(accs);
        for (const s of found) if (s) studies.set(String(s.k), renderStudy(s.doc, anc.get(String(s.k)) ?? [], base));
      }
      return rows.map((x) => {
        const id = Number(x.k);
        const extras: AssociationExtras = {};
        if (snps) extras.snps = (snps.get(id) ?? []).map((d) => renderSnp(d, base));
        if (traits) extras.efoTraits = (traits.get(id) ?? []).map((d) => renderTrait(d, base));
        if (projection.includes('study')) {
          const st = studies.get(String(x.doc.studyId));
          if (st) extras.study = st;
        }
        return renderAssociation(id, x.doc, base, extras);
      });
    }
    case 'snps':
      return rows.map((x) => renderSnp(x.doc, base));
    case 'efoTraits':
      return rows.map((x) => renderTrait(x.doc, base));
    case 'genes':
      return rows.map((x) => renderGene(x.doc, base));
    case 'publications':
      return rows.map((x) => renderPublication(x.doc, base));
  }
}

export interface ListOptions {
  /** A finder's `self` is the request URL; a collection's is its bare path. */
  finder?: boolean;
  /** The repository's collection also links to its search resource. */
  search?: boolean;
}

/** A paged list (a repository's collection, a paged finder, a paged related list). */
export async function pagedList(ctx: ServiceContext, call: CatalogCall, r: Resource, filter: Filter | undefined, opts: ListOptions = {}): Promise<Json> {
  const paging = parsePaging(call.query, sortable(r));
  const db = await reader(ctx);
  const { rows, total } = db ? await db.page(r, filter, paging) : { rows: [], total: 0 };
  const items = await render(r, rows, call, db);
  return pagedCollection(EMBED[r], items, total, {
    path: call.path,
    self: opts.finder ? call.url : call.path,
    params: carried(call.query),
    paging,
    ...(opts.search ? { extra: { search: { href: `${call.base}/${REPO[r]}/search` } } } : {}),
  });
}

/** Every related resource, unpaged, as Spring Data REST answers association links. */
export async function fullList(ctx: ServiceContext, call: CatalogCall, r: Resource, filter: Filter, opts: ListOptions = {}): Promise<Json> {
  const db = await reader(ctx);
  const rows = db ? await db.all(r, filter) : [];
  return collection(EMBED[r], await render(r, rows, call, db), opts.finder ? call.url : call.path);
}

/** One resource, or 404 naming what was looked for. */
export async function single(ctx: ServiceContext, call: CatalogCall, r: Resource, filter: Filter, what: string): Promise<Json> {
  const db = await reader(ctx);
  const row = db ? await db.one(r, filter) : undefined;
  if (!row) throw gwasErrors.notFound(what);
  const [item] = await render(r, [row], call, db);
  return item as Json;
}

/** 404 unless the resource a related list hangs off exists (as the real service answers). */
export async function requireOne(ctx: ServiceContext, r: Resource, filter: Filter, what: string): Promise<Row> {
  const db = await reader(ctx);
  const row = db ? await db.one(r, filter) : undefined;
  if (!row) throw gwasErrors.notFound(what);
  return row;
}

/** A repository's search resource: its finders as templated links. */
export function searchIndex(call: CatalogCall, r: Resource, finders: Record<string, string[]>): Json {
  const links: Json = {};
  for (const [name, args] of Object.entries(finders)) {
    links[name] = { href: `${call.base}/${REPO[r]}/search/${name}{?${args.join(',')}}`, templated: true };
  }
  links.self = { href: `${call.base}/${REPO[r]}/search` };
  return { _links: links };
}

/** The API root: each repository's collection as a templated link. */
export function root(call: CatalogCall): Json {
  const links: Json = {};
  for (const r of Object.keys(RESOURCES) as Resource[]) {
    links[REPO[r]] = { href: `${call.base}/${REPO[r]}{?page,size,sort}`, templated: true };
  }
  return { _links: links };
}

export function associationId(v: string): number {
  if (!/^\d{1,15}$/.test(v)) throw gwasErrors.badParameter('associationId', v, 'an association id is a whole number');
  return Number(v);
}
