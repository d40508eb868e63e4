import { copyFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ZipWriter } from '../synthetic/zip.js';
import { FormatError } from '../src/core/ingest/errors.js';
import type { SkipPlace } from '../src/core/ingest/dataset.js';
import type { TestApp } from './helpers/app.js';
import { loadTiming } from '../src/core/ingest/report.js';
import { API, CATALOG_DEMO, SS, get, gwasApp, loadCatalog, loadSumstats, ssfStudy, type Json } from './helpers/gwas.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';

const STUDIES_TSV = 'gwas-catalog-studies_demo.tsv';
const ASSOC_TSV = 'gwas-catalog-associations_ontology-annotated_demo.tsv';
const demoText = (name: string) => readFileSync(join(CATALOG_DEMO, name), 'utf8');
const lines = (name: string) => demoText(name).trimEnd().split('\n');

function assocs(body: Json): Json[] {
  return Object.values(((body._embedded as Record<string, Record<string, Json>>) ?? {}).associations ?? {});
}

describe.each(STORES.map((s) => [s.name, s] as const))('GWAS ingest on %s', (_name, target) => {
  let store: OpenedStore;
  let t: TestApp;
  let skips: { place: SkipPlace; reason: string }[];
  const onSkip = (place: SkipPlace, reason: string) => skips.push({ place, reason });

  beforeEach(async () => {
    store = await target.open();
    t = await gwasApp(store);
    skips = [];
  });
  afterEach(async () => {
    await t.close();
    await store.cleanup();
  });

  it('reads the catalog downloads from a zip archive as from a folder', async () => {
    const plain = await loadCatalog(store, t.generations);
    const dir = tempDir();
    const zip = new ZipWriter(join(dir, 'gwas-catalog-downloads.zip'));
    for (const f of readdirSync(CATALOG_DEMO)) await zip.add(f, demoText(f));
    await zip.close();
    const zipped = await loadCatalog(store, t.generations, dir);
    expect(zipped.records).toBe(plain.records);
    expect(zipped.skipped).toBe(0);
    // The load says where its finishing time went, the work for show_child_trait among it.
    expect(loadTiming(plain)).toMatch(/then [\d.]+ s of indexes [\d.]+ s, what is under each trait \(show_child_trait\) [\d.]+ s, statistics [\d.]+ s/);
    const r = await get(t.app, `${API}/studies`);
    expect((r.body.page as Json).totalElements).toBe(lines(STUDIES_TSV).length - 1);
  });

  it('reads a gzipped table alone, takes the release from its name and reports rows it cannot use', async () => {
    const dir = tempDir();
    const [head, ...rows] = lines(ASSOC_TSV);
    const cols = (head as string).split('\t');
    const bad = (rows[0] as string).split('\t');
    bad[cols.indexOf('STUDY ACCESSION')] = 'not-an-accession';
    const noSnp = (rows[1] as string).split('\t');
    noSnp[cols.indexOf('SNPS')] = '';
    const body = [head, bad.join('\t'), noSnp.join('\t'), ...rows.slice(2)].join('\n') + '\n';
    writeFileSync(join(dir, 'gwas_catalog_v1.0.2-associations_e113_r2025-01-30.tsv.gz'), gzipSync(body));
    const res = await loadCatalog(store, t.generations, dir, { onSkip });
    expect(res.records).toBe(rows.length - 2);
    expect(res.skipped).toBe(2);
    expect(res.release).toBe('2025-01-30');
    expect(skips.map((s) => s.reason)).toEqual(['malformed STUDY ACCESSION "not-an-accession"', 'no SNPS']);
    expect(skips[0]?.place.position).toBe('line 2');
    const r = await get(t.app, `${API}/associations`);
    expect((r.body.page as Json).totalElements).toBe(rows.length - 2);
  });

  it('skips a repeated study and a table it does not read, and refuses a folder with no catalog table', async () => {
    await loadCatalog(store, t.generations);
    const dir = tempDir();
    copyFileSync(join(CATALOG_DEMO, STUDIES_TSV), join(dir, 'a-studies.tsv'));
    copyFileSync(join(CATALOG_DEMO, STUDIES_TSV), join(dir, 'b-studies.tsv'));
    writeFileSync(join(dir, 'trait-mappings.tsv'), 'Disease trait\tEFO term\nx\ty\n');
    const res = await loadCatalog(store, t.generations, dir, { onSkip });
    const n = lines(STUDIES_TSV).length - 1;
    expect(res.records).toBe(n);
    expect(res.skipped).toBe(n + 1);
    expect(skips[0]?.reason).toContain('not a table this service reads');
    expect(skips[1]?.reason).toContain('duplicate');

    const empty = tempDir();
    writeFileSync(join(empty, 'readme.txt'), 'nothing here\n');
    await expect(loadCatalog(store, t.generations, empty)).rejects.toThrow(FormatError);
    // The failed load changed nothing: the studies of the load before are still served.
    expect(((await get(t.app, `${API}/studies`)).body.page as Json).totalElements).toBe(n);
  });

  it('uses association ids a prepared file gives', async () => {
    const dir = tempDir();
    const [head, ...rows] = lines(ASSOC_TSV);
    writeFileSync(join(dir, 'assoc.tsv'), [`ASSOCIATION ID\t${head}`, ...rows.map((r, i) => `${5000 + i * 7}\t${r}`)].join('\n') + '\n');
    await loadCatalog(store, t.generations, dir);
    expect((await get(t.app, `${API}/associations/5007`)).status).toBe(200);
    expect((await get(t.app, `${API}/associations/5001`)).status).toBe(404);
    const all = await get(t.app, `${API}/associations?size=2&page=1`);
    const ids = ((all.body._embedded as Record<string, Json[]>).associations ?? []).map((a) => (a._links as Record<string, { href: string }>).self!.href.split('/').pop());
    expect(ids).toEqual(['5014', '5021']);
  });

  it('refuses summary statistics without the standard columns and keeps what was served', async () => {
    const good = tempDir();
    await ssfStudy(good, 'GCST90000010', 50);
    await loadSumstats(store, t.generations, good);
    const bad = tempDir();
    writeFileSync(join(bad, 'GCST90000011.tsv'), 'chromosome\tbase_pair_location\tp_value\n1\t100\t0.5\n');
    await expect(loadSumstats(store, t.generations, bad)).rejects.toThrow(/missing GWAS-SSF column\(s\) effect_allele, other_allele, standard_error, effect_allele_frequency, beta/);
    expect((await get(t.app, `${SS}/studies/GCST90000010`)).status).toBe(200);
  });

  it('skips rows it cannot read, naming why, and re-sorts a study whose file is not sorted', async () => {
    const dir = tempDir();
    const file = await ssfStudy(dir, 'GCST90000012', 300, { perChromosome: 100, traits: ['EFO_0000003'] });
    const [head, ...rows] = readFileSync(file, 'utf8').trimEnd().split('\n');
    // Reverse the rows and spoil three: the load keeps the rest, in chromosome and position order.
    const spoiled = [...rows].reverse();
    spoiled[0] = spoiled[0]!.replace(/^3\t/, 'Z\t');
    spoiled[1] = spoiled[1]!
      .split('\t')
      .map((c, i) => (i === 1 ? 'x' : c))
      .join('\t');
    spoiled[2] = spoiled[2]!
      .split('\t')
      .map((c, i) => (i === 7 ? 'NA' : c))
      .join('\t');
    writeFileSync(file, [head, ...spoiled].join('\n') + '\n');
    const res = await loadSumstats(store, t.generations, dir, { onSkip });
    expect(res.records).toBe(297 + 1);
    expect(skips.map((s) => s.reason)).toEqual(['chromosome "Z" is not 1-25, X, Y or MT', 'base_pair_location "x" is not a position', 'p-value "NA" is not a number from 0 to 1']);
    const r = await get(t.app, `${SS}/chromosomes/2/associations?size=1000`);
    const positions = assocs(r.body).map((a) => a.base_pair_location as number);
    expect(positions).toHaveLength(100);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    const three = await get(t.app, `${SS}/chromosomes/3/associations?size=1000`);
    expect(assocs(three.body)).toHaveLength(97);
  });

  it('reads -log10 p-values, names a study by its file without metadata, and replaces all summary statistics on each load', async () => {
    const first = tempDir();
    await ssfStudy(first, 'GCST90000013', 20);
    await loadSumstats(store, t.generations, first);
    const dir = tempDir();
    writeFileSync(
      join(dir, 'GCST90000014_buildGRCh38.tsv'),
      'chromosome\tbase_pair_location\teffect_allele\tother_allele\todds_ratio\tstandard_error\teffect_allele_frequency\tneg_log_10_p_value\trsid\n' +
        '7\t1000\tA\tG\t1.25\t0.1\t0.3\t3\trs11\n7\t2000\tC\tT\t0.9\t0.2\t0.4\t320.5\trs12\n',
    );
    const res = await loadSumstats(store, t.generations, dir);
    expect(res.records).toBe(3);
    expect((await get(t.app, `${SS}/studies/GCST90000013`)).status).toBe(404);
    const r = await get(t.app, `${SS}/studies/GCST90000014/associations`);
    const [a, b] = assocs(r.body);
    expect(a).toMatchObject({ variant_id: 'rs11', p_value: '1e-3', odds_ratio: 1.25, beta: null, trait: null, chromosome: 7 });
    expect(String(b?.p_value)).toMatch(/^3\.16\d*e-321$/);
    expect(((await get(t.app, `${SS}/traits`)).body._embedded as { traits: Json[] }).traits).toEqual([]);
  });

  it('refuses a study it cannot name and a study given twice', async () => {
    const anon = tempDir();
    writeFileSync(join(anon, 'summary.tsv'), 'chromosome\tbase_pair_location\n');
    await expect(loadSumstats(store, t.generations, anon)).rejects.toThrow(/cannot tell which study/);
    const twice = tempDir();
    await ssfStudy(twice, 'GCST90000015', 5);
    await ssfStudy(twice, 'GCST90000015', 5, { gz: true });
    await expect(loadSumstats(store, t.generations, twice)).rejects.toThrow(/GCST90000015 is also in/);
  });
});
