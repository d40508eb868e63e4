import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormatError } from '../src/core/ingest/errors.js';
import { alphafold, createAlphafoldService } from '../src/services/alphafold/index.js';
import type { BeaconsStructure } from '../src/services/alphafold/beacons.js';
import { entryFiles, generateEntry, syntheticSequence, tarOf } from '../synthetic/alphafold-generate.js';
import { makeApp, type TestApp } from './helpers/app.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';
import { BIG, CANON, ISO, NOCONF, VERS, loadAf, writeFixture, type Fixture } from './alphafold-fixtures.js';

type Rec = Record<string, unknown>;

const PDBE: BeaconsStructure = {
  summary: {
    model_identifier: '9zzz',
    model_category: 'EXPERIMENTALLY DETERMINED',
    model_url: 'https://files.example/download/9zzz.cif',
    model_format: 'MMCIF',
    provider: 'PDBe',
    created: '2020-01-01',
    sequence_identity: 1,
    uniprot_start: 5,
    uniprot_end: 50,
    coverage: 0.77,
    experimental_method: 'X-RAY DIFFRACTION',
    resolution: 1.8,
    entities: [{ entity_type: 'POLYMER', entity_poly_type: 'POLYPEPTIDE(L)', identifier: CANON, identifier_category: 'UNIPROT', description: 'Generated', chain_ids: ['A'] }],
  },
};

describe.each(STORES.map((s) => [s.name, s] as const))('AlphaFold DB ingest on %s', (_name, target) => {
  let store: OpenedStore;
  let t: TestApp;
  let fx: Fixture;
  let skips: { place: unknown; reason: string }[];
  let loaded: { records: number; skipped: number };
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const records = async (acc: string) => (await get(`/alphafold/api/prediction/${acc}`)).json() as Rec[];

  beforeAll(async () => {
    store = await target.open();
    // The service as the lead wires it once the structure database is present: PDBe entries by accession.
    const service = createAlphafoldService({
      experimental: () => ({ byUniprot: async (acc, { origin }) => (acc === CANON ? [{ summary: { ...PDBE.summary, model_url: `${origin}/rcsb/files/download/9ZZZ.cif` } }] : []) }),
    });
    t = await makeApp(store, { services: [service] });
    fx = writeFixture();
    skips = [];
    loaded = await loadAf(store, t.generations, fx.dir, { onSkip: (place, reason) => skips.push({ place, reason }) });
  });
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  it('loads every model of the tar, the loose files, accession_ids.csv and the metadata table', () => {
    // 7 models (canonical, isoform, 2 fragments, 2 versions, one without confidence) + 2 id rows + 1 table row.
    expect(skips).toEqual([]);
    expect(loaded).toMatchObject({ records: 10, skipped: 0 });
  });

  it('answers a canonical accession with its isoforms after it, each its own record', async () => {
    const recs = await records(CANON);
    expect(recs.map((r) => r.entryId)).toEqual([`AF-${CANON}-F1`, `AF-${ISO}-F1`]);
    expect(recs.map((r) => r.uniprotAccession)).toEqual([CANON, ISO]);
    expect(recs[1]?.uniprotSequence).toBe(fx.entries.iso?.cif.match(/;\n([A-Z\n]+)\n;/)?.[1]?.replace(/\n/g, ''));
    // An isoform alone answers only itself.
    expect((await records(ISO)).map((r) => r.entryId)).toEqual([`AF-${ISO}-F1`]);
  });

  it('lets the metadata table win over the model file, and keeps the rest from the model', async () => {
    const [rec] = await records(CANON);
    expect(rec).toMatchObject({ gene: 'TABLEGENE', isReviewed: true, isUniProtReviewed: true, globalMetricValue: 77.5, fractionPlddtVeryHigh: 0.25, uniprotId: `${CANON}_GENERATED` });
    // The table lists versions 1-4 of the entry; v4 is the one loaded.
    expect(rec).toMatchObject({ latestVersion: 4, allVersions: [1, 2, 3, 4] });
    expect(rec?.cifUrl).toBe(`http://localhost:80/alphafold/files/AF-${CANON}-F1-model_v4.cif`);
  });

  it('answers every fragment of a long protein with its residue range', async () => {
    const recs = await records(BIG);
    expect(recs.map((r) => [r.entryId, r.uniprotStart, r.uniprotEnd])).toEqual([
      [`AF-${BIG}-F1`, 1, 40],
      [`AF-${BIG}-F2`, 21, 60],
    ]);
  });

  it('serves every loaded version and points the record at the latest', async () => {
    const [rec] = await records(VERS);
    expect(rec).toMatchObject({ latestVersion: 4, allVersions: [3, 4] });
    for (const v of [3, 4]) {
      const r = await get(`/alphafold/files/AF-${VERS}-F1-model_v${v}.cif`);
      expect(r.statusCode).toBe(200);
      expect(r.body).toContain(`_pdbx_audit_revision_history.major_revision ${v}`);
    }
    expect((await get(`/alphafold/files/AF-${VERS}-F1-model_v2.cif`)).statusCode).toBe(404);
  });

  it('takes pLDDT from the model when no confidence file was given', async () => {
    const r = await get(`/alphafold/files/AF-${NOCONF}-F1-confidence_v4.json?categories=letters`);
    expect(r.statusCode).toBe(200);
    const body = r.json() as { residueNumber: number[]; confidenceScore: number[]; confidenceCategory: string[] };
    expect(body.confidenceScore).toEqual(fx.entries.noconf?.plddt);
    expect(body.residueNumber).toEqual(body.confidenceScore.map((_, i) => i + 1));
  });

  it('lists the structure database entries of the accession beside the models in the 3D-Beacons summary', async () => {
    const r = await get(`/alphafold/api/uniprot/summary/${CANON}.json`);
    const body = r.json() as { uniprot_entry: Rec; structures: BeaconsStructure[] };
    expect(body.structures.map((s) => [s.summary.provider, s.summary.model_identifier])).toEqual([
      ['AlphaFold DB', `AF-${CANON}-F1`],
      ['PDBe', '9zzz'],
    ]);
    expect(body.uniprot_entry.sequence_length).toBe(60);
    expect(body.structures[1]?.summary.model_url).toBe('http://localhost:80/rcsb/files/download/9ZZZ.cif');
    const only = (await get(`/alphafold/api/uniprot/summary/${CANON}.json?provider=PDBe`)).json() as { structures: BeaconsStructure[] };
    expect(only.structures.map((s) => s.summary.provider)).toEqual(['PDBe']);
  });

  it('reloads into a new generation and keeps serving the old data when a load fails', async () => {
    await expect(loadAf(store, t.generations, join(fx.dir, 'metadata.tsv').replace('metadata.tsv', 'nothing-here'))).rejects.toThrow(FormatError);
    expect((await get(`/alphafold/api/prediction/${CANON}`)).statusCode).toBe(200);
  });
});

describe('AlphaFold DB ingest of damaged and older inputs', () => {
  const target = STORES[0];
  if (!target) throw new Error('no store');
  let store: OpenedStore;
  let t: TestApp;
  beforeAll(async () => {
    store = await target.open();
    t = await makeApp(store, { services: [alphafold] });
  });
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  it('skips, with the reason, an unreadable model, a PAE matrix of the wrong size and a confidence file without model', async () => {
    const dir = tempDir('biomirror-af-bad-');
    const good = generateEntry({ accession: 'Q9ZZY1', uniprotId: 'X_HUMAN', description: 'Generated', taxId: 9606, organism: 'Homo sapiens', sequence: syntheticSequence(20, 1) });
    const broken = generateEntry({ accession: 'Q9ZZY2', uniprotId: 'Y_HUMAN', description: 'Generated', taxId: 9606, organism: 'Homo sapiens', sequence: syntheticSequence(20, 2) });
    const wrongPae = generateEntry({ accession: 'Q9ZZY3', uniprotId: 'Z_HUMAN', description: 'Generated', taxId: 9606, organism: 'Homo sapiens', sequence: syntheticSequence(20, 3) });
    const other = generateEntry({ accession: 'Q9ZZY3', uniprotId: 'Z_HUMAN', description: 'Generated', taxId: 9606, organism: 'Homo sapiens', sequence: syntheticSequence(21, 3) });
    const members = [
      ...entryFiles(good),
      ...entryFiles(broken).map((f) => (f.name.includes('model') ? { ...f, bytes: gzipSync('data_x\nloop_\n_atom_site.id\n') } : f)),
      ...entryFiles(wrongPae).map((f) => (f.name.includes('predicted') ? (entryFiles(other).find((o) => o.name.includes('predicted')) as typeof f) : f)),
      { name: 'AF-Q9ZZY4-F1-confidence_v4.json.gz', bytes: gzipSync('{"confidenceScore":[50]}') },
    ];
    writeFileSync(join(dir, 'proteome-tax_id-1-0_v4.tar'), tarOf(members));
    const skipped: string[] = [];
    const r = await loadAf(store, t.generations, dir, { onSkip: (_p, reason) => skipped.push(reason) });
    expect(r.records).toBe(1);
    expect(skipped).toHaveLength(3);
    expect(skipped.find((s) => s.startsWith('AF-Q9ZZY2-F1 v4'))).toMatch(/atom_site|mmCIF|CIF/i);
    expect(skipped.find((s) => s.startsWith('AF-Q9ZZY3-F1 v4'))).toMatch(/PAE matrix has 21 residues, the confidence file 20/);
    expect(skipped.find((s) => s.startsWith('AF-Q9ZZY4-F1 v4'))).toMatch(/no model file/);
  });

  it('refuses a damaged archive without changing what is served', async () => {
    const dir = tempDir('biomirror-af-tar-');
    const e = generateEntry({ accession: 'Q9ZZY5', uniprotId: 'X_HUMAN', description: 'Generated', taxId: 9606, organism: 'Homo sapiens', sequence: syntheticSequence(20, 5) });
    const tar = tarOf(entryFiles(e));
    writeFileSync(join(dir, 'proteome-tax_id-1-1_v4.tar'), tar.subarray(0, 700));
    await expect(loadAf(store, t.generations, dir)).rejects.toThrow(/cut short|tar/);
  });

  it("converts the first versions' flattened PAE and the N×N distance form to the current file", async () => {
    const dir = tempDir('biomirror-af-old-');
    const a = generateEntry({ accession: 'Q9ZZY6', uniprotId: 'A_HUMAN', description: 'Generated', taxId: 9606, organism: 'Homo sapiens', sequence: syntheticSequence(12, 6), version: 1 });
    const b = generateEntry({ accession: 'Q9ZZY7', uniprotId: 'B_HUMAN', description: 'Generated', taxId: 9606, organism: 'Homo sapiens', sequence: syntheticSequence(12, 7), version: 2 });
    const matrix = (e: typeof a) => (JSON.parse(e.pae) as { predicted_aligned_error: number[][] }[])[0]?.predicted_aligned_error as number[][];
    const n = 12;
    const flat = { residue1: [] as number[], residue2: [] as number[], distance: [] as number[], max_predicted_aligned_error: 31.75 };
    matrix(a).forEach((row, i) =>
      row.forEach((v, j) => {
        flat.residue1.push(i + 1);
        flat.residue2.push(j + 1);
        flat.distance.push(v);
      }),
    );
    for (const f of entryFiles(a)) writeFileSync(join(dir, f.name), f.name.includes('predicted') ? gzipSync(JSON.stringify([flat])) : f.bytes);
    mkdirSync(join(dir, 'b'));
    for (const f of entryFiles(b))
      writeFileSync(join(dir, 'b', f.name.replace('.gz', '')), f.name.includes('predicted') ? JSON.stringify([{ distance: matrix(b), max_predicted_aligned_error: 30 }]) : gunzipSync(f.bytes));
    const r = await loadAf(store, t.generations, dir);
    expect(r.records).toBe(2);
    for (const [e, v, max] of [
      [a, 1, 31.75],
      [b, 2, 30],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/alphafold/files/${e.entryId}-predicted_aligned_error_v${v}.json` });
      expect(res.statusCode).toBe(200);
      const [o] = res.json() as { distance: number[][]; predicted_aligned_error: number[][]; max_predicted_aligned_error: number }[];
      expect(o?.predicted_aligned_error).toEqual(matrix(e));
      expect(o?.distance).toEqual(matrix(e));
      expect(o?.max_predicted_aligned_error).toBe(max);
      expect(o?.distance).toHaveLength(n);
    }
    // Files loaded uncompressed are kept gzipped like the rest.
    const cif = await t.app.inject({ method: 'GET', url: `/alphafold/files/${b.entryId}-model_v2.cif`, headers: { 'accept-encoding': 'gzip' } });
    expect(cif.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(cif.rawPayload).toString('utf8')).toBe(b.cif);
  });

  it('answers 503 with Retry-After, not 500, when the file store has lost a file', async () => {
    const { rmSync } = await import('node:fs');
    const dir = tempDir('biomirror-af-lost-');
    const e = generateEntry({ accession: 'Q9ZZY5', uniprotId: 'L_HUMAN', description: 'Generated', taxId: 9606, organism: 'Homo sapiens', sequence: syntheticSequence(12, 12) });
    for (const f of entryFiles(e)) writeFileSync(join(dir, f.name), f.bytes);
    const r = await loadAf(store, t.generations, dir);
    const [row] = await store.db.query<{ model_key: string }>(`SELECT model_key FROM "af_models_g${r.gen}"`);
    const key = row?.model_key as string;
    rmSync(join(store.options.dataDir, 'files', key.slice(0, 2), key.slice(2, 4), key));
    const res = await t.app.inject({ method: 'GET', url: `/alphafold/files/${e.entryId}-model_v4.cif` });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ detail: 'Service Unavailable' });
    expect(res.headers['retry-after']).toBe('30');
  });

  it('gives version 6 entries the MD5 checksum of the current records, earlier ones CRC64', async () => {
    const { createHash } = await import('node:crypto');
    const dir = tempDir('biomirror-af-v6-');
    const seq = syntheticSequence(16, 16);
    for (const v of [4, 6]) {
      const e = generateEntry({
        accession: 'Q9ZZY6',
        uniprotId: 'S_HUMAN',
        description: 'Generated',
        taxId: 9606,
        organism: 'Homo sapiens',
        sequence: seq,
        version: v,
        created: v === 6 ? '2025-08-01' : '2022-06-01',
      });
      for (const f of entryFiles(e)) writeFileSync(join(dir, f.name), f.bytes);
    }
    await loadAf(store, t.generations, dir);
    const [rec] = (await t.app.inject({ method: 'GET', url: '/alphafold/api/prediction/Q9ZZY6' })).json() as Rec[];
    expect(rec).toMatchObject({ latestVersion: 6, allVersions: [4, 6], modelCreatedDate: '2025-08-01T00:00:00Z', sequenceChecksum: createHash('md5').update(seq).digest('hex') });
    expect(rec?.pdbUrl).toMatch(/-model_v6\.pdb$/);
  });

  it('answers from the new load once it is switched to, never from an earlier answer', async () => {
    const { AF_DEMO } = await import('./alphafold-fixtures.js');
    await loadAf(store, t.generations, AF_DEMO);
    const url = '/alphafold/api/prediction/P69905';
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    const dir = tempDir('biomirror-af-next-');
    const e = generateEntry({ accession: 'Q9ZZY0', uniprotId: 'N_HUMAN', description: 'Generated', taxId: 9606, organism: 'Homo sapiens', sequence: syntheticSequence(10, 10) });
    for (const f of entryFiles(e)) writeFileSync(join(dir, f.name), f.bytes);
    await loadAf(store, t.generations, dir);
    // The generation pointer is cached for a second; the next load is seen after it.
    await new Promise((r) => setTimeout(r, 1100));
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/alphafold/api/prediction/Q9ZZY0' })).statusCode).toBe(200);
  });

  it('reads the metadata table as CSV and as JSON lines, skipping rows of the wrong types', async () => {
    const dir = tempDir('biomirror-af-meta-');
    const e = generateEntry({ accession: 'Q9ZZY8', uniprotId: 'M_HUMAN', description: 'From the model', taxId: 9606, organism: 'Homo sapiens', sequence: syntheticSequence(15, 8) });
    for (const f of entryFiles(e)) writeFileSync(join(dir, f.name), f.bytes);
    writeFileSync(join(dir, 'meta.csv'), 'entryId,uniprotDescription,taxId,isReviewed\nAF-Q9ZZY8-F1,"Described, with a comma",9606,false\nAF-Q9ZZY9-F1,x,not-a-number,true\n');
    writeFileSync(join(dir, 'meta.jsonl'), `${JSON.stringify({ entryId: 'AF-Q9ZZY8-F1', gene: 'JSONGENE', organismScientificName: 'Homo sapiens' })}\n`);
    const skipped: string[] = [];
    await loadAf(store, t.generations, dir, { onSkip: (_p, reason) => skipped.push(reason) });
    // The CSV and the JSON lines rows are both table rows of the same entry: the second is a duplicate.
    expect(skipped.some((s) => /taxId is not an integer/.test(s))).toBe(true);
    const [rec] = (await t.app.inject({ method: 'GET', url: '/alphafold/api/prediction/Q9ZZY8' })).json() as Rec[];
    expect(rec).toMatchObject({ uniprotDescription: 'Described, with a comma', isReviewed: false });
  });
});
