/**
 * API v2's behaviour on the demo catalog beyond the shapes: paging to the end and past it, empty
 * results, child traits through the trait mappings, filters and orders, unpublished studies and
 * bodies of work, each error in v2's body, and v1 answering 410 when set to retired.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableSet } from '../src/core/ingest/dataset.js';
import { createGwasService } from '../src/services/gwas/index.js';
import { V1_RETIRED_BODY } from '../src/services/gwas/v2/errors.js';
import { makeApp, type TestApp } from './helpers/app.js';
import { CATALOG_DEMO, get, gwasApp, loadCatalog, local, type Json } from './helpers/gwas.js';
import { Validator, loadV2Doc } from './helpers/gwas-openapi.js';
import { STORES, type OpenedStore } from './helpers/stores.js';

const V2 = '/gwas/rest/api/v2';
const validator = new Validator(loadV2Doc(), { errors: ['errorCode', 'errorMessage', 'servicePath'] });

type Row = Record<string, string>;
function tsv(name: string): Row[] {
  const [head, ...rows] = readFileSync(join(CATALOG_DEMO, name), 'utf8').trimEnd().split('\n');
  const cols = (head as string).split('\t');
  return rows.map((r) => Object.fromEntries(r.split('\t').map((v, i) => [cols[i] as string, v])));
}
const STUDIES = tsv('gwas-catalog-studies_demo.tsv');
const ANCESTRIES = tsv('gwas-catalog-ancestries_demo.tsv').filter((a) => a.STAGE === 'initial');
const ASSOCS = tsv('gwas-catalog-associations_ontology-annotated_demo.tsv');
const ofTraits = (rows: Row[], ...shortForms: string[]) => rows.filter((r) => shortForms.some((sf) => (r.MAPPED_TRAIT_URI ?? '').endsWith(`/${sf}`)));

type Body = Json & { _embedded?: Record<string, Json[]>; _links?: Record<string, { href: string }>; page?: Record<string, number> };

describe.each(STORES.map((s) => [s.name, s] as const))('GWAS Catalog API v2 behaviour on %s', (_name, target) => {
  let store: OpenedStore;
  let t: TestApp;
  const json = async (url: string) => {
    const r = await get(t.app, url);
    return { ...r, body: r.body as Body };
  };
  const items = (b: Body) => Object.values(b._embedded ?? {})[0] ?? [];
  const accs = async (url: string) => items((await json(url)).body).map((s) => s.accession_id);
  const total = async (url: string) => (await json(url)).body.page?.totalElements;

  beforeAll(async () => {
    store = await target.open();
    t = await gwasApp(store);
    const r = await loadCatalog(store, t.generations);
    // Every data row of every demo table is a record (published and unpublished, trait mappings), and every EFO term.
    const text = (f: string) => readFileSync(join(CATALOG_DEMO, f), 'utf8');
    const rows = readdirSync(CATALOG_DEMO).reduce((n, f) => n + (f.endsWith('.obo') ? text(f).split('[Term]').length - 1 : text(f).trimEnd().split('\n').length - 1), 0);
    expect(r.records).toBe(rows);
  });
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  it('gives every record once to a client following next links, newest (last loaded) first', async () => {
    for (const [path, rel, n] of [
      ['/studies', 'studies', STUDIES.length],
      ['/associations', 'associations', ASSOCS.length],
      ['/associations?mapped_gene=TCF7L2', 'associations', 2],
    ] as const) {
      const seen: unknown[] = [];
      let url: string | undefined = `${V2}${path}${path.includes('?') ? '&' : '?'}size=4`;
      while (url) {
        const r = await json(url);
        expect(r.status).toBe(200);
        seen.push(...(r.body._embedded?.[rel] ?? []).map((x) => (x._links as { self: { href: string } }).self.href));
        url = r.body._links?.next ? local(r.body._links.next.href) : undefined;
      }
      expect(seen).toHaveLength(n);
      expect(new Set(seen).size).toBe(n);
    }
    expect((await accs(`${V2}/studies?size=2`))[0]).toBe(STUDIES[STUDIES.length - 1]?.['STUDY ACCESSION']);
  });

  it('answers a page past the end without _embedded, linking back, and an empty search with self alone', async () => {
    const past = await json(`${V2}/studies?page=99&size=5`);
    expect(past.status).toBe(200);
    expect(Object.keys(past.body)).toEqual(['_links', 'page']);
    expect(Object.keys(past.body._links ?? {})).toEqual(['first', 'prev', 'self', 'last']);
    expect(past.body._links?.prev?.href).toMatch(/page=98&size=5$/);
    expect(past.body.page).toEqual({ size: 5, totalElements: STUDIES.length, totalPages: Math.ceil(STUDIES.length / 5), number: 99 });
    for (const url of [`${V2}/studies?cohort=nobody`, `${V2}/associations?rs_id=rs1`, `${V2}/efo-traits?efo_trait=zzz`, `${V2}/studies?gxe=true`, `${V2}/unpublished-studies?cohort=none`]) {
      const r = await json(url);
      expect(r.status, url).toBe(200);
      expect(Object.keys(r.body), url).toEqual(['_links', 'page']);
      expect(r.body.page?.totalElements).toBe(0);
      expect(Object.keys(r.body._links ?? {})).toEqual(['self']);
    }
  });

  it('widens a trait to its child traits with show_child_trait, from the trait mappings', async () => {
    // EFO_0000319 (cardiovascular disease) maps no study itself; hypertension and CAD are under it.
    const under = ofTraits(STUDIES, 'EFO_0000537', 'EFO_0001645').map((r) => r['STUDY ACCESSION']);
    expect(under.length).toBeGreaterThan(1);
    expect(await total(`${V2}/studies?efo_id=EFO_0000319`)).toBe(0);
    expect(new Set(await accs(`${V2}/studies?efo_id=EFO_0000319&show_child_trait=true&size=50`))).toEqual(new Set(under));
    expect(new Set(await accs(`${V2}/studies?efo_trait=Cardiovascular%20disease&show_child_trait=true&size=50`))).toEqual(new Set(under));
    expect(await total(`${V2}/studies?efo_id=EFO_0000319&show_child_trait=false`)).toBe(0);
    // A term without children finds its own studies either way.
    const own = ofTraits(STUDIES, 'EFO_0000537').length;
    expect(await total(`${V2}/studies?efo_id=EFO_0000537&show_child_trait=true`)).toBe(own);
    expect(await total(`${V2}/studies?efo_id=efo_0000537`)).toBe(own);
    expect(await total(`${V2}/associations?efo_id=EFO_0000319&show_child_trait=true`)).toBe(ofTraits(ASSOCS, 'EFO_0000537', 'EFO_0001645').length);
    expect(await total(`${V2}/associations?efo_id=EFO_0000319`)).toBe(0);
    // The Java field names the service also binds.
    expect(await total(`${V2}/studies?shortForm=EFO_0000319&showChildTrait=true`)).toBe(under.length);
  });

  it('filters as the service does', async () => {
    const asthma = STUDIES.filter((s) => s['DISEASE/TRAIT'] === 'Asthma').length;
    expect(await total(`${V2}/studies?disease_trait=ASTHMA`)).toBe(asthma);
    expect(await total(`${V2}/studies?diseaseTrait=asthma`)).toBe(asthma);
    expect(await total(`${V2}/studies?cohort=mv`)).toBe(STUDIES.filter((s) => s.COHORT?.includes('MVP')).length);
    expect(await total(`${V2}/studies?full_pvalue_set=true`)).toBe(STUDIES.filter((s) => s['FULL SUMMARY STATISTICS'] === 'yes').length);
    const hispanic = new Set(ANCESTRIES.filter((a) => /hispanic/i.test(a['BROAD ANCESTRAL CATEGORY'] ?? '')).map((a) => a['STUDY ACCESSION']));
    expect(hispanic.size).toBeGreaterThan(1);
    expect(new Set(await accs(`${V2}/studies?ancestral_group=hispanic&size=50`))).toEqual(hispanic);
    // The initial stage's individuals summed over its ancestry rows.
    expect(await accs(`${V2}/studies?no_of_individuals=600000`)).toEqual(['GCST90480249']);
    expect(await total(`${V2}/studies?accession_id=gcst000028`)).toBe(1);
    expect(await total(`${V2}/studies?mapped_gene=tcf7l2`)).toBe(2);
    expect(await total(`${V2}/associations?rs_id=RS7903146`)).toBe(2);
    expect(await total(`${V2}/single-nucleotide-polymorphisms?chromosome=10&bp_start=112998590&bp_end=112998590`)).toBe(1);
    // A chromosome alone filters nothing, as on the service.
    expect(await total(`${V2}/single-nucleotide-polymorphisms?chromosome=10`)).toBe(await total(`${V2}/single-nucleotide-polymorphisms`));
    expect(items((await json(`${V2}/efo-traits?efo_trait=diabetes`)).body).map((x) => x.efo_id)).toEqual(['MONDO_0005148']);
    expect(await total(`${V2}/publications?first_author=saxena`)).toBe(1);
  });

  it('orders by the documented sort values, with a direction; a sort without one keeps the default order', async () => {
    const pvalues = async (dir: string) =>
      items((await json(`${V2}/associations?sort=p_value&direction=${dir}&size=50`)).body).map((a) => Number(a.pvalue_exponent) + Math.log10(Number(a.pvalue_mantissa)));
    const up = await pvalues('asc');
    expect(up).toEqual([...up].sort((a, b) => a - b));
    const down = await pvalues('desc');
    expect(down).toEqual([...down].sort((a, b) => b - a));
    expect(await accs(`${V2}/studies?sort=accession_Id&direction=asc&size=3`)).toEqual(
      STUDIES.map((s) => s['STUDY ACCESSION'])
        .sort()
        .slice(0, 3),
    );
    expect(await accs(`${V2}/studies?sort=accession_Id&size=3`)).toEqual(await accs(`${V2}/studies?size=3`));
    // Following the page links of a sorted list (they carry `sort=p_value,asc`, as the service's do).
    const walked: number[] = [];
    let url: string | undefined = `${V2}/associations?sort=p_value&direction=desc&size=4`;
    while (url) {
      const r = await json(url);
      walked.push(...items(r.body).map((a) => Number(a.pvalue_exponent) + Math.log10(Number(a.pvalue_mantissa))));
      url = r.body._links?.next ? local(r.body._links.next.href) : undefined;
      if (url) expect(url).toContain('sort=p_value,asc');
    }
    expect(walked).toEqual(down);
    const counts = items((await json(`${V2}/studies?sort=snp_count&direction=desc&size=50`)).body).map((s) => s.snp_count as number | undefined);
    const known = counts.filter((c) => c !== undefined) as number[];
    expect(known).toEqual([...known].sort((a, b) => b - a));
    expect(counts.slice(known.length).every((c) => c === undefined)).toBe(true);
  });

  it('serves unpublished studies, their ancestries and bodies of work from the unpublished downloads', async () => {
    const list = (await json(`${V2}/unpublished-studies`)).body;
    expect(items(list).map((u) => u.study_accession)).toEqual(['GCST99000103', 'GCST99000102', 'GCST99000101']);
    // Unpublished studies are not published ones.
    expect(await total(`${V2}/studies?accession_id=GCST99000101`)).toBe(0);
    const one = (await json(`${V2}/unpublished-studies/GCST99000101`)).body;
    expect(one).toMatchObject({ study_accession: 'GCST99000101', cohort: 'UKB|FinnGen', variant_count: 650000, array_manufacturer: 'Illumina', first_Author: 'Demo A' });
    expect(await total(`${V2}/unpublished-studies?first_author=demo%20b`)).toBe(1);
    const bows = items((await json(`${V2}/body-of-works?title=one`)).body);
    expect(bows).toHaveLength(1);
    const bow = local((bows[0]?._links as { self: { href: string } }).self.href);
    const ofBow = items((await json(`${bow}/unpublished-studies`)).body).map((u) => u.study_accession);
    expect(ofBow.sort()).toEqual(['GCST99000101', 'GCST99000102', 'GCST99000103']);
    const anc = items((await json(`${V2}/unpublished-studies/GCST99000101/unpublished-ancestries?sort=sample_size&direction=asc`)).body);
    expect(anc.map((a) => a.sample_size)).toEqual([3000, 12000]);
  });

  it('answers an unknown accession, rsID, trait or other id with 404 in v2 error body', async () => {
    for (const [url, message] of [
      ['/studies/GCST0', 'Studies with Accession Id: GCST0 not found'],
      ['/studies/GCST0/ancestries', 'Studies with Accession Id: GCST0 not found'],
      ['/studies/GCST000028/ancestries/999999', 'Ancestry with Id: 999999 not found'],
      ['/single-nucleotide-polymorphisms/rs0', 'snp with rs_id: rs0 not found'],
      ['/single-nucleotide-polymorphisms/rs0/genomic-contexts', 'Genomic Context with rs_id: rs0 not found'],
      ['/single-nucleotide-polymorphisms/rs7903146/genomic-contexts/99', 'Genomic Context with id: 99 not found'],
      ['/efo-traits/EFO_0', 'EFO Trait with Id: EFO_0 not found'],
      ['/associations/999999', 'Associations with Id: 999999 not found'],
      ['/associations/999999/loci', 'Locus with Association Id: 999999 not found'],
      ['/publications/1', 'Publications with Pubmed id: 1 not found'],
      ['/genes/NOGENE', 'NOGENE'],
      ['/body-of-works/999', 'Body of Works with Id: 999 not found'],
      ['/body-of-works/999/unpublished-studies', 'Body of Works with id: 999 not found'],
      ['/unpublished-studies/GCST0', 'Unpublished Study with Accession Id: GCST0 not found'],
      ['/unpublished-studies/GCST0/unpublished-ancestries', 'Unpublished Study with Accession Id: GCST0 not found'],
    ]) {
      const r = await json(V2 + url);
      expect(r.status, url).toBe(404);
      expect(r.body, url).toMatchObject({ error_code: 404, error: 'Not Found', error_message: message, service_path: `http://localhost:80${V2}${url}`, errorMessage: message });
      expect(validator.check(r.body, { $ref: '#/components/schemas/errors' }), url).toEqual([]);
      expect(r.body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    }
  });

  it('refuses a bad parameter, or a page or size out of range, with 400 naming it', async () => {
    for (const [url, name] of [
      ['/studies?page=-1', 'page'],
      ['/studies?page=x', 'page'],
      ['/studies?size=0', 'size'],
      ['/studies?size=2001', 'size'],
      ['/associations?size=-5', 'size'],
      ['/studies?gxe=maybe', 'gxe'],
      ['/studies?showChildTrait=perhaps', 'showChildTrait'],
      ['/studies?no_of_individuals=many', 'no_of_individuals'],
      ['/studies?sort=title&direction=asc', 'sort'],
      ['/associations?sort=p_value&direction=up', 'direction'],
      ['/single-nucleotide-polymorphisms?bp_location=1e5', 'bp_location'],
      ['/genes?sort=biotype,asc', 'sort'],
      ['/associations/abc', 'association_id'],
      ['/body-of-works/x', 'bow_id'],
      ['/studies/GCST000028/ancestries?sort=type', 'sort'],
    ]) {
      const r = await json(V2 + url);
      expect(r.status, url).toBe(400);
      expect(r.body.error_code).toBe(400);
      expect(String(r.body.error_message), url).toContain(`'${name}'`);
      expect(validator.check(r.body, { $ref: '#/components/schemas/errors' }), url).toEqual([]);
    }
    // The largest page is accepted.
    expect((await json(`${V2}/studies?size=2000`)).body.page?.size).toBe(2000);
  });

  it('keeps v1 beside v2 by default', async () => {
    expect((await get(t.app, '/gwas/rest/api/studies/GCST000028')).status).toBe(200);
    expect((await get(t.app, `${V2}/studies/GCST000028`)).status).toBe(200);
  });
});

describe.each(STORES.map((s) => [s.name, s] as const))('GWAS Catalog API v1 retired on %s', (_name, target) => {
  let store: OpenedStore;
  let t: TestApp;
  beforeAll(async () => {
    store = await target.open();
    t = await makeApp(store, { services: [createGwasService({ v1: 'retired' })], prefixed: true });
    await loadCatalog(store, t.generations);
  });
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  it('answers every v1 address 410 with the public service text, and v2 and summary statistics as before', async () => {
    for (const url of [
      '/gwas/rest/api',
      '/gwas/rest/api/',
      '/gwas/rest/api/studies',
      '/gwas/rest/api/singleNucleotidePolymorphisms/rs7903146/associations?projection=associationBySnp',
      '/gwas/rest/api/nothing/here',
    ]) {
      const r = await get(t.app, url);
      expect(r.status, url).toBe(410);
      expect(r.headers['content-type']).toMatch(/^text\/plain/);
      expect(r.raw).toBe(V1_RETIRED_BODY);
    }
    expect((await get(t.app, `${V2}/studies/GCST000028`)).status).toBe(200);
    expect((await get(t.app, `${V2}/no-such-resource`)).status).toBe(404);
    expect((await get(t.app, '/gwas/summary-statistics/api/studies')).status).toBe(200);
  });
});

describe.each(STORES.map((s) => [s.name, s] as const))('GWAS Catalog API v2 on a catalog loaded before v2, on %s', (_name, target) => {
  it('answers 503 naming the reload, and v1 as before', async () => {
    const store = await target.open();
    const t = await gwasApp(store);
    try {
      await loadCatalog(store, t.generations);
      // A generation an earlier biomirror loaded lacks v2's tables.
      const gen = (await t.generations.active('gwas', 'catalog')) as number;
      await store.db.exec(`DROP TABLE "${tableSet('gwc', gen).name('trait_map')}"`);
      const r = await get(t.app, `${V2}/studies`);
      expect(r.status).toBe(503);
      expect(String(r.body.error_message)).toContain('load the catalog again');
      expect((await get(t.app, '/gwas/rest/api/studies')).status).toBe(200);
    } finally {
      await t.close();
      await store.cleanup();
    }
  });
});
