import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssfLines, type SsfOptions } from '../synthetic/gwas-generate.js';
import type { TestApp } from './helpers/app.js';
import { SS, get, gwasApp, loadCatalog, loadSumstats, local, ssfStudy, type Json } from './helpers/gwas.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';

/** The generated studies of this suite and what the API must answer about them. */
const A = { acc: 'GCST90000001', n: 2500, opts: { seed: 11, perChromosome: 1000, spacing: 50 } as SsfOptions, traits: ['EFO_0000001'] };
const B = { acc: 'GCST90000002', n: 1500, opts: { seed: 12, perChromosome: 600, spacing: 70 } as SsfOptions, traits: ['EFO_0000001', 'EFO_0000002'] };

interface Expected {
  acc: string;
  chromosome: number;
  position: number;
  vid: string;
  p: string;
  plog: number;
  beta: number;
}

/** log10 of a p-value text, computed here independently of the service. */
function log10p(text: string): number {
  const m = /^([\d.]+)e(-?\d+)$/i.exec(text);
  return m ? Math.log10(Number(m[1])) + Number(m[2]) : Math.log10(Number(text));
}

function expected(study: typeof A): Expected[] {
  return [...ssfLines(study.n, study.opts)].map((line) => {
    const c = line.split('\t');
    return { acc: study.acc, chromosome: Number(c[0]), position: Number(c[1]), vid: c[9] as string, p: c[7] as string, plog: log10p(c[7] as string), beta: Number(c[4]) };
  });
}

const ROWS = [...expected(A), ...expected(B)];

function assocs(body: Json): Json[] {
  const e = (body._embedded as Record<string, Record<string, Json>>).associations ?? {};
  const keys = Object.keys(e);
  expect(keys).toEqual(keys.map((_, i) => String(i)));
  return keys.map((k) => e[k] as Json);
}

const key = (a: Json) => `${String(a.study_accession)}:${String(a.variant_id)}`;
const ekey = (e: Expected) => `${e.acc}:${e.vid}`;

describe.each(STORES.map((s) => [s.name, s] as const))('GWAS summary statistics API on %s', (_name, target) => {
  let store: OpenedStore;
  let t: TestApp;
  const next = (b: Json) => ((b._links as Record<string, { href: string }>).next ? local((b._links as Record<string, { href: string }>).next!.href) : undefined);

  /** Follows next links from `url` to the end and returns every association seen, in order. */
  async function walk(url: string): Promise<Json[]> {
    const out: Json[] = [];
    let u: string | undefined = url;
    for (let i = 0; u; i++) {
      const r = await get(t.app, u);
      expect(r.status, u).toBe(200);
      out.push(...assocs(r.body));
      u = next(r.body);
      if (i > 500) throw new Error('next links do not end');
    }
    return out;
  }

  beforeAll(async () => {
    store = await target.open();
    t = await gwasApp(store);
    const dir = tempDir();
    await ssfStudy(dir, A.acc, A.n, { ...A.opts, traits: A.traits, gz: true });
    await ssfStudy(dir, B.acc, B.n, { ...B.opts, traits: B.traits });
    await loadSumstats(store, t.generations, dir);
  });
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  it('lists studies as the real service does, one list per study and trait', async () => {
    const r = await get(t.app, `${SS}/studies`);
    expect(r.status).toBe(200);
    const nested = (r.body._embedded as { studies: Json[][] }).studies;
    expect(nested.map((l) => l.map((s) => s.study_accession))).toEqual([[A.acc], [B.acc, B.acc]]);
    const s = await get(t.app, `${SS}/studies/${B.acc}`);
    expect(s.body.study_accession).toBe(B.acc);
    expect(s.body._links).toMatchObject({
      self: { href: `http://localhost:80${SS}/traits/EFO_0000001/studies/${B.acc}` },
      gwas_catalog: { href: `http://localhost:80/gwas/rest/api/studies/${B.acc}` },
      trait: { href: `http://localhost:80${SS}/traits/EFO_0000001` },
    });
  });

  it('lists traits and the studies of a trait', async () => {
    const traits = await get(t.app, `${SS}/traits`);
    expect((traits.body._embedded as { traits: Json[] }).traits.map((x) => x.trait)).toEqual(['EFO_0000001', 'EFO_0000002']);
    const one = await get(t.app, `${SS}/traits/EFO_0000002`);
    expect(one.body.trait).toBe('EFO_0000002');
    const studies = await get(t.app, `${SS}/traits/EFO_0000002/studies`);
    expect((studies.body._embedded as { studies: Json[] }).studies.map((s) => s.study_accession)).toEqual([B.acc]);
    const chromosomes = await get(t.app, `${SS}/chromosomes`);
    expect((chromosomes.body._embedded as { chromosomes: Json[] }).chromosomes.map((c) => c.chromosome)).toEqual([1, 2, 3]);
    expect((await get(t.app, `${SS}/chromosomes/2`)).body.chromosome).toBe('2');
  });

  it('answers a chromosome range in study then position order, with the spec fields', async () => {
    const start = 1_010_000;
    const end = 1_030_000;
    const want = ROWS.filter((e) => e.chromosome === 2 && e.position >= start && e.position <= end);
    expect(want.length).toBeGreaterThan(300);
    const r = await get(t.app, `${SS}/chromosomes/2/associations?start=${start}&end=${end}&size=1000`);
    expect(r.status).toBe(200);
    const got = assocs(r.body);
    expect(got.map(key)).toEqual(want.map(ekey));
    const first = got[0] as Json;
    const w = want[0] as Expected;
    expect(first).toMatchObject({ chromosome: 2, base_pair_location: w.position, study_accession: w.acc, variant_id: w.vid, beta: w.beta, trait: 'EFO_0000001' });
    for (const f of ['p_value', 'odds_ratio', 'effect_allele_frequency', 'beta', 'other_allele', 'ci_upper', 'effect_allele', 'ci_lower', 'standard_error']) expect(first).toHaveProperty(f);
    expect(log10p(String(first.p_value))).toBeCloseTo(w.plog, 9);
    const alias = await get(t.app, `${SS}/chromosomes/2/associations?bp_lower=${start}&bp_upper=${end}&size=1000`);
    expect(assocs(alias.body).map(key)).toEqual(want.map(ekey));
    const oneStudy = await get(t.app, `${SS}/chromosomes/2/associations?start=${start}&end=${end}&size=1000&study_accession=${B.acc}`);
    expect(assocs(oneStudy.body).map(key)).toEqual(want.filter((e) => e.acc === B.acc).map(ekey));
    const byTrait = await get(t.app, `${SS}/chromosomes/2/associations?start=${start}&end=${end}&size=1000&trait=EFO_0000002`);
    expect(assocs(byTrait.body).map(key)).toEqual(want.filter((e) => e.acc === B.acc).map(ekey));
    // Page links keep the range: start and end are the spec's base pairs here, not paging.
    const walked = await walk(`${SS}/chromosomes/2/associations?start=${start}&end=${end}&size=31`);
    expect(walked.map(key)).toEqual(want.map(ekey));
  });

  it('walks a whole chromosome by next links once per row, and a direct deep page equals the walked one', async () => {
    const want = ROWS.filter((e) => e.chromosome === 1);
    const seen = await walk(`${SS}/chromosomes/1/associations?size=97`);
    expect(seen.map(key)).toEqual(want.map(ekey));
    const page = 12;
    const direct = await get(t.app, `${SS}/chromosomes/1/associations?size=97&page=${page}`);
    expect(assocs(direct.body).map(key)).toEqual(seen.slice(page * 97, (page + 1) * 97).map(key));
    const links = direct.body._links as Record<string, { href: string }>;
    expect(links.prev?.href).toBe(`http://localhost:80${SS}/chromosomes/1/associations?page=${page - 1}&size=97`);
    expect(links.first?.href).toBe(`http://localhost:80${SS}/chromosomes/1/associations?page=0&size=97`);
  });

  it('filters a trait by p-value bounds in ascending p-value order, at any depth', async () => {
    const bound = 0.01;
    const want = [A.acc, B.acc].flatMap((acc) => ROWS.filter((e) => e.acc === acc && e.plog <= Math.log10(bound)).sort((x, y) => x.plog - y.plog));
    expect(want.length).toBeGreaterThan(50);
    const seen = await walk(`${SS}/traits/EFO_0000001/associations?p_upper=${bound}&size=17`);
    expect(seen.map(key)).toEqual(want.map(ekey));
    const deep = await get(t.app, `${SS}/traits/EFO_0000001/associations?p_upper=1E-2&size=17&page=4`);
    expect(assocs(deep.body).map(key)).toEqual(seen.slice(68, 85).map(key));

    const lower = 1e-5;
    const band = [A.acc, B.acc].flatMap((acc) => ROWS.filter((e) => e.acc === acc && e.plog >= Math.log10(lower) && e.plog <= Math.log10(0.5)).sort((x, y) => x.plog - y.plog));
    const bandPage = await get(t.app, `${SS}/traits/EFO_0000001/associations?p_lower=0.00001&p_upper=5e-1&size=50&page=30`);
    expect(assocs(bandPage.body).map(key)).toEqual(band.slice(1500, 1550).map(ekey));
    const only = await walk(`${SS}/traits/EFO_0000002/associations?p_upper=1e-100&size=5`);
    expect(only.map(key)).toEqual(
      ROWS.filter((e) => e.acc === B.acc && e.plog <= -100)
        .sort((x, y) => x.plog - y.plog)
        .map(ekey),
    );
  });

  it('pages a study with the real service`s start offsets, and its links keep them', async () => {
    const r = await get(t.app, `${SS}/studies/${A.acc}/associations?start=10&size=5`);
    expect(assocs(r.body).map(key)).toEqual(
      ROWS.filter((e) => e.acc === A.acc)
        .slice(10, 15)
        .map(ekey),
    );
    const links = r.body._links as Record<string, { href: string }>;
    expect(links.next?.href).toBe(`http://localhost:80${SS}/studies/${A.acc}/associations?start=15&size=5`);
    expect(links.prev?.href).toBe(`http://localhost:80${SS}/studies/${A.acc}/associations?start=5&size=5`);
    const all = await walk(`${SS}/associations?size=400`);
    expect(all.map(key)).toEqual(ROWS.map(ekey));
  });

  it('answers its root and the associations of a study under its trait', async () => {
    const root = await get(t.app, SS);
    expect(Object.keys(root.body._links as Json)).toEqual(['associations', 'traits', 'studies', 'chromosomes', 'variant']);
    const under = await get(t.app, `${SS}/traits/EFO_0000002/studies/${B.acc}/associations?size=5&page=3`);
    expect(assocs(under.body).map(key)).toEqual(
      ROWS.filter((e) => e.acc === B.acc)
        .slice(15, 20)
        .map(ekey),
    );
  });

  it('answers a variant and its associations in every study', async () => {
    const vid = 'rs900000005';
    const v = await get(t.app, `${SS}/variants/${vid}`);
    expect(v.status).toBe(200);
    const place = ROWS.find((e) => e.vid === vid) as Expected;
    expect(v.body).toMatchObject({ variant_id: vid, chromosome: place.chromosome, base_pair_location: place.position });
    const list = await get(t.app, `${SS}/variants/${vid}/associations`);
    expect(assocs(list.body).map((a) => a.study_accession)).toEqual([A.acc, B.acc]);
    const real = await get(t.app, `${SS}/associations/${vid}`);
    expect(assocs(real.body).map(key)).toEqual(assocs(list.body).map(key));
    const own = assocs(list.body)[1] as Json;
    const self = (own._links as Record<string, { href: string }>).self!.href;
    const followed = await get(t.app, local(self));
    expect(assocs(followed.body).map(key)).toEqual([key(own)]);
  });

  it.each([
    [`${SS}/studies/GCST0`, 404, 'GCST0'],
    [`${SS}/studies/GCST0/associations`, 404, 'GCST0'],
    [`${SS}/traits/EFO_9999999`, 404, 'EFO_9999999'],
    [`${SS}/traits/EFO_9999999/associations`, 404, 'EFO_9999999'],
    [`${SS}/traits/EFO_0000002/studies/GCST90000001`, 400, 'combination'],
    [`${SS}/variants/rs1`, 404, 'rs1'],
    [`${SS}/variants/rs1/associations`, 404, 'rs1'],
    [`${SS}/chromosomes/Q/associations`, 404, 'Chromosome Q'],
    [`${SS}/chromosomes/30`, 404, 'Chromosome 30'],
    [`${SS}/traits/EFO_0000001/associations?p_lower=abc`, 400, 'p_lower'],
    [`${SS}/traits/EFO_0000001/associations?p_upper=2`, 400, 'p_upper'],
    [`${SS}/traits/EFO_0000001/associations?p_lower=0.5&p_upper=0.1`, 400, 'Lower limit'],
    [`${SS}/traits/EFO_0000001/associations?size=0`, 400, 'size'],
    [`${SS}/traits/EFO_0000001/associations?page=-1`, 400, 'page'],
    [`${SS}/studies/GCST90000001/associations?start=x`, 400, 'start'],
    [`${SS}/chromosomes/1/associations?start=x`, 400, 'start'],
    [`${SS}/chromosomes/1/associations?end=-4`, 400, 'end'],
    [`${SS}/chromosomes/1/associations?start=500&end=100`, 400, 'Lower limit'],
    [`${SS}/chromosomes/1/associations?p_upper=0.01`, 400, 'p_upper'],
    [`${SS}/nothing`, 404, ''],
  ])('%s answers %i in the service error body', async (url, status, mention) => {
    const r = await get(t.app, url);
    expect(r.status).toBe(status);
    expect(Object.keys(r.body)).toEqual(['timestamp', 'status', 'error', 'message', 'path']);
    expect(r.body.status).toBe(status);
    expect(r.body.message).toContain(mention);
    expect(r.body.path).toBe(url.split('?')[0]);
  });
});

describe.each(STORES.map((s) => [s.name, s] as const))('GWAS demo data on %s', (_name, target) => {
  it('loads both demo datasets and serves the documented examples', async () => {
    const store = await target.open();
    const t = await gwasApp(store);
    try {
      await loadCatalog(store, t.generations);
      await loadSumstats(store, t.generations);
      const r = await get(t.app, `${SS}/chromosomes/1/associations/rs10875231`);
      expect(r.status).toBe(200);
      const rows = Object.values((r.body._embedded as Record<string, Record<string, Json>>).associations ?? {});
      expect(rows.map((a) => [a.study_accession, a.p_value, a.trait])).toEqual([
        ['GCST005038', '2.826e-1', 'EFO_0003785'],
        ['GCST005353', '5.837561e-1', 'EFO_0008531'],
      ]);
      const tiny = await get(t.app, `${SS}/studies/GCST005038/associations?p_upper=1e-300`);
      expect(Object.values((tiny.body._embedded as Record<string, Record<string, Json>>).associations ?? {}).map((a) => a.p_value)).toEqual(['3.2e-350']);
    } finally {
      await t.close();
      await store.cleanup();
    }
  });
});
