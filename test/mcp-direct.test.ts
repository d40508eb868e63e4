/**
 * The tools' in-process shortcut (core/http/direct.ts): a plain GET of a route with a reader is
 * answered by that reader, without a request, and answers exactly what the route answers; anything
 * else (a miss, a bad parameter, CSV, a redirect) takes the route, counted once by the limits; and
 * the shortcut stays shut whenever the route would add something to a local answer (loading,
 * faults, pull-through, kept answers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectRoutes, directRoutesOf } from '../src/core/http/direct.js';
import { KeptStore } from '../src/core/pullthrough/store.js';
import { getJson } from '../src/mcp/context.js';
import { DEFAULT_CONFIG, type Config } from '../src/server/config.js';
import { Readiness } from '../src/server/readiness.js';
import { loadDemoData, type Runtime } from '../src/server/serve.js';
import { SERVICES } from '../src/services/registry.js';
import { makeApp, silent, type TestApp } from './helpers/app.js';
import { STORES, type OpenedStore } from './helpers/stores.js';

const WANT = new Set(['clinicaltrials', 'eutils', 'datasets', 'gwas', 'pgx', 'alphafold', 'rcsb-data', 'biorxiv']);
const services = SERVICES.filter((s) => WANT.has(s.id));

/** URLs of every route family with a reader, each answered from the demo data. */
const ANSWERED = [
  '/clinicaltrials/api/v2/studies/NCT02513394',
  '/clinicaltrials/api/v2/studies/NCT02513394?fields=protocolSection.identificationModule',
  '/clinicaltrials/api/v2/studies?query.cond=melanoma&pageSize=10&countTotal=true&format=json',
  '/datasets/v2alpha/gene/id/672',
  '/datasets/v2/gene/symbol/BRCA1/taxon/9606/dataset_report',
  '/gwas/rest/api/v2/associations?sort=p_value&direction=asc&size=10&page=0&rs_id=rs7903146',
  '/gwas/rest/api/singleNucleotidePolymorphisms/rs7903146',
  '/gwas/summary-statistics/api/chromosomes/1/associations?start=99500000&end=99600000&size=20&page=0',
  '/gwas/summary-statistics/api/studies',
  '/alphafold/api/prediction/P69905',
  '/alphafold/api/prediction/P69905?categories=letters',
  '/pgx/v1/geneDrugPair?gene=CYP2D6',
  '/pgx/v1/gene/CYP2D6',
  '/pgx/v1/data/gene?symbol=CYP2D6&view=min',
  '/rcsb/data/rest/v1/core/entry/4HHB',
  '/rcsb/data/rest/v1/core/polymer_entity/4HHB/1',
  '/rcsb/data/rest/v1/core/polymer_entity/4HHB_1',
  '/rcsb/data/rest/v1/core/assembly/4HHB/1',
  '/biorxiv/details/biorxiv/2024-01-01/2024-01-31/0',
  '/biorxiv/details/biorxiv/2024-01-01/2024-01-31/0/json',
  '/biorxiv/pubs/biorxiv/2024-01-01/2024-01-31/0',
];

/** What only the route answers: misses, bad parameters, CSV, a redirect's target unknown. */
const ROUTED = [
  '/rcsb/data/rest/v1/core/entry/9XYZ',
  '/pgx/v1/data/gene?symbol=NOPE',
  '/clinicaltrials/api/v2/studies/NCT00000000',
  '/clinicaltrials/api/v2/studies/NCT02513394?format=csv',
  '/clinicaltrials/api/v2/studies?query.cond=melanoma&format=csv',
  '/gwas/rest/api/v2/associations?size=-1',
  '/datasets/v2alpha/gene/id/abc',
  '/alphafold/api/prediction/NOPE',
  '/biorxiv/details/biorxiv/2024-01-01/2024-01-31/0/xml',
  '/biorxiv/details/nowhere/2024-01-01/2024-01-31/0',
];

const build = (store: OpenedStore, config: Partial<Config> = {}, readiness?: Readiness): Promise<TestApp> => makeApp(store, { services, config, ...(readiness ? { readiness } : {}) });

describe.each(STORES)('the tools read routes in process on $name', (target) => {
  let store: OpenedStore;
  let t: TestApp;
  let direct: DirectRoutes;

  beforeAll(async () => {
    store = await target.open();
    t = await build(store);
    await loadDemoData({ db: store.db, generations: t.generations, log: silent } as unknown as Runtime, services);
    direct = directRoutesOf(t.app) as DirectRoutes;
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    await store?.cleanup();
  });

  it.each(ANSWERED)('answers %s by its reader, as the route answers it', async (url) => {
    const routed = await t.app.inject({ method: 'GET', url, headers: { accept: 'application/json' } });
    expect(routed.statusCode, routed.body).toBe(200);
    const out = await direct.start(url, '127.0.0.1');
    expect(out?.kind).toBe('answer');
    expect(out?.kind === 'answer' && out.value).toEqual(JSON.parse(routed.body));
  });

  it.each(ROUTED)('takes the route for %s, which only the route answers', async (url) => {
    const out = await direct.start(url, '127.0.0.1');
    expect(out?.kind).toBe('route');
    if (out?.kind === 'route') out.done();
  });

  it('takes the route for paths without a reader, outside every service, or not well-formed', async () => {
    for (const url of ['/gwas/rest/api/v2/rest-api-doc.yaml', '/_biomirror/health', '/alphafold/api/prediction/../x', '/nowhere']) {
      expect(await direct.start(url, '127.0.0.1'), url).toBeUndefined();
    }
  });

  it("gives a tool the route's own error for a miss, unchanged", async () => {
    const what = { record: 'entry 9XYZ', dataset: 'rcsb-data/archive' };
    const err = await getJson({ app: t.app, generations: t.generations }, '/rcsb/data/rest/v1/core/entry/9XYZ', what).catch((e: Error) => e);
    expect(String((err as Error).message)).toMatch(/^entry 9XYZ is not in the loaded data \(the dataset rcsb-data\/archive would hold it\)/);
  });

  it('admits a call by the service limits once, whether answered in process or by the route', async () => {
    // PharmGKB allows a client 2 requests a second: two calls pass, the third is refused, both
    // for a record answered in process and for a miss, which takes the route after admission.
    const limited = await build(store, { services: { pgx: { limits: 'on' } } });
    try {
      const ctx = (ip: string) => ({ app: limited.app, generations: limited.generations, caller: { ip } });
      const what = { record: 'gene', dataset: 'pgx/pharmgkb' };
      const answer = (ip: string, url: string) =>
        getJson(ctx(ip), url, what).then(
          () => 'ok',
          (e: Error) => e.message,
        );
      const hits = [await answer('10.9.0.1', '/pgx/v1/gene/CYP2D6'), await answer('10.9.0.1', '/pgx/v1/gene/CYP2D6'), await answer('10.9.0.1', '/pgx/v1/gene/CYP2D6')];
      expect(hits.slice(0, 2)).toEqual(['ok', 'ok']);
      expect(hits[2]).toMatch(/^rate limited: .*retry after \d+ s/);
      const misses = [await answer('10.9.0.2', '/pgx/v1/data/gene?symbol=NOPE'), await answer('10.9.0.2', '/pgx/v1/data/gene?symbol=NOPE'), await answer('10.9.0.2', '/pgx/v1/data/gene?symbol=NOPE')];
      expect(misses[0]).toMatch(/not in the loaded data/);
      expect(misses[1]).toMatch(/not in the loaded data/);
      expect(misses[2]).toMatch(/^rate limited/);
    } finally {
      await limited.close();
    }
  });

  it('stays shut while the service loads, with faults, with pull-through or kept answers', async () => {
    const url = '/pgx/v1/gene/CYP2D6';
    const readiness = new Readiness();
    readiness.set('pgx', 'loading');
    const loading = await build(store, {}, readiness);
    try {
      const d = directRoutesOf(loading.app) as DirectRoutes;
      expect(await d.start(url, '127.0.0.1')).toBeUndefined();
      readiness.set('pgx', 'ready');
      expect((await d.start(url, '127.0.0.1'))?.kind).toBe('answer');
    } finally {
      await loading.close();
    }
    for (const config of [{ faults: true }, { pullThrough: { ...DEFAULT_CONFIG.pullThrough, enabled: true } }] as Partial<Config>[]) {
      const b = await build(store, config);
      try {
        expect(await (directRoutesOf(b.app) as DirectRoutes).start(url, '127.0.0.1'), JSON.stringify(config)).toBeUndefined();
      } finally {
        await b.close();
      }
    }
    const kept = await KeptStore.open(store.db);
    await kept.put({
      key: 'test-direct-kept',
      service: 'pgx',
      request: 'GET /v1/gene/NOPE',
      status: 404,
      contentType: 'application/json',
      headers: {},
      body: Buffer.from('{}'),
      upstream: 'api.pharmgkb.org',
      fetchedAt: new Date().toISOString(),
    });
    const withKept = await build(store);
    try {
      expect(await (directRoutesOf(withKept.app) as DirectRoutes).start(url, '127.0.0.1')).toBeUndefined();
      // Other services hold none: their shortcut stays open.
      expect((await (directRoutesOf(withKept.app) as DirectRoutes).start('/alphafold/api/prediction/P69905', '127.0.0.1'))?.kind).toBe('answer');
    } finally {
      await kept.clear('pgx');
      await withKept.close();
    }
  });
});
