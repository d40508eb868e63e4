/**
 * API v2's list filters and orders, one function per list, matching the service's queries:
 * exact (ignoring case) on accessions, rsIds, traits and genes; "contains, ignoring case" on
 * cohorts, ancestral groups, titles and authors; `show_child_trait` widening a trait to the terms the
 * trait mappings file under it and, with efo.obo loaded, to all its EFO descendants; `mapped_gene`
 * through the SNPs' mapped genes (the downloads name no wider gene set, so `extended_geneset` finds
 * the same). Default order: newest first, which here is the reverse of load order.
 */
import type { SqlValue } from '../../../core/store/db.js';
import { bool, booleanParam, int, integerParam, str, stringParam, type Params, type ParamSpec, type SortChoice } from './params.js';
import type { ListQuery, TraitFilter, TraitList, V2Reader } from './store.js';

const like = (v: string): string => `%${v.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const LIKE = "LIKE ? ESCAPE '\\'";
const NONE = '1 = 0';

/** A list's trait filter (`efo_id`, `efo_trait`, `show_child_trait`). */
async function traitFilter(r: V2Reader, p: Params, list: TraitList): Promise<TraitFilter | undefined> {
  const sf = str(p, 'efo_id');
  const label = str(p, 'efo_trait');
  if (sf === undefined && label === undefined) return undefined;
  const terms = await r.terms(sf, label);
  if (terms.length === 0) return { sql: NONE, params: [] };
  return r.traitFilter(list, terms, bool(p, 'show_child_trait') === true);
}

/** Genes a SNP maps to (the downloads' MAPPED_GENE: the gene a SNP is in, or its neighbours). */
const geneSnps = (r: V2Reader) => `SELECT rsid_lc FROM ${r.n.snp_genes} WHERE gene_lc = ?`;

function order(sort: SortChoice | undefined, keys: Record<string, (dir: string) => string>, fallback: string): string {
  return sort ? (keys[sort.key] as (dir: string) => string)(sort.dir) : fallback;
}

/** Nulls last both ways, as the service orders (`CASE WHEN x IS NULL THEN 1 ELSE 0 END`, then x). */
const nullsLast = (col: string, tie: string) => (dir: string) => `CASE WHEN ${col} IS NULL THEN 1 ELSE 0 END, ${col} ${dir}, ${tie} ${dir}`;

export const STUDY_PARAMS: ParamSpec[] = [
  stringParam('pubmed_id', 'pubmedId'),
  stringParam('disease_trait', 'diseaseTrait'),
  booleanParam('full_pvalue_set', 'fullPvalueSet'),
  stringParam('efo_id', 'shortForm'),
  stringParam('efo_trait', 'efoTrait'),
  stringParam('accession_id', 'accessionId'),
  stringParam('cohort'),
  booleanParam('gxe'),
  stringParam('ancestral_group', 'ancestralGroup'),
  integerParam('no_of_individuals', 'noOfIndividuals'),
  booleanParam('show_child_trait', 'showChildTrait'),
  stringParam('mapped_gene', 'mappedGene'),
  booleanParam('extended_geneset', 'extendedGeneSet'),
];
export const STUDY_SORT = { accession_Id: 'acc', accession_id: 'acc', snp_count: 'snp_count' };

export async function studies(r: V2Reader, p: Params, sort?: SortChoice): Promise<ListQuery> {
  const n = r.n;
  const where: string[] = [];
  const params: SqlValue[] = [];
  const add = (sql: string, ...v: SqlValue[]) => (where.push(sql), params.push(...v));
  const v = (name: string) => str(p, name);
  if (v('pubmed_id') !== undefined) add('s.pubmed = ?', v('pubmed_id') as string);
  if (v('disease_trait') !== undefined) add('s.trait_lc = ?', (v('disease_trait') as string).toLowerCase());
  if (bool(p, 'full_pvalue_set') !== undefined) add('s.full_pvalue = ?', bool(p, 'full_pvalue_set') ? 1 : 0);
  if (v('accession_id') !== undefined) add('s.acc = ?', (v('accession_id') as string).toUpperCase());
  if (v('cohort') !== undefined) add(`s.cohort_lc ${LIKE}`, like(v('cohort') as string));
  // No download says whether a study is a gene-environment one: all are served as gxe false.
  if (bool(p, 'gxe') === true) add(NONE);
  if (v('ancestral_group') !== undefined) add(`s.acc IN (SELECT acc FROM ${n.ancestries} WHERE stage = 'initial' AND groups_lc ${LIKE})`, like(v('ancestral_group') as string));
  if (int(p, 'no_of_individuals') !== undefined) {
    add(`s.acc IN (SELECT acc FROM ${n.ancestries} WHERE stage = 'initial' GROUP BY acc HAVING SUM(n) >= ?)`, int(p, 'no_of_individuals') as number);
  }
  const traits = await traitFilter(r, p, 'studies');
  if (traits) add(traits.sql, ...traits.params);
  if (v('mapped_gene') !== undefined) {
    add(`s.acc IN (SELECT a.acc FROM ${n.assoc_snps} j JOIN ${n.assocs} a ON a.id = j.assoc_id WHERE j.rsid_lc IN (${geneSnps(r)}))`, (v('mapped_gene') as string).toLowerCase());
  }
  return {
    from: `${n.studies} s`,
    cols: 's.id AS id, s.acc AS acc, s.doc AS doc, s.doc2 AS doc2',
    where,
    params,
    order: order(sort, { acc: (d) => `s.acc ${d}`, snp_count: nullsLast('s.snp_count', 's.id') }, 's.id DESC'),
    dense: 's.id',
    byDefault: !sort,
    under: where.length === 1 ? traits?.under : undefined,
  };
}

export const ASSOCIATION_PARAMS: ParamSpec[] = [
  stringParam('pubmed_id', 'pubmedId'),
  stringParam('rs_id', 'rsId'),
  booleanParam('full_pvalue_set', 'fullPvalueSet'),
  stringParam('accession_id', 'accessionId'),
  stringParam('efo_trait', 'efoTrait'),
  stringParam('efo_id', 'shortForm'),
  booleanParam('show_child_trait', 'showChildTrait'),
  stringParam('mapped_gene', 'mappedGene'),
  booleanParam('extended_geneset', 'extendedGeneSet'),
];
export const ASSOCIATION_SORT = { p_value: 'p', risk_frequency: 'rf', or_value: 'or', beta_num: 'beta' };

export async function associations(r: V2Reader, p: Params, sort?: SortChoice): Promise<ListQuery> {
  const n = r.n;
  const where: string[] = [];
  const params: SqlValue[] = [];
  const add = (sql: string, ...v: SqlValue[]) => (where.push(sql), params.push(...v));
  const v = (name: string) => str(p, name);
  if (v('pubmed_id') !== undefined) add('a.pubmed = ?', v('pubmed_id') as string);
  if (v('rs_id') !== undefined) add(`a.id IN (SELECT assoc_id FROM ${n.assoc_snps} WHERE rsid_lc = ?)`, (v('rs_id') as string).toLowerCase());
  if (bool(p, 'full_pvalue_set') !== undefined) add(`a.acc IN (SELECT acc FROM ${n.studies} WHERE full_pvalue = ?)`, bool(p, 'full_pvalue_set') ? 1 : 0);
  if (v('accession_id') !== undefined) add('a.acc = ?', v('accession_id') as string);
  const traits = await traitFilter(r, p, 'assocs');
  if (traits) add(traits.sql, ...traits.params);
  if (v('mapped_gene') !== undefined) {
    add(`a.id IN (SELECT j.assoc_id FROM ${n.assoc_snps} j WHERE j.rsid_lc IN (${geneSnps(r)}))`, (v('mapped_gene') as string).toLowerCase());
  }
  return {
    from: `${n.assocs} a`,
    cols: 'a.id AS id, a.acc AS acc, a.doc2 AS doc2',
    where,
    params,
    order: order(
      sort,
      {
        // Exponent, then mantissa (as log10): exact even where the p-value itself is 0.0.
        p: (d) => (d === 'asc' ? 'a.plog_a ASC, a.ord ASC' : 'a.plog_d DESC, a.ord DESC'),
        rf: nullsLast('a.rf', 'a.ord'),
        or: nullsLast('a.orv', 'a.ord'),
        beta: nullsLast('a.beta', 'a.ord'),
      },
      'a.ord DESC',
    ),
    dense: 'a.ord',
    byDefault: !sort,
    under: where.length === 1 ? traits?.under : undefined,
  };
}

export const SNP_PARAMS: ParamSpec[] = [
  stringParam('rs_id', 'rsId'),
  integerParam('bp_location', 'bpLocation'),
  integerParam('bp_start', 'bpStart'),
  integerParam('bp_end', 'bpEnd'),
  stringParam('pubmed_id', 'pubmedId'),
  stringParam('chromosome'),
  stringParam('mapped_gene', 'mappedGene'),
  booleanParam('extended_geneset', 'extendedGeneSet'),
];
export const SNP_SORT = { location: 'location', rs_id: 'rs' };

export function snps(r: V2Reader, p: Params, sort?: SortChoice): ListQuery {
  const n = r.n;
  const where: string[] = [];
  const params: SqlValue[] = [];
  const add = (sql: string, ...v: SqlValue[]) => (where.push(sql), params.push(...v));
  if (str(p, 'rs_id') !== undefined) add('p.rsid_lc = ?', (str(p, 'rs_id') as string).toLowerCase());
  if (int(p, 'bp_location') !== undefined) add('p.pos = ?', int(p, 'bp_location') as number);
  // A range needs all three, as on the service; a chromosome alone filters nothing.
  const [chrom, start, end] = [str(p, 'chromosome'), int(p, 'bp_start'), int(p, 'bp_end')];
  if (chrom !== undefined && start !== undefined && end !== undefined) add('p.chrom = ? AND p.pos >= ? AND p.pos <= ?', chrom, start, end);
  if (str(p, 'pubmed_id') !== undefined) {
    add(`p.rsid_lc IN (SELECT j.rsid_lc FROM ${n.assocs} a JOIN ${n.assoc_snps} j ON j.assoc_id = a.id WHERE a.pubmed = ?)`, str(p, 'pubmed_id') as string);
  }
  if (str(p, 'mapped_gene') !== undefined) add(`p.rsid_lc IN (${geneSnps(r)})`, (str(p, 'mapped_gene') as string).toLowerCase());
  return {
    from: `${n.snps} p`,
    cols: 'p.doc AS doc',
    where,
    params,
    order: order(
      sort,
      {
        location: (d) => `CASE WHEN p.chrom = '' THEN 1 ELSE 0 END, p.chrom ${d}, p.pos ${d}, p.ord ${d}`,
        rs: (d) => `p.rsid_lc ${d}`,
      },
      'p.ord DESC',
    ),
    dense: 'p.ord',
    byDefault: !sort,
  };
}

export const TRAIT_PARAMS: ParamSpec[] = [
  stringParam('efo_trait', 'trait'),
  stringParam('uri'),
  stringParam('efo_id', 'shortForm'),
  stringParam('pubmed_id', 'pubmedId'),
  stringParam('mapped_gene', 'mappedGene'),
  booleanParam('extended_geneset', 'extendedGeneSet'),
];
export const TRAIT_SORT = { efo_id: 'sf', efo_trait: 'label' };

export function traits(r: V2Reader, p: Params, sort?: SortChoice): ListQuery {
  const n = r.n;
  const where: string[] = [];
  const params: SqlValue[] = [];
  const add = (sql: string, ...v: SqlValue[]) => (where.push(sql), params.push(...v));
  if (str(p, 'efo_trait') !== undefined) add(`x.label_lc ${LIKE}`, like(str(p, 'efo_trait') as string));
  if (str(p, 'uri') !== undefined) add('LOWER(x.uri) = ?', (str(p, 'uri') as string).toLowerCase());
  if (str(p, 'efo_id') !== undefined) add('LOWER(x.short_form) = ?', (str(p, 'efo_id') as string).toLowerCase());
  if (str(p, 'pubmed_id') !== undefined) {
    add(`x.short_form IN (SELECT j.short_form FROM ${n.study_traits} j JOIN ${n.studies} s ON s.acc = j.acc WHERE s.pubmed = ?)`, str(p, 'pubmed_id') as string);
  }
  if (str(p, 'mapped_gene') !== undefined) {
    add(
      `x.short_form IN (SELECT k.short_form FROM ${n.assoc_traits} k JOIN ${n.assoc_snps} j ON j.assoc_id = k.assoc_id WHERE j.rsid_lc IN (${geneSnps(r)}))`,
      (str(p, 'mapped_gene') as string).toLowerCase(),
    );
  }
  return {
    from: `${n.traits} x`,
    cols: 'x.doc AS doc',
    where,
    params,
    order: order(sort, { sf: (d) => `x.short_form ${d}`, label: (d) => `x.label_lc ${d}, x.ord ${d}` }, 'x.ord DESC'),
    dense: 'x.ord',
    byDefault: !sort,
  };
}

export const PUBLICATION_PARAMS: ParamSpec[] = [stringParam('pubmed_id'), stringParam('title'), stringParam('first_author')];
export const PUBLICATION_SORT = { pubmed_id: 'pubmed', publication_date: 'date' };

export function publications(r: V2Reader, p: Params, sort?: SortChoice): ListQuery {
  const where: string[] = [];
  const params: SqlValue[] = [];
  const add = (sql: string, ...v: SqlValue[]) => (where.push(sql), params.push(...v));
  if (str(p, 'pubmed_id') !== undefined) add('b.pubmed = ?', str(p, 'pubmed_id') as string);
  if (str(p, 'title') !== undefined) add(`b.title_lc ${LIKE}`, like(str(p, 'title') as string));
  if (str(p, 'first_author') !== undefined) add(`b.author_lc ${LIKE}`, like(str(p, 'first_author') as string));
  return {
    from: `${r.n.pubs} b`,
    cols: 'b.doc AS doc',
    where,
    params,
    // PubMed ids in number order: shorter first, then by digits.
    order: order(sort, { pubmed: (d) => `LENGTH(b.pubmed) ${d}, b.pubmed ${d}`, date: (d) => `b.pub_date ${d}, b.ord ${d}` }, 'b.ord DESC'),
    dense: 'b.ord',
    byDefault: !sort,
  };
}

export const GENE_SORT = { id: 'id', gene_name: 'name', geneName: 'name' };

export function genes(r: V2Reader, sort?: SortChoice): ListQuery {
  const desc = !sort || sort.dir === 'desc';
  return {
    from: `${r.n.genes} g`,
    cols: 'g.doc AS doc',
    where: [],
    params: [],
    order: sort?.key === 'name' ? `g.name_lc ${sort.dir}` : `g.ord ${desc ? 'DESC' : 'ASC'}`,
    dense: 'g.ord',
    byDefault: !sort || (sort.key === 'id' && desc),
  };
}

export const BOW_PARAMS: ParamSpec[] = [stringParam('title'), stringParam('first_author')];
export const BOW_SORT = { id: 'id', title: 'title', first_author: 'author', firstAuthor: 'author' };

export function bodiesOfWork(r: V2Reader, p: Params, sort?: SortChoice): ListQuery {
  const where: string[] = [];
  const params: SqlValue[] = [];
  for (const [param, col] of [
    ['title', 'w.title_lc'],
    ['first_author', 'w.author_lc'],
  ] as const) {
    const v = str(p, param);
    if (v !== undefined) {
      where.push(`${col} ${LIKE}`);
      params.push(like(v));
    }
  }
  const dir = sort?.dir ?? 'desc';
  const col = sort?.key === 'title' ? 'w.title_lc' : sort?.key === 'author' ? 'w.author_lc' : 'w.id';
  return { from: `${r.n.bows} w`, cols: 'w.id AS id, w.doc AS doc', where, params, order: col === 'w.id' ? `w.id ${dir}` : `${col} ${dir}, w.id ${dir}` };
}

export const UNPUBLISHED_PARAMS: ParamSpec[] = [
  stringParam('disease_trait', 'diseaseTrait'),
  stringParam('accession_id', 'accessionId'),
  stringParam('title'),
  stringParam('first_author', 'firstAuthor'),
  stringParam('cohort'),
];
export const UNPUBLISHED_SORT = { study_accession: 'acc', variant_count: 'count' };

/** Unpublished studies (each once: its first row); `bowId` keeps those of one body of work. */
export function unpublished(r: V2Reader, p: Params, sort?: SortChoice, bowId?: number): ListQuery {
  const n = r.n;
  const where: string[] = ['u.is_first = 1'];
  const params: SqlValue[] = [];
  const add = (sql: string, ...v: SqlValue[]) => (where.push(sql), params.push(...v));
  if (bowId !== undefined) add(`u.acc IN (SELECT acc FROM ${n.unpub_studies} WHERE bow_id = ?)`, bowId);
  if (str(p, 'disease_trait') !== undefined) add(`u.trait_lc ${LIKE}`, like(str(p, 'disease_trait') as string));
  if (str(p, 'accession_id') !== undefined) add('u.acc = ?', (str(p, 'accession_id') as string).toUpperCase());
  for (const [param, col] of [
    ['title', 'title_lc'],
    ['first_author', 'author_lc'],
  ] as const) {
    const v = str(p, param);
    if (v !== undefined) add(`u.acc IN (SELECT x.acc FROM ${n.unpub_studies} x JOIN ${n.bows} w ON w.id = x.bow_id WHERE w.${col} ${LIKE})`, like(v));
  }
  if (str(p, 'cohort') !== undefined) add(`u.cohort_lc ${LIKE}`, like(str(p, 'cohort') as string));
  return {
    from: `${n.unpub_studies} u`,
    cols: 'u.acc AS acc, u.bow_id AS bow_id, u.doc AS doc',
    where,
    params,
    order: order(sort, { acc: (d) => `u.acc ${d}`, count: nullsLast('u.variant_count', 'u.id'), id: (d) => `u.id ${d}` }, 'u.id DESC'),
  };
}
