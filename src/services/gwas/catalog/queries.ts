/**
 * Reads of the catalog tables. A list is a FROM/WHERE over one resource table plus its sort
 * columns; its page is a range of the dense `ord` when the whole table is listed in load order,
 * and otherwise an indexed range of the filter, ordered by the requested sort.
 */
import type { TableSet } from '../../../core/ingest/dataset.js';
import type { Db, SqlValue } from '../../../core/store/db.js';
import type { Paging } from './params.js';
import { tables, type CatalogTables } from './store.js';

type Json = Record<string, unknown>;

export type Resource = 'studies' | 'associations' | 'snps' | 'efoTraits' | 'genes' | 'publications';

interface ResourceTable {
  table: keyof CatalogTables;
  alias: string;
  /** Columns every read of the resource returns (its document and its key). */
  cols: string;
  /** Default order: load order. */
  tie: string;
  /** The column numbering the whole table 1..N in load order. */
  dense: string;
  /** The API's sortable properties and the columns they sort on. */
  sort: Record<string, string>;
}

export const RESOURCES: Record<Resource, ResourceTable> = {
  studies: {
    table: 'studies',
    alias: 's',
    cols: 's.acc AS k, s.doc AS doc',
    tie: 's.id',
    dense: 's.id',
    sort: {
      accessionId: 's.acc',
      pubmedId: 's.pubmed',
      'publicationInfo.pubmedId': 's.pubmed',
      publicationDate: 's.pub_date',
      'publicationInfo.publicationDate': 's.pub_date',
      'diseaseTrait.trait': 's.trait_lc',
    },
  },
  associations: { table: 'assocs', alias: 'a', cols: 'a.id AS k, a.doc AS doc', tie: 'a.id', dense: 'a.ord', sort: { id: 'a.id', pvalue: 'a.pkey' } },
  snps: { table: 'snps', alias: 'p', cols: 'p.rsid_lc AS k, p.doc AS doc', tie: 'p.ord', dense: 'p.ord', sort: { rsId: 'p.rsid_lc' } },
  efoTraits: {
    table: 'traits',
    alias: 'x',
    cols: 'x.short_form AS k, x.doc AS doc',
    tie: 'x.ord',
    dense: 'x.ord',
    sort: { trait: 'x.label_lc', shortForm: 'x.short_form', uri: 'x.uri' },
  },
  genes: { table: 'genes', alias: 'g', cols: 'g.name_lc AS k, g.doc AS doc', tie: 'g.ord', dense: 'g.ord', sort: { geneName: 'g.name_lc' } },
  publications: {
    table: 'pubs',
    alias: 'b',
    cols: 'b.pubmed AS k, b.doc AS doc',
    tie: 'b.ord',
    dense: 'b.ord',
    sort: { pubmedId: 'b.pubmed', publicationDate: 'b.pub_date' },
  },
};

export function sortable(r: Resource): string[] {
  return Object.keys(RESOURCES[r].sort);
}

/** A filter over a resource: `where` uses the resource's alias and the catalog's table names. */
export interface Filter {
  where: (n: CatalogTables) => string;
  params: SqlValue[];
  /** An explicit order (a location range orders by position); the default is load order. */
  order?: string;
}

export interface Row {
  k: string | number;
  doc: Json;
}

function rows(raw: { k: unknown; doc: string }[]): Row[] {
  return raw.map((r) => ({ k: r.k as string | number, doc: JSON.parse(r.doc) as Json }));
}

export class CatalogReader {
  readonly n: CatalogTables;
  constructor(
    readonly db: Db,
    t: TableSet,
  ) {
    this.n = tables(t);
  }

  private base(r: Resource): string {
    const d = RESOURCES[r];
    return `${this.n[d.table]} ${d.alias}`;
  }

  /** One page of a resource list and the total number of matches. */
  async page(r: Resource, filter: Filter | undefined, paging: Paging): Promise<{ rows: Row[]; total: number }> {
    const d = RESOURCES[r];
    const from = this.base(r);
    const limit = paging.size;
    const offset = paging.page * paging.size;
    if (!filter && paging.sort.length === 0) {
      // The whole table in load order: `ord` (or the study id) runs 1..N without gaps.
      const max = await this.db.one<{ m: number | null }>(`SELECT MAX(${d.dense}) AS m FROM ${from}`, [], { hot: true });
      const total = Number(max?.m ?? 0);
      const raw = await this.db.query<{ k: unknown; doc: string }>(`SELECT ${d.cols} FROM ${from} WHERE ${d.dense} > ? AND ${d.dense} <= ? ORDER BY ${d.dense}`, [offset, offset + limit], {
        hot: true,
      });
      return { rows: rows(raw), total };
    }
    const where = filter ? ` WHERE ${filter.where(this.n)}` : '';
    const params = filter?.params ?? [];
    // A whole table's size is its highest dense number: no count of every row (a sorted whole list).
    const count = filter
      ? await this.db.one<{ c: number }>(`SELECT COUNT(*) AS c FROM ${from}${where}`, params)
      : await this.db.one<{ c: number }>(`SELECT MAX(${d.dense}) AS c FROM ${from}`, [], { hot: true });
    const dir = paging.sort[0]?.dir ?? 'asc';
    const order = paging.sort.length ? [...paging.sort.map((s) => `${d.sort[s.field]} ${s.dir}`), `${d.tie} ${dir}`].join(', ') : (filter?.order ?? d.tie);
    const raw = await this.db.query<{ k: unknown; doc: string }>(`SELECT ${d.cols} FROM ${from}${where} ORDER BY ${order} LIMIT ? OFFSET ?`, [...params, limit, offset]);
    return { rows: rows(raw), total: Number(count?.c ?? 0) };
  }

  /** Every match, in load order (the related-resource lists Spring Data REST does not page). */
  async all(r: Resource, filter: Filter): Promise<Row[]> {
    const d = RESOURCES[r];
    const raw = await this.db.query<{ k: unknown; doc: string }>(`SELECT ${d.cols} FROM ${this.base(r)} WHERE ${filter.where(this.n)} ORDER BY ${filter.order ?? d.tie}`, filter.params);
    return rows(raw);
  }

  async one(r: Resource, filter: Filter): Promise<Row | undefined> {
    const d = RESOURCES[r];
    const raw = await this.db.query<{ k: unknown; doc: string }>(`SELECT ${d.cols} FROM ${this.base(r)} WHERE ${filter.where(this.n)} LIMIT 1`, filter.params, {
      hot: true,
    });
    return rows(raw)[0];
  }

  /** The ancestry entries of some studies, in file order. */
  async ancestries(accs: readonly string[]): Promise<Map<string, Json[]>> {
    const out = new Map<string, Json[]>();
    if (accs.length === 0) return out;
    const raw = await this.db.query<{ acc: string; doc: string }>(`SELECT acc, doc FROM ${this.n.ancestries} WHERE acc IN (${accs.map(() => '?').join(', ')}) ORDER BY acc, id`, [...accs]);
    for (const r of raw) {
      const list = out.get(r.acc) ?? [];
      list.push(JSON.parse(r.doc) as Json);
      out.set(r.acc, list);
    }
    return out;
  }

  /** For projections: each association's related SNPs or traits, by association id. */
  async related(kind: 'snps' | 'efoTraits', ids: readonly number[]): Promise<Map<number, Json[]>> {
    const out = new Map<number, Json[]>();
    if (ids.length === 0) return out;
    const marks = ids.map(() => '?').join(', ');
    const sql =
      kind === 'snps'
        ? `SELECT j.assoc_id AS a, p.doc AS doc FROM ${this.n.assoc_snps} j JOIN ${this.n.snps} p ON p.rsid_lc = j.rsid_lc WHERE j.assoc_id IN (${marks}) ORDER BY j.assoc_id, p.ord`
        : `SELECT j.assoc_id AS a, x.doc AS doc FROM ${this.n.assoc_traits} j JOIN ${this.n.traits} x ON x.short_form = j.short_form WHERE j.assoc_id IN (${marks}) ORDER BY j.assoc_id, x.ord`;
    for (const r of await this.db.query<{ a: number; doc: string }>(sql, [...ids])) {
      const key = Number(r.a);
      const list = out.get(key) ?? [];
      list.push(JSON.parse(r.doc) as Json);
      out.set(key, list);
    }
    return out;
  }
}

/** Filters by what the API looks resources up by. */
export const by = {
  studyAcc: (acc: string): Filter => ({ where: () => 's.acc = ?', params: [acc] }),
  studyPubmed: (pubmed: string): Filter => ({ where: () => 's.pubmed = ?', params: [pubmed] }),
  studyDiseaseTrait: (trait: string): Filter => ({ where: () => 's.trait_lc = ?', params: [trait.toLowerCase()] }),
  studiesOfTraitLabel: (label: string): Filter => ({
    where: (n) => `s.acc IN (SELECT j.acc FROM ${n.study_traits} j JOIN ${n.traits} x ON x.short_form = j.short_form WHERE x.label_lc = ?)`,
    params: [label.toLowerCase()],
  }),
  studiesOfTraitUri: (uri: string): Filter => ({
    where: (n) => `s.acc IN (SELECT j.acc FROM ${n.study_traits} j JOIN ${n.traits} x ON x.short_form = j.short_form WHERE x.uri = ?)`,
    params: [uri],
  }),
  studiesOfTrait: (shortForm: string): Filter => ({ where: (n) => `s.acc IN (SELECT acc FROM ${n.study_traits} WHERE short_form = ?)`, params: [shortForm] }),
  studiesOfSnp: (rsid: string): Filter => ({
    where: (n) => `s.acc IN (SELECT a.acc FROM ${n.assoc_snps} j JOIN ${n.assocs} a ON a.id = j.assoc_id WHERE j.rsid_lc = ?)`,
    params: [rsid.toLowerCase()],
  }),
  associationId: (id: number): Filter => ({ where: () => 'a.id = ?', params: [id] }),
  associationsOfStudy: (acc: string): Filter => ({ where: () => 'a.acc = ?', params: [acc] }),
  associationsOfPubmed: (pubmed: string): Filter => ({ where: () => 'a.pubmed = ?', params: [pubmed] }),
  associationsOfTrait: (shortForm: string): Filter => ({ where: (n) => `a.id IN (SELECT assoc_id FROM ${n.assoc_traits} WHERE short_form = ?)`, params: [shortForm] }),
  associationsOfSnp: (rsid: string): Filter => ({ where: (n) => `a.id IN (SELECT assoc_id FROM ${n.assoc_snps} WHERE rsid_lc = ?)`, params: [rsid.toLowerCase()] }),
  snpRsid: (rsid: string): Filter => ({ where: () => 'p.rsid_lc = ?', params: [rsid.toLowerCase()] }),
  snpsOfAssociation: (id: number): Filter => ({ where: (n) => `p.rsid_lc IN (SELECT rsid_lc FROM ${n.assoc_snps} WHERE assoc_id = ?)`, params: [id] }),
  snpsOfStudy: (acc: string): Filter => ({
    where: (n) => `p.rsid_lc IN (SELECT j.rsid_lc FROM ${n.assoc_snps} j JOIN ${n.assocs} a ON a.id = j.assoc_id WHERE a.acc = ?)`,
    params: [acc],
  }),
  snpsOfPubmed: (pubmed: string): Filter => ({
    where: (n) => `p.rsid_lc IN (SELECT j.rsid_lc FROM ${n.assoc_snps} j JOIN ${n.assocs} a ON a.id = j.assoc_id WHERE a.pubmed = ?)`,
    params: [pubmed],
  }),
  snpsOfTraitLabel: (label: string): Filter => ({
    where: (n) => `p.rsid_lc IN (SELECT j.rsid_lc FROM ${n.assoc_snps} j JOIN ${n.assoc_traits} k ON k.assoc_id = j.assoc_id JOIN ${n.traits} x ON x.short_form = k.short_form WHERE x.label_lc = ?)`,
    params: [label.toLowerCase()],
  }),
  snpsOfGene: (gene: string): Filter => ({ where: (n) => `p.rsid_lc IN (SELECT rsid_lc FROM ${n.snp_genes} WHERE gene_lc = ?)`, params: [gene.toLowerCase()] }),
  snpsInRange: (chrom: string, start: number, end: number): Filter => ({
    where: () => 'p.chrom = ? AND p.pos >= ? AND p.pos <= ?',
    params: [chrom, start, end],
    order: 'p.chrom, p.pos, p.ord',
  }),
  traitShortForm: (shortForm: string): Filter => ({ where: () => 'x.short_form = ?', params: [shortForm] }),
  traitUri: (uri: string): Filter => ({ where: () => 'x.uri = ?', params: [uri] }),
  traitLabel: (label: string): Filter => ({ where: () => 'x.label_lc = ?', params: [label.toLowerCase()] }),
  traitsOfPubmed: (pubmed: string): Filter => ({
    where: (n) => `x.short_form IN (SELECT j.short_form FROM ${n.study_traits} j JOIN ${n.studies} s ON s.acc = j.acc WHERE s.pubmed = ?)`,
    params: [pubmed],
  }),
  traitsOfStudy: (acc: string): Filter => ({ where: (n) => `x.short_form IN (SELECT short_form FROM ${n.study_traits} WHERE acc = ?)`, params: [acc] }),
  traitsOfAssociation: (id: number): Filter => ({ where: (n) => `x.short_form IN (SELECT short_form FROM ${n.assoc_traits} WHERE assoc_id = ?)`, params: [id] }),
  geneName: (name: string): Filter => ({ where: () => 'g.name_lc = ?', params: [name.toLowerCase()] }),
  publication: (pubmed: string): Filter => ({ where: () => 'b.pubmed = ?', params: [pubmed] }),
};
