import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCif } from '../src/core/mmcif/index.js';
import { alphafold } from '../src/services/alphafold/index.js';
import { makeApp, type TestApp } from './helpers/app.js';
import { STORES, type OpenedStore } from './helpers/stores.js';
import { AF_DEMO, loadAf, readPng } from './alphafold-fixtures.js';

const demoText = (name: string) => gunzipSync(readFileSync(join(AF_DEMO, name))).toString('utf8');
const demoJson = (name: string) => JSON.parse(demoText(name)) as Record<string, unknown>;

const HBA = 'MVLSPADKTNVKAAWGKVGAHAGEYGAEALERMFLSFPTTKTYFPHFDLSHGSAQVKGHGKKVADALTNAVAHVDDMPNALSALSDLHAHKLRVDPVNFKLLSHCLLVTLAAHLPAEFTPAVHASLDKFLASVSTVLTSKYR';
const F = '/alphafold/files';

/** The current database's field order (recorded v6 answer), with the interface's fields among them. */
const ORDER = [
  'toolUsed',
  'providerId',
  'entityType',
  'isUniProt',
  'modelEntityId',
  'modelCreatedDate',
  'sequenceVersionDate',
  'globalMetricValue',
  'fractionPlddtVeryLow',
  'fractionPlddtLow',
  'fractionPlddtConfident',
  'fractionPlddtVeryHigh',
  'latestVersion',
  'allVersions',
  'sequence',
  'sequenceStart',
  'sequenceEnd',
  'sequenceChecksum',
  'isUniProtReviewed',
  'gene',
  'uniprotAccession',
  'uniprotId',
  'uniprotDescription',
  'taxId',
  'organismScientificName',
  'isUniProtReferenceProteome',
  'chainId',
  'bcifUrl',
  'cifUrl',
  'pdbUrl',
  'paeImageUrl',
  'msaUrl',
  'plddtDocUrl',
  'paeDocUrl',
  'amAnnotationsUrl',
  'amAnnotationsHg19Url',
  'amAnnotationsHg38Url',
  'isComplex',
  'entryId',
  'uniprotSequence',
  'uniprotStart',
  'uniprotEnd',
  'isReferenceProteome',
  'isReviewed',
];

describe.each(STORES.map((s) => [s.name, s] as const))('AlphaFold DB API on %s (demo data)', (_name, target) => {
  let store: OpenedStore;
  let t: TestApp;
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  beforeAll(async () => {
    store = await target.open();
    t = await makeApp(store, { services: [alphafold] });
    await loadAf(store, t.generations);
  });
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  it('answers a prediction record with the interface fields, the current fields, in the current order', async () => {
    const r = await get('/alphafold/api/prediction/P69905');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    const body = r.json() as Record<string, unknown>[];
    expect(body).toHaveLength(1);
    const rec = body[0] as Record<string, unknown>;
    expect(Object.keys(rec)).toEqual(ORDER);
    const scores = demoJson('AF-P69905-F1-confidence_v4.json.gz').confidenceScore as number[];
    const mean = Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 100) / 100;
    expect(rec).toMatchObject({
      entryId: 'AF-P69905-F1',
      modelEntityId: 'AF-P69905-F1',
      uniprotAccession: 'P69905',
      uniprotId: 'HBA_HUMAN',
      uniprotDescription: 'Hemoglobin subunit alpha',
      gene: 'HBA1',
      organismScientificName: 'Homo sapiens',
      taxId: 9606,
      uniprotStart: 1,
      uniprotEnd: 142,
      uniprotSequence: HBA,
      sequence: HBA,
      latestVersion: 4,
      allVersions: [4],
      modelCreatedDate: '2022-06-01T00:00:00Z',
      // UniProt's CRC64 of the sequence (what version 4 records carry).
      sequenceChecksum: '15E13666573BBBAE',
      globalMetricValue: mean,
      cifUrl: `http://localhost:80${F}/AF-P69905-F1-model_v4.cif`,
      bcifUrl: `http://localhost:80${F}/AF-P69905-F1-model_v4.bcif`,
      pdbUrl: `http://localhost:80${F}/AF-P69905-F1-model_v4.pdb`,
      paeImageUrl: `http://localhost:80${F}/AF-P69905-F1-predicted_aligned_error_v4.png`,
      paeDocUrl: `http://localhost:80${F}/AF-P69905-F1-predicted_aligned_error_v4.json`,
      plddtDocUrl: `http://localhost:80${F}/AF-P69905-F1-confidence_v4.json`,
    });
    const fractions = ['fractionPlddtVeryLow', 'fractionPlddtLow', 'fractionPlddtConfident', 'fractionPlddtVeryHigh'].map((k) => rec[k] as number);
    expect(fractions.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 2);
    expect(rec.fractionPlddtVeryHigh).toBeCloseTo(scores.filter((s) => s >= 90).length / scores.length, 3);
  });

  it('builds URLs on the address the client used', async () => {
    const r = await get('/alphafold/api/prediction/P01308', { host: 'mirror.example:9000', 'x-forwarded-proto': 'https' });
    expect((r.json() as Record<string, string>[])[0]?.cifUrl).toBe(`http://mirror.example:9000${F}/AF-P01308-F1-model_v4.cif`);
  });

  it('looks accessions up whatever their case', async () => {
    const r = await get('/alphafold/api/prediction/p68871');
    expect(r.statusCode).toBe(200);
    expect((r.json() as Record<string, string>[])[0]?.uniprotAccession).toBe('P68871');
  });

  it('answers 404 {"detail":"Not Found"} for an accession without a prediction', async () => {
    const r = await get('/alphafold/api/prediction/Q99999');
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ detail: 'Not Found' });
  });

  it('answers a 422 naming the parameter for a malformed accession', async () => {
    for (const bad of ['P6990', 'NOT-AN-ID', '12345', 'P69905-x']) {
      const r = await get(`/alphafold/api/prediction/${bad}`);
      expect(r.statusCode, bad).toBe(422);
      const d = (r.json() as { detail: { loc: string[]; msg: string; input: string }[] }).detail[0];
      expect(d?.loc).toEqual(['path', 'qualifier']);
      expect(d?.input).toBe(bad);
      expect(d?.msg).toMatch(/pattern/);
    }
  });

  it('serves the model mmCIF as loaded: gzip transfer when accepted, plain otherwise, with an ETag', async () => {
    const plain = await get(`${F}/AF-P69905-F1-model_v4.cif`);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(demoText('AF-P69905-F1-model_v4.cif.gz'));
    const zipped = await get(`${F}/AF-P69905-F1-model_v4.cif`, { 'accept-encoding': 'gzip, deflate' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.rawPayload.equals(readFileSync(join(AF_DEMO, 'AF-P69905-F1-model_v4.cif.gz')))).toBe(true);
    expect(zipped.headers.etag).not.toBe(plain.headers.etag);
    const again = await get(`${F}/AF-P69905-F1-model_v4.cif`, { 'if-none-match': String(plain.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers byte ranges of the file, and 416 past its end', async () => {
    const text = demoText('AF-P69905-F1-model_v4.cif.gz');
    const r = await get(`${F}/AF-P69905-F1-model_v4.cif`, { range: 'bytes=0-16', 'accept-encoding': 'gzip' });
    expect(r.statusCode).toBe(206);
    expect(r.body).toBe(text.slice(0, 17));
    expect(r.headers['content-range']).toBe(`bytes 0-16/${Buffer.byteLength(text)}`);
    const tail = await get(`${F}/AF-P69905-F1-model_v4.cif`, { range: 'bytes=-10' });
    expect(tail.body).toBe(text.slice(-10));
    const past = await get(`${F}/AF-P69905-F1-model_v4.cif`, { range: `bytes=${Buffer.byteLength(text) + 5}-` });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${Buffer.byteLength(text)}`);
  });

  it('answers HEAD with the headers of the file', async () => {
    const r = await t.app.inject({ method: 'HEAD', url: `${F}/AF-P69905-F1-model_v4.cif` });
    expect(r.statusCode).toBe(200);
    expect(r.headers.etag).toBeTruthy();
  });

  it('writes the legacy PDB file with pLDDT in the B-factor column', async () => {
    const r = await get(`${F}/AF-P69905-F1-model_v4.pdb`);
    expect(r.statusCode).toBe(200);
    const scores = demoJson('AF-P69905-F1-confidence_v4.json.gz').confidenceScore as number[];
    const ca = r.body.split('\n').filter((l) => l.startsWith('ATOM') && l.slice(12, 16).trim() === 'CA');
    expect(ca).toHaveLength(142);
    ca.forEach((l, i) => expect(Number(l.slice(60, 66))).toBeCloseTo(scores[i] as number, 1));
    // Made once, then served from the file store.
    const rows = await store.db.query<{ kind: string }>("SELECT kind FROM af_derived WHERE kind = 'pdb'");
    expect(rows).toHaveLength(1);
    const again = await get(`${F}/AF-P69905-F1-model_v4.pdb`);
    expect(again.body).toBe(r.body);
  });

  it('writes BinaryCIF that Mol* reads back with every atom', async () => {
    const r = await get(`${F}/AF-P69905-F1-model_v4.bcif`);
    expect(r.statusCode).toBe(200);
    const file = await parseCif(new Uint8Array(r.rawPayload));
    expect(file.blocks[0]?.categories['atom_site']?.rowCount).toBe(142 * 4);
  });

  it('serves the confidence file with the interface categories by default and the database letters on request', async () => {
    const loaded = demoJson('AF-P69905-F1-confidence_v4.json.gz');
    const r = await get(`${F}/AF-P69905-F1-confidence_v4.json`);
    expect(r.statusCode).toBe(200);
    const body = r.json() as { residueNumber: number[]; confidenceScore: number[]; confidenceCategory: string[] };
    expect(Object.keys(body)).toEqual(['residueNumber', 'confidenceScore', 'confidenceCategory']);
    expect(body.confidenceScore).toEqual(loaded.confidenceScore);
    body.confidenceScore.forEach((s, i) => expect(body.confidenceCategory[i]).toBe(s > 90 ? 'very_high' : s > 70 ? 'high' : s > 50 ? 'low' : 'very_low'));
    const letters = await get(`${F}/AF-P69905-F1-confidence_v4.json?categories=letters`);
    expect((letters.json() as { confidenceCategory: string[] }).confidenceCategory).toEqual(loaded.confidenceCategory);
    expect(letters.headers.etag).not.toBe(r.headers.etag);
    const bad = await get(`${F}/AF-P69905-F1-confidence_v4.json?categories=roman`);
    expect(bad.statusCode).toBe(422);
    expect(JSON.stringify(bad.json())).toContain('categories');
  });

  it('serves the PAE file with the matrix as distance and as predicted_aligned_error', async () => {
    const loaded = (demoJson('AF-P69905-F1-predicted_aligned_error_v4.json.gz') as unknown as Record<string, unknown>[])[0] as Record<string, unknown>;
    const r = await get(`${F}/AF-P69905-F1-predicted_aligned_error_v4.json`, { 'accept-encoding': 'gzip' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBe('gzip');
    const body = JSON.parse(gunzipSync(r.rawPayload).toString('utf8')) as Record<string, unknown>[];
    expect(body).toHaveLength(1);
    const o = body[0] as { distance: number[][]; predicted_aligned_error: number[][]; max_predicted_aligned_error: number };
    expect(o.predicted_aligned_error).toEqual(loaded.predicted_aligned_error);
    expect(o.distance).toEqual(loaded.predicted_aligned_error);
    expect(o.distance).toHaveLength(142);
    expect(o.distance.every((row, i) => row.length === 142 && row[i] === 0)).toBe(true);
    expect(o.max_predicted_aligned_error).toBe(31.75);
  });

  it('renders the PAE image: green scale, dark low-error diagonal, axes and colour bar, cached once made', async () => {
    const r = await get(`${F}/AF-P69905-F1-predicted_aligned_error_v4.png`);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('image/png');
    const png = readPng(r.rawPayload);
    // 142 residues at 4 px each, plus margins for the axes and the colour bar.
    expect(png.width).toBeGreaterThan(568);
    expect(png.height).toBeGreaterThan(568);
    const lum = ([r0, g, b]: [number, number, number]) => 0.2126 * r0 + 0.7152 * g + 0.0722 * b;
    // The heatmap's corner is at (64, 16); each residue is a 4-pixel square.
    const diag: number[] = [];
    const off: number[] = [];
    for (let i = 5; i < 137; i += 7) {
      const px = (col: number, row: number) => png.at(64 + col * 4 + 1, 16 + row * 4 + 1);
      const [dr, dg, db] = px(i, i);
      expect(dg, 'diagonal is green').toBeGreaterThan(dr);
      expect(dg).toBeGreaterThan(db);
      diag.push(lum(px(i, i)));
      off.push(lum(px(i, (i + 70) % 142)));
    }
    // A zero error is the darkest green of the scale; far-off pairs are paler.
    expect(Math.max(...diag)).toBeLessThan(60);
    expect(Math.min(...off)).toBeGreaterThan(Math.max(...diag));
    // The colour bar: a column to the right of the heatmap running from pale (top) to dark (bottom).
    const barX = 64 + 142 * 4 + 16 + 9;
    const top = lum(png.at(barX, 18));
    const bottom = lum(png.at(barX, 16 + 142 * 4 - 3));
    expect(top).toBeGreaterThan(230);
    expect(bottom).toBeLessThan(60);
    for (let yy = 20; yy + 40 < 16 + 142 * 4; yy += 40) expect(lum(png.at(barX, yy))).toBeGreaterThanOrEqual(lum(png.at(barX, yy + 40)));
    // Tick labels and titles are drawn in black below and left of the heatmap.
    let black = 0;
    for (let xx = 0; xx < png.width; xx++) for (let yy = 16 + 142 * 4 + 2; yy < png.height; yy++) if (lum(png.at(xx, yy)) < 10) black++;
    expect(black).toBeGreaterThan(200);
    // Rendered once: the second answer comes from the file store, byte for byte.
    const cached = await store.db.query<{ kind: string }>("SELECT kind FROM af_derived WHERE kind = 'pae-png'");
    expect(cached).toHaveLength(1);
    const again = await get(`${F}/AF-P69905-F1-predicted_aligned_error_v4.png`);
    expect(again.rawPayload.equals(r.rawPayload)).toBe(true);
  });

  it('answers 404 for a version that was not loaded, an unknown entry and a name the host has no file for', async () => {
    for (const name of [
      'AF-P69905-F1-model_v3.cif',
      'AF-P69905-F1-model_v5.pdb',
      'AF-P69905-F1-predicted_aligned_error_v6.png',
      'AF-Q99999-F1-model_v4.cif',
      'AF-P69905-F1-model_v4.png',
      'AF-P69905-F1-confidence_v4.cif',
      'AF-P69905-F1-model_v4.cif.gz',
      'anything.txt',
    ]) {
      const r = await get(`${F}/${name}`);
      expect(r.statusCode, name).toBe(404);
      expect(r.json()).toEqual({ detail: 'Not Found' });
    }
  });

  it('answers the 3D-Beacons summary in its schema', async () => {
    const r = await get('/alphafold/api/uniprot/summary/P69905.json');
    expect(r.statusCode).toBe(200);
    const body = r.json() as { uniprot_entry: Record<string, unknown>; structures: { summary: Record<string, unknown> }[] };
    expect(body.uniprot_entry).toEqual({ ac: 'P69905', id: 'HBA_HUMAN', uniprot_checksum: '15E13666573BBBAE', sequence_length: 142, segment_start: 1, segment_end: 142 });
    expect(body.structures).toHaveLength(1);
    const s = body.structures[0]?.summary as Record<string, unknown>;
    for (const k of ['model_identifier', 'model_category', 'model_url', 'model_format', 'provider', 'created', 'sequence_identity', 'coverage', 'uniprot_start', 'uniprot_end', 'entities']) {
      expect(s, k).toHaveProperty(k);
    }
    expect(s).toMatchObject({
      model_identifier: 'AF-P69905-F1',
      model_category: 'AB-INITIO',
      model_format: 'MMCIF',
      provider: 'AlphaFold DB',
      created: '2022-06-01',
      coverage: 1,
      confidence_type: 'pLDDT',
    });
    expect(s.model_url).toBe(`http://localhost:80${F}/AF-P69905-F1-model_v4.cif`);
    expect((await get('/alphafold/api/uniprot/summary/Q99999.json')).statusCode).toBe(404);
    expect((await get('/alphafold/api/uniprot/summary/P69905')).statusCode).toBe(404);
    expect((await get('/alphafold/api/uniprot/summary/bad!.json')).statusCode).toBe(422);
  });

  it('answers unknown paths with its own 404 body', async () => {
    const r = await get('/alphafold/api/nothing/here');
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ detail: 'Not Found' });
  });
});
