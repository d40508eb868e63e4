/**
 * The GWAS Catalog REST API v2 on the demo catalog: every path of its OpenAPI document, with each
 * query parameter the document declares, answers 200 and validates against the document's schemas
 * (in the HAL envelopes the real service sends); and the answers have the shape, and where the demo
 * holds the same records the values, of the recorded real ones (see `recorded` below).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, gwasApp, loadCatalog, type Json } from './helpers/gwas.js';
import { Validator, loadV2Doc, type Schema } from './helpers/gwas-openapi.js';
import { STORES, type OpenedStore } from './helpers/stores.js';
import type { TestApp } from './helpers/app.js';

const V2 = '/gwas/rest/api/v2';
const HOST = 'http://localhost:80';
const doc = loadV2Doc();
// Where the service sends members its document does not name (see docs/compatibility.md).
const validator = new Validator(doc, { loci: ['description'], errors: ['errorCode', 'errorMessage', 'servicePath'] });

/**
 * Recorded real answers: those of the project's reference folder beside the repository, and one
 * more kept with the tests (test/fixtures/gwas/recorded-v2, with its source).
 */
const SHARED = new URL('../../shared/reference/gwas/recorded-v2/', import.meta.url);
const RECORDED: Record<string, URL> = {
  'study-GCST000028.json': new URL('studies/GCST000028.json', SHARED),
  'publication-17463246.json': new URL('publications/17463246.json', SHARED),
  'studies-asthma-page0-size2.json': new URL('studies__disease_trait=asthma__page=0__size=2.json', SHARED),
  'studies-asthma-page50-size10.json': new URL('studies__disease_trait=asthma__page=50__size=10.json', SHARED),
  'studies-no-match.json': new URL('studies__disease_trait=Type%25202%2520diabetes%2520mellitus%2520xyz__page=0__size=3.json', SHARED),
};
const recorded = (name: string) => JSON.parse(readFileSync(RECORDED[name] ?? new URL(`./fixtures/gwas/recorded-v2/${name}`, import.meta.url), 'utf8')) as Json;
/** A recorded body with its links on this server. */
const here = (v: unknown): unknown => JSON.parse(JSON.stringify(v).replaceAll('https://www.ebi.ac.uk/gwas/rest/api/v2', `${HOST}${V2}`));

/** The `_embedded` relation each list path answers with (the service's, not the document's path names). */
const RELATION: Record<string, string> = {
  '/v2/unpublished-studies': 'unpublished_studies',
  '/v2/unpublished-studies/{accession_id}/unpublished-ancestries': 'unpublished_ancestries',
  '/v2/studies': 'studies',
  '/v2/studies/{accession_id}/ancestries': 'ancestries',
  '/v2/single-nucleotide-polymorphisms': 'snps',
  '/v2/single-nucleotide-polymorphisms/{rs_id}/genomic-contexts': 'genomic_contexts',
  '/v2/publications': 'publications',
  '/v2/genes': 'genes',
  '/v2/efo-traits': 'efo_traits',
  '/v2/body-of-works': 'body_of_works',
  '/v2/body-of-works/{bow_id}/unpublished-studies': 'unpublished_studies',
  '/v2/associations': 'associations',
  '/v2/associations/{association_id}/loci': 'loci',
};

/** Values for each documented query parameter that match demo records, per path where they differ. */
const SAMPLE: Record<string, string> = {
  pubmed_id: '21626137',
  disease_trait: 'Hypertension',
  full_pvalue_set: 'true',
  efo_id: 'EFO_0000537',
  efo_trait: 'hypertension',
  accession_id: 'GCST001085',
  cohort: 'MVP',
  gxe: 'false',
  ancestral_group: 'European',
  no_of_individuals: '1000',
  show_child_trait: 'true',
  mapped_gene: 'TCF7L2',
  extended_geneset: 'true',
  rs_id: 'rs7903146',
  bp_location: '112998590',
  bp_start: '100000000',
  bp_end: '120000000',
  chromosome: '10',
  uri: 'http://www.ebi.ac.uk/efo/EFO_0000537',
  title: 'demo',
  first_author: 'Demo',
  direction: 'desc',
  page: '0',
  size: '5',
};
const SAMPLE_BY_PATH: Record<string, Record<string, string>> = {
  '/v2/unpublished-studies': { disease_trait: 'Demo trait', accession_id: 'GCST99000101', cohort: 'UKB' },
  '/v2/publications': { pubmed_id: '17463246', title: 'type 2 diabetes', first_author: 'Saxena' },
  '/v2/efo-traits': { mapped_gene: 'TCF7L2' },
  '/v2/associations': { pubmed_id: '32541925', full_pvalue_set: 'false' },
  '/v2/single-nucleotide-polymorphisms': { pubmed_id: '32541925' },
};

describe.each(STORES.map((s) => [s.name, s] as const))('GWAS Catalog API v2 on %s', (_name, target) => {
  let store: OpenedStore;
  let t: TestApp;
  /** Path parameters that name demo records (some found through the lists). */
  const PATH: Record<string, string> = { rs_id: 'rs7903146', genomicContext_id: '1', pubmed_id: '17463246', gene_name: 'TCF7L2', efo_id: 'EFO_0000537', bow_id: '1', locus_id: '1' };

  const fill = (path: string) =>
    path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      if (name === 'accession_id') return path.startsWith('/v2/unpublished') ? 'GCST99000101' : 'GCST000028';
      return encodeURIComponent(PATH[name] as string);
    });

  beforeAll(async () => {
    store = await target.open();
    t = await gwasApp(store);
    await loadCatalog(store, t.generations);
    const first = async (url: string, rel: string) => {
      const b = (await get(t.app, url)).body as { _embedded: Record<string, { _links: { self: { href: string } } }[]> };
      return b._embedded[rel]?.[0]?._links.self.href.split('/').pop() as string;
    };
    PATH.association_id = await first(`${V2}/associations?size=1`, 'associations');
    PATH.ancestry_id = await first(`${V2}/studies/GCST000028/ancestries`, 'ancestries');
    PATH.unpublished_ancestry_id = await first(`${V2}/unpublished-studies/GCST99000101/unpublished-ancestries`, 'unpublished_ancestries');
  });
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  /** The 200 schema of a path, with the service's answer where the document is wrong. */
  const schemaOf = (path: string): Schema => {
    // The document gives a page; the service answers the study itself.
    if (path === '/v2/unpublished-studies/{accession_id}') return { $ref: '#/components/schemas/unpublished-studies' };
    const content = doc.paths[path]?.get?.responses['200']?.content ?? {};
    return (Object.values(content)[0] as { schema: Schema }).schema;
  };

  const check = async (path: string, url: string) => {
    const r = await get(t.app, url);
    expect(r.status, `${url}: ${r.raw}`).toBe(200);
    const { errors, relation } = validator.response(r.body, schemaOf(path));
    expect(errors, url).toEqual([]);
    if (relation) expect(relation, url).toBe(RELATION[path]);
    return r;
  };

  it('serves every path of its OpenAPI document, each answer valid against its schema', async () => {
    const paths = Object.keys(doc.paths);
    expect(paths).toHaveLength(26);
    for (const path of paths) {
      const p = path.replace('{ancestry_id}', path.startsWith('/v2/unpublished') ? '{unpublished_ancestry_id}' : '{ancestry_id}');
      const r = await check(path, `/gwas/rest/api${fill(p)}`);
      // Every list of the demo has something in it.
      if (RELATION[path]) expect(r.body._embedded, path).toBeDefined();
    }
  });

  it('takes every query parameter the document declares, alone and valid, with a non-empty answer', async () => {
    let requests = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      const base = `/gwas/rest/api${fill(path.replace('{ancestry_id}', path.startsWith('/v2/unpublished') ? '{unpublished_ancestry_id}' : '{ancestry_id}'))}`;
      for (const param of item.get?.parameters ?? []) {
        if (param.in !== 'query') continue;
        const values =
          param.name === 'sort'
            ? param.schema.type === 'array'
              ? ['id,desc', 'id,asc']
              : (param.schema.enum ?? []).flatMap((v) => [`${v}&direction=asc`, `${v}&direction=desc`])
            : [SAMPLE_BY_PATH[path]?.[param.name] ?? SAMPLE[param.name]];
        expect(values.length, `${path} ${param.name}`).toBeGreaterThan(0);
        for (const v of values) {
          const url = `${base}?${param.name}=${v === undefined ? '' : v.includes('&') ? v : encodeURIComponent(v)}`;
          const r = await check(path, url);
          requests++;
          if (RELATION[path]) expect(r.body._embedded, url).toBeDefined();
        }
      }
    }
    expect(requests).toBeGreaterThan(80);
  });

  it('answers a study as the real service does (recorded GCST000028)', async () => {
    const want = recorded('study-GCST000028.json');
    const got = (await get(t.app, `${V2}/studies/GCST000028`)).body;
    // The downloads carry no licence: `terms_of_license` is left out (docs/compatibility.md).
    expect(Object.keys(got)).toEqual(Object.keys(want).filter((k) => k !== 'terms_of_license'));
    const { terms_of_license: _license, replication_sample_size: rep, ...rest } = want;
    const { replication_sample_size: gotRep, ...gotRest } = got;
    expect(gotRest).toEqual(here(rest));
    // The TSV reader trims cells; the recorded value ends in a space.
    expect(gotRep).toBe(String(rep).trim());
  });

  it('answers a publication as the real service does, but for the author list the downloads lack', async () => {
    const want = recorded('publication-17463246.json');
    const got = (await get(t.app, `${V2}/publications/17463246`)).body;
    expect(Object.keys(got)).toEqual(Object.keys(want));
    expect({ ...got, authors: [] }).toEqual({ ...(here(want) as Json), authors: [] });
    expect(got.authors).toEqual([]);
  });

  it('pages a filtered list as the real service does (recorded asthma studies, page 0 of size 2)', async () => {
    const want = recorded('studies-asthma-page0-size2.json') as { _embedded: { studies: Json[] }; _links: Json; page: Json };
    const got = (await get(t.app, `${V2}/studies?disease_trait=asthma&page=0&size=2`)).body as typeof want;
    // The demo holds 2 of the 87 asthma studies, the two recorded: same items (but for the
    // licence, which the downloads do not carry), one page.
    expect(got._embedded.studies).toEqual(here(want._embedded.studies.map(({ terms_of_license: _l, ...s }) => s)));
    expect(got.page).toEqual({ size: 2, totalElements: 2, totalPages: 1, number: 0 });
    expect(got._links).toEqual({ self: { href: `${HOST}${V2}/studies?disease_trait=asthma&page=0&size=2` } });
    expect(Object.keys(got)).toEqual(Object.keys(want));
    // With more pages, the recorded page's links: first, self, next, last.
    const one = (await get(t.app, `${V2}/studies?disease_trait=asthma&page=0&size=1`)).body as typeof want;
    expect(Object.keys(one._links)).toEqual(Object.keys(want._links));
    expect(one._links.next).toEqual({ href: `${HOST}${V2}/studies?disease_trait=asthma&page=1&size=1` });
  });

  it('answers a page past the end and a search without matches as the real service does', async () => {
    const past = recorded('studies-asthma-page50-size10.json') as { _links: Record<string, { href: string }>; page: Json };
    const got = (await get(t.app, `${V2}/studies?disease_trait=asthma&page=50&size=10`)).body as typeof past;
    expect(Object.keys(got)).toEqual(['_links', 'page']);
    expect(Object.keys(got._links)).toEqual(Object.keys(past._links));
    expect(got._links.prev).toEqual(here(past._links.prev));
    expect(got._links.self).toEqual(here(past._links.self));
    expect(got.page).toEqual({ ...past.page, totalElements: 2, totalPages: 1 });

    const empty = recorded('studies-no-match.json');
    expect((await get(t.app, `${V2}/studies?disease_trait=Type%202%20diabetes%20mellitus%20xyz&page=0&size=3`)).body).toEqual(here(empty));
  });

  it('answers associations with the recorded fields and values (TCF7L2, by p-value)', async () => {
    const want = recorded('associations-TCF7L2-reduced.json') as { _embedded: { associations: Json[] }; page: Json };
    const got = (await get(t.app, `${V2}/associations?mapped_gene=TCF7L2&page=0&size=2&sort=p_value&direction=asc`)).body as typeof want;
    expect(got.page).toEqual({ size: 2, totalElements: 2, totalPages: 1, number: 0 });
    // The recording keeps the fields its client reads; ids differ (the downloads carry none).
    got._embedded.associations.forEach((a, i) => {
      const { association_id: _id, ...fields } = want._embedded.associations[i] as Json;
      expect(a).toMatchObject(fields);
      expect(typeof a.association_id).toBe('number');
    });
  });

  it('serves its OpenAPI document as the real service does', async () => {
    const r = await get(t.app, `${V2}/rest-api-doc.yaml`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/yaml/);
    expect(r.raw).toBe(readFileSync(new URL('../src/services/gwas/v2/reference/rest-api-doc.yaml', import.meta.url), 'utf8'));
  });
});
