/**
 * Every path of API v2 (its OpenAPI document's 26) and the operation answering it, below
 * `/rest/api/v2`. Paths and parameter names are the document's; errors name what was looked for as
 * the service does (`Studies with Accession Id: GCST0 not found`).
 */
import type { ServiceContext } from '../../types.js';
import { ENTITY, v2Errors } from './errors.js';
import { collection, idParam, paged, parse, readerOr404, renderAssociations, renderStudies, sortBy, type V2Call, type V2Operation } from './handlers.js';
import * as lists from './lists.js';
import { metadata } from './metadata.js';
import { parsePageableSort, parsePaging, parseSort, readParams } from './params.js';
import { renderAncestry, renderContext, renderGene, renderLocus, renderPublication, renderSnp, renderTrait } from './render.js';
import { renderBodyOfWork, renderUnpublished, renderUnpublishedAncestry } from './render-unpublished.js';
import type { Row, V2Reader } from './store.js';

type Json = Record<string, unknown>;

const P = (c: V2Call, name: string) => c.params[name] as string;

/** A row by one key, or the service's 404. */
async function lookup(ctx: ServiceContext, sql: (r: V2Reader) => string, key: string | number, notFound: () => Error): Promise<{ r: V2Reader; row: Row }> {
  const r = await readerOr404(ctx, notFound);
  const row = await r.one(sql(r), [key]);
  if (!row) throw notFound();
  return { r, row };
}

const study = (ctx: ServiceContext, acc: string) =>
  lookup(
    ctx,
    (r) => `SELECT id, acc, doc, doc2 FROM ${r.n.studies} WHERE acc = ?`,
    acc,
    () => v2Errors.notFound(ENTITY.studies, 'Accession Id', acc),
  );
const snp = (ctx: ServiceContext, rs: string, notFound: () => Error) => lookup(ctx, (r) => `SELECT doc FROM ${r.n.snps} WHERE rsid_lc = ?`, rs.toLowerCase(), notFound);
const association = (ctx: ServiceContext, id: number, notFound: () => Error) => lookup(ctx, (r) => `SELECT id, acc, doc, doc2 FROM ${r.n.assocs} WHERE id = ?`, id, notFound);
const unpublishedStudy = (ctx: ServiceContext, acc: string) =>
  lookup(
    ctx,
    (r) => `SELECT acc, bow_id, doc FROM ${r.n.unpub_studies} WHERE acc = ? AND is_first = 1`,
    acc,
    () => v2Errors.notFound(ENTITY.unpublishedStudy, 'Accession Id', acc),
  );
const bodyOfWork = (ctx: ServiceContext, id: number, attribute = 'Id') =>
  lookup(
    ctx,
    (r) => `SELECT id, doc FROM ${r.n.bows} WHERE id = ?`,
    id,
    () => v2Errors.notFound(ENTITY.bodyOfWorks, attribute, String(id)),
  );

async function unpublishedRows(r: V2Reader, rows: Row[], base: string): Promise<Json[]> {
  const ids = [...new Set(rows.map((x) => x.bow_id).filter((x) => x !== null && x !== undefined))].map(Number);
  const bows = new Map<number, Json>();
  if (ids.length) {
    const found = await r.db.query<Row>(`SELECT id, doc FROM ${r.n.bows} WHERE id IN (${ids.map(() => '?').join(', ')})`, ids);
    for (const b of found) bows.set(Number(b.id), parse(b.doc));
  }
  return rows.map((x) => {
    const id = x.bow_id === null || x.bow_id === undefined ? undefined : Number(x.bow_id);
    const doc = id === undefined ? undefined : bows.get(id);
    return renderUnpublished(parse(x.doc), id !== undefined && doc ? { id, doc } : undefined, base);
  });
}

const ancestrySort = { number_of_individuals: 'n' };
const contextSort = { distance: 'distance' };
const unpublishedAncestrySort = { sample_size: 'sample_size', cases: 'cases', controls: 'controls' };

export const V2_OPERATIONS: Record<string, V2Operation> = {
  '/metadata': (ctx, c) => metadata(ctx, c),

  // Studies and their ancestries
  '/studies': (ctx, c) => {
    const p = readParams(c.query, lists.STUDY_PARAMS);
    const sort = parseSort(c.query, lists.STUDY_SORT);
    return paged(ctx, c, 'studies', (r) => lists.studies(r, p, sort), renderStudies);
  },
  '/studies/:accession_id': async (ctx, c) => {
    const { r, row } = await study(ctx, P(c, 'accession_id'));
    return (await renderStudies([row], r, c.base))[0] as Json;
  },
  '/studies/:accession_id/ancestries': async (ctx, c) => {
    const given = c.query.sort !== undefined && parseSort(c.query, ancestrySort);
    const { r, row } = await study(ctx, P(c, 'accession_id'));
    const acc = String(row.acc);
    const rows = ((await r.ancestries([acc])).get(acc) ?? []).map((a) => ({ id: Number(a.id), doc: parse(a.doc) }));
    const sorted = given ? sortBy(rows, (a) => a.doc.numberOfIndividuals, given.dir) : rows;
    return collection(
      'ancestries',
      sorted.map((a) => renderAncestry(a.id, acc, a.doc, c.base)),
    );
  },
  '/studies/:accession_id/ancestries/:ancestry_id': async (ctx, c) => {
    const id = idParam('ancestry_id', P(c, 'ancestry_id'));
    const acc = P(c, 'accession_id');
    const notFound = () => v2Errors.notFound(ENTITY.ancestry, 'Id', String(id));
    const r = await readerOr404(ctx, notFound);
    const row = await r.one(`SELECT id, acc, doc FROM ${r.n.ancestries} WHERE id = ? AND acc = ?`, [id, acc]);
    if (!row) throw notFound();
    return renderAncestry(id, acc, parse(row.doc), c.base);
  },

  // Associations and their loci
  '/associations': (ctx, c) => {
    const p = readParams(c.query, lists.ASSOCIATION_PARAMS);
    const sort = parseSort(c.query, lists.ASSOCIATION_SORT);
    return paged(ctx, c, 'associations', (r) => lists.associations(r, p, sort), renderAssociations);
  },
  '/associations/:association_id': async (ctx, c) => {
    const id = idParam('association_id', P(c, 'association_id'));
    const { r, row } = await association(ctx, id, () => v2Errors.notFound(ENTITY.associations, 'Id', String(id)));
    return (await renderAssociations([row], r, c.base))[0] as Json;
  },
  '/associations/:association_id/loci': async (ctx, c) => {
    const id = idParam('association_id', P(c, 'association_id'));
    const { row } = await association(ctx, id, () => v2Errors.notFound(ENTITY.locus, 'Association Id', String(id)));
    const loci = (parse(row.doc).loci as Json[] | undefined) ?? [];
    return collection(
      'loci',
      loci.map((l, i) => renderLocus(id, i + 1, l, c.base)),
    );
  },
  '/associations/:association_id/loci/:locus_id': async (ctx, c) => {
    const id = idParam('association_id', P(c, 'association_id'));
    const locus = idParam('locus_id', P(c, 'locus_id'));
    const notFound = () => v2Errors.notFound(ENTITY.locus, 'Locus id', String(locus));
    const { row } = await association(ctx, id, notFound);
    const l = ((parse(row.doc).loci as Json[] | undefined) ?? [])[locus - 1];
    if (!l) throw notFound();
    return renderLocus(id, locus, l, c.base);
  },

  // SNPs and their genomic contexts
  '/single-nucleotide-polymorphisms': (ctx, c) => {
    const p = readParams(c.query, lists.SNP_PARAMS);
    const sort = parseSort(c.query, lists.SNP_SORT);
    return paged(
      ctx,
      c,
      'snps',
      (r) => lists.snps(r, p, sort),
      (rows, _r, base) => rows.map((x) => renderSnp(parse(x.doc), base)),
    );
  },
  '/single-nucleotide-polymorphisms/:rs_id': async (ctx, c) => {
    const rs = P(c, 'rs_id');
    const { row } = await snp(ctx, rs, () => v2Errors.notFound(ENTITY.snp, 'rs_id', rs));
    return renderSnp(parse(row.doc), c.base);
  },
  '/single-nucleotide-polymorphisms/:rs_id/genomic-contexts': async (ctx, c) => {
    const given = c.query.sort !== undefined && parseSort(c.query, contextSort);
    const rs = P(c, 'rs_id');
    const notFound = () => v2Errors.notFound(ENTITY.genomicContext, 'rs_id', rs);
    const { row } = await snp(ctx, rs, notFound);
    const doc = parse(row.doc);
    const contexts = ((doc.genomicContexts as Json[] | undefined) ?? []).map((g, i) => ({ i: i + 1, g }));
    if (contexts.length === 0) throw notFound();
    const sorted = given ? sortBy(contexts, (x) => x.g.distance, given.dir) : contexts;
    return collection(
      'genomic_contexts',
      sorted.map((x) => renderContext(String(doc.rsId), x.i, x.g, c.base)),
    );
  },
  '/single-nucleotide-polymorphisms/:rs_id/genomic-contexts/:genomicContext_id': async (ctx, c) => {
    const rs = P(c, 'rs_id');
    const index = idParam('genomicContext_id', P(c, 'genomicContext_id'));
    const notFound = () => v2Errors.notFound(ENTITY.genomicContext, 'id', String(index));
    const { row } = await snp(ctx, rs, notFound);
    const doc = parse(row.doc);
    const g = ((doc.genomicContexts as Json[] | undefined) ?? [])[index - 1];
    if (!g) throw notFound();
    return renderContext(String(doc.rsId), index, g, c.base);
  },

  // EFO traits
  '/efo-traits': (ctx, c) => {
    const p = readParams(c.query, lists.TRAIT_PARAMS);
    const sort = parseSort(c.query, lists.TRAIT_SORT);
    return paged(
      ctx,
      c,
      'efo_traits',
      (r) => lists.traits(r, p, sort),
      (rows, _r, base) => rows.map((x) => renderTrait(parse(x.doc), base)),
    );
  },
  '/efo-traits/:efo_id': async (ctx, c) => {
    const sf = P(c, 'efo_id');
    const { row } = await lookup(
      ctx,
      (r) => `SELECT doc FROM ${r.n.traits} WHERE short_form = ?`,
      sf,
      () => v2Errors.notFound(ENTITY.efoTrait, 'Id', sf),
    );
    return renderTrait(parse(row.doc), c.base);
  },

  // Publications
  '/publications': (ctx, c) => {
    const p = readParams(c.query, lists.PUBLICATION_PARAMS);
    const sort = parseSort(c.query, lists.PUBLICATION_SORT);
    return paged(
      ctx,
      c,
      'publications',
      (r) => lists.publications(r, p, sort),
      (rows, _r, base) => rows.map((x) => renderPublication(parse(x.doc), base)),
    );
  },
  '/publications/:pubmed_id': async (ctx, c) => {
    const pm = P(c, 'pubmed_id');
    const { row } = await lookup(
      ctx,
      (r) => `SELECT doc FROM ${r.n.pubs} WHERE pubmed = ?`,
      pm,
      () => v2Errors.notFound(ENTITY.publications, 'Pubmed id', pm),
    );
    return renderPublication(parse(row.doc), c.base);
  },

  // Genes
  '/genes': (ctx, c) => {
    const sort = parsePageableSort(c.query, lists.GENE_SORT);
    return paged(
      ctx,
      c,
      'genes',
      (r) => lists.genes(r, sort),
      (rows, _r, base) => rows.map((x) => renderGene(parse(x.doc), base)),
    );
  },
  '/genes/:gene_name': async (ctx, c) => {
    const name = P(c, 'gene_name');
    const { row } = await lookup(
      ctx,
      (r) => `SELECT doc FROM ${r.n.genes} WHERE name_lc = ?`,
      name.toLowerCase(),
      () => v2Errors.geneNotFound(name),
    );
    return renderGene(parse(row.doc), c.base);
  },

  // Bodies of work and unpublished studies
  '/body-of-works': (ctx, c) => {
    const p = readParams(c.query, lists.BOW_PARAMS);
    const sort = parsePageableSort(c.query, lists.BOW_SORT);
    return paged(
      ctx,
      c,
      'body_of_works',
      (r) => lists.bodiesOfWork(r, p, sort),
      (rows, _r, base) => rows.map((x) => renderBodyOfWork(Number(x.id), parse(x.doc), base)),
    );
  },
  '/body-of-works/:bow_id': async (ctx, c) => {
    const id = idParam('bow_id', P(c, 'bow_id'));
    const { row } = await bodyOfWork(ctx, id);
    return renderBodyOfWork(id, parse(row.doc), c.base);
  },
  '/body-of-works/:bow_id/unpublished-studies': async (ctx, c) => {
    const id = idParam('bow_id', P(c, 'bow_id'));
    const paging = parsePaging(c.query);
    const sort = parsePageableSort(c.query, { id: 'id' });
    await bodyOfWork(ctx, id, 'id');
    return paged(
      ctx,
      c,
      'unpublished_studies',
      (r) => lists.unpublished(r, {}, sort, id),
      (rows, r, base) => unpublishedRows(r, rows, base),
      paging,
    );
  },
  '/unpublished-studies': (ctx, c) => {
    const p = readParams(c.query, lists.UNPUBLISHED_PARAMS);
    const sort = parseSort(c.query, lists.UNPUBLISHED_SORT);
    return paged(
      ctx,
      c,
      'unpublished_studies',
      (r) => lists.unpublished(r, p, sort),
      (rows, r, base) => unpublishedRows(r, rows, base),
    );
  },
  '/unpublished-studies/:accession_id': async (ctx, c) => {
    const { r, row } = await unpublishedStudy(ctx, P(c, 'accession_id'));
    return (await unpublishedRows(r, [row], c.base))[0] as Json;
  },
  '/unpublished-studies/:accession_id/unpublished-ancestries': async (ctx, c) => {
    const given = c.query.sort !== undefined && parseSort(c.query, unpublishedAncestrySort);
    const { r, row } = await unpublishedStudy(ctx, P(c, 'accession_id'));
    const acc = String(row.acc);
    const rows = (await r.db.query<Row>(`SELECT id, doc FROM ${r.n.unpub_ancestries} WHERE acc = ? ORDER BY id`, [acc])).map((a) => ({ id: Number(a.id), doc: parse(a.doc) }));
    const sorted = given ? sortBy(rows, (a) => a.doc[given.key], given.dir) : rows;
    return collection(
      'unpublished_ancestries',
      sorted.map((a) => renderUnpublishedAncestry(acc, a.id, a.doc, c.base)),
    );
  },
  '/unpublished-studies/:accession_id/unpublished-ancestries/:ancestry_id': async (ctx, c) => {
    const id = idParam('ancestry_id', P(c, 'ancestry_id'));
    const acc = P(c, 'accession_id');
    const notFound = () => v2Errors.notFound(ENTITY.unpublishedAncestry, 'Id', String(id));
    const r = await readerOr404(ctx, notFound);
    const row = await r.one(`SELECT id, doc FROM ${r.n.unpub_ancestries} WHERE id = ? AND acc = ?`, [id, acc]);
    if (!row) throw notFound();
    return renderUnpublishedAncestry(acc, id, parse(row.doc), c.base);
  },
};
