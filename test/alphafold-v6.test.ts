/**
 * AlphaFold DB as the database is at version 6: every key of the real v6 record, the optional
 * files a load may carry (MSA, AlphaMissense tables) served at the URLs the record names, the
 * fetch taking them, and the 3D-Beacons coverage of experimental entries.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryFiles, generateEntry, syntheticSequence, tarOf, type EntrySpec } from '../synthetic/alphafold-generate.js';
import { OPTIONAL_LINKS, optionalFiles } from '../src/cli/fetch/sources/alphafold.js';
import { resolveUpstreams } from '../src/cli/fetch/upstreams.js';
import { coverageOf, type BeaconsStructure } from '../src/services/alphafold/beacons.js';
import { parseAmName, parseLoadedExtra, parseMsaName } from '../src/services/alphafold/extra-files.js';
import { alphafold, createAlphafoldService } from '../src/services/alphafold/index.js';
import { pdbBeacons } from '../src/services/pdb/data/beacons.js';
import { rcsbData } from '../src/services/pdb/data/index.js';
import { makeApp, type TestApp } from './helpers/app.js';
import { loadDemo as loadPdbDemo } from './helpers/pdb.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';
import { AF_DEMO, loadAf } from './alphafold-fixtures.js';

/** The keys of the recorded v6 canonical record (reference/alphafold/recorded), in its order. */
const V6_KEYS = [
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
const AM_KEYS = ['amAnnotationsUrl', 'amAnnotationsHg19Url', 'amAnnotationsHg38Url'];

const RECORDED = new URL('../../shared/reference/alphafold/recorded/prediction_P04637.first2of9.json', import.meta.url);

type Rec = Record<string, unknown>;
const F = 'http://localhost:80/alphafold/files';

const spec = (accession: string, sequence: string, extra: Partial<EntrySpec> = {}): EntrySpec => ({
  accession,
  uniprotId: 'GENV6_HUMAN',
  description: `Generated protein ${accession}`,
  gene: 'GENV6',
  taxId: 9606,
  organism: 'Homo sapiens',
  sequence,
  version: 6,
  created: '2025-08-01',
  ...extra,
});

// Made-up accessions; the alignments and AlphaMissense rows are generated (not real data).
const CANON = 'Q9ZZV1';
const ISO = 'Q9ZZV1-2';
const TREMBL = 'Q9ZZV2';
const MSA = `# generated alignment\n>101\n${syntheticSequence(40, 11)}\n>UniRef100_GENERATED\n${syntheticSequence(40, 12)}\n`;
const AA = 'protein_variant,am_pathogenicity,am_class\nM1A,0.5,ambiguous\n';
const HG19 = 'CHROM,POS,REF,ALT,genome,uniprot_id,transcript_id,protein_variant,am_pathogenicity,am_class\nchr1,1,A,C,hg19,Q9ZZV1,ENST0,M1A,0.5,ambiguous\n';
const HG38 = HG19.replace(/hg19/g, 'hg38');

function writeV6Fixture(): string {
  const dir = tempDir('biomirror-af6-');
  const canon = generateEntry(spec(CANON, syntheticSequence(40, 1)));
  const iso = generateEntry(spec(ISO, syntheticSequence(30, 2)));
  const trembl = generateEntry(spec(TREMBL, syntheticSequence(25, 3), { uniprotId: `${TREMBL}_HUMAN` }));
  // The canonical entry and its isoform in a tar, with the canonical entry's MSA as a member.
  const msaMember = { name: `msa/AF-${CANON}-F1-msa_v6.a3m.gz`, bytes: gzipSync(MSA) };
  writeFileSync(join(dir, 'UP000000000_9606_GENERATED_v6.tar'), tarOf([...entryFiles(canon), ...entryFiles(iso), msaMember]));
  const loose = join(dir, 'loose');
  mkdirSync(loose);
  for (const f of entryFiles(trembl)) writeFileSync(join(loose, f.name), f.bytes);
  // The AlphaMissense tables loose, one gzipped.
  writeFileSync(join(loose, `AF-${CANON}-F1-aa-substitutions.csv`), AA);
  writeFileSync(join(loose, `AF-${CANON}-F1-hg19.csv.gz`), gzipSync(HG19));
  writeFileSync(join(loose, `AF-${CANON}-F1-hg38.csv`), HG38);
  // Files that are not what their names say are passed over.
  writeFileSync(join(loose, `AF-${TREMBL}-F1-msa_v6.a3m`), 'no header here\n');
  writeFileSync(join(loose, `AF-${TREMBL}-F1-hg38.csv`), Buffer.from([0x00, 0x01, 0x02, 0x2c]));
  writeFileSync(join(dir, 'metadata.tsv'), `entryId\tisReferenceProteome\tallVersions\nAF-${CANON}-F1\ttrue\t[1,2,3,4,5,6]\n`);
  return dir;
}

describe.each(STORES.map((s) => [s.name, s] as const))('AlphaFold DB at version 6 on %s', (_name, target) => {
  let store: OpenedStore;
  let t: TestApp;
  let skips: string[];
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const records = async (acc: string) => (await get(`/alphafold/api/prediction/${acc}`)).json() as Rec[];

  beforeAll(async () => {
    store = await target.open();
    t = await makeApp(store, { services: [alphafold] });
    skips = [];
    await loadAf(store, t.generations, writeV6Fixture(), { onSkip: (_place, reason) => skips.push(reason) });
  });
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  it('answers every key of the real v6 record, in its order, with what the loaded files say', async () => {
    const [rec, iso] = await records(CANON);
    expect(Object.keys(rec as Rec)).toEqual(V6_KEYS);
    if (existsSync(RECORDED)) {
      const real = (JSON.parse(readFileSync(RECORDED, 'utf8')) as Rec[])[0] as Rec;
      expect(Object.keys(rec as Rec)).toEqual(Object.keys(real));
    }
    const seq = (rec as Rec).sequence as string;
    expect(rec).toMatchObject({
      latestVersion: 6,
      allVersions: [1, 2, 3, 4, 5, 6],
      modelCreatedDate: '2025-08-01T00:00:00Z',
      sequenceChecksum: createHash('md5').update(seq).digest('hex'),
      isReviewed: true,
      isUniProtReviewed: true,
      isReferenceProteome: true,
      isUniProtReferenceProteome: true,
      cifUrl: `${F}/AF-${CANON}-F1-model_v6.cif`,
      bcifUrl: `${F}/AF-${CANON}-F1-model_v6.bcif`,
      pdbUrl: `${F}/AF-${CANON}-F1-model_v6.pdb`,
      paeImageUrl: `${F}/AF-${CANON}-F1-predicted_aligned_error_v6.png`,
      msaUrl: `${F}/msa/AF-${CANON}-F1-msa_v6.a3m`,
      plddtDocUrl: `${F}/AF-${CANON}-F1-confidence_v6.json`,
      paeDocUrl: `${F}/AF-${CANON}-F1-predicted_aligned_error_v6.json`,
      amAnnotationsUrl: `${F}/AF-${CANON}-F1-aa-substitutions.csv`,
      amAnnotationsHg19Url: `${F}/AF-${CANON}-F1-hg19.csv`,
      amAnnotationsHg38Url: `${F}/AF-${CANON}-F1-hg38.csv`,
    });
    // The isoform: its own MSA URL, no AlphaMissense keys at all (as the recorded isoform).
    expect(iso?.uniprotAccession).toBe(ISO);
    expect(iso?.msaUrl).toBe(`${F}/msa/AF-${ISO}-F1-msa_v6.a3m`);
    for (const k of AM_KEYS) expect(iso, k).not.toHaveProperty(k);
  });

  it('tells a reviewed entry by its UniProt entry name when no metadata says, and sends no reference-proteome guess', async () => {
    const [trembl] = await records(TREMBL);
    expect(trembl).toMatchObject({ isReviewed: false, isUniProtReviewed: false, isReferenceProteome: null });
    const [iso] = await records(ISO);
    expect(iso).toMatchObject({ isReviewed: true, isUniProtReviewed: true });
  });

  it('serves the MSA and the AlphaMissense tables at the URLs the record names, as loaded', async () => {
    const [rec] = await records(CANON);
    const path = (u: unknown) => new URL(String(u)).pathname;
    const msa = await get(path(rec?.msaUrl));
    expect(msa.statusCode).toBe(200);
    expect(msa.headers['content-type']).toMatch(/^text\/plain/);
    expect(msa.body).toBe(MSA);
    const zipped = await get(path(rec?.msaUrl), { 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    for (const [k, text] of [
      ['amAnnotationsUrl', AA],
      ['amAnnotationsHg19Url', HG19],
      ['amAnnotationsHg38Url', HG38],
    ] as const) {
      const r = await get(path(rec?.[k]));
      expect(r.statusCode, k).toBe(200);
      expect(r.headers['content-type'], k).toMatch(/^text\/csv/);
      expect(r.body, k).toBe(text);
    }
    const range = await get(path(rec?.amAnnotationsUrl), { range: 'bytes=0-6' });
    expect(range.statusCode).toBe(206);
    expect(range.body).toBe(AA.slice(0, 7));
  });

  it('answers 404 {"detail":"Not Found"} for optional files the load did not carry and for names it could not have', async () => {
    const [, iso] = await records(CANON);
    for (const url of [
      new URL(String(iso?.msaUrl)).pathname,
      `/alphafold/files/msa/AF-${CANON}-F1-msa_v5.a3m`,
      `/alphafold/files/AF-${TREMBL}-F1-hg38.csv`,
      `/alphafold/files/msa/AF-${TREMBL}-F1-msa_v6.a3m`,
      `/alphafold/files/AF-${ISO}-F1-aa-substitutions.csv`,
      `/alphafold/files/msa/AF-${CANON}-F1-msa_v6.a3m.gz`,
      `/alphafold/files/msa/AF-${CANON}-F1-hg38.csv`,
      `/alphafold/files/AF-${CANON}-F1-msa_v6.a3m`,
      `/alphafold/files/AF-${CANON}-F1-hg37.csv`,
      '/alphafold/files/msa/%00',
      '/alphafold/files/msa/..%2F..%2Fetc',
    ]) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(404);
      expect(r.json(), url).toEqual({ detail: 'Not Found' });
    }
  });

  it('passes over optional files that are not what their names say, with the reason', () => {
    expect(skips).toHaveLength(2);
    expect(skips.some((s) => /msa_v6\.a3m: not an a3m alignment/.test(s))).toBe(true);
    expect(skips.some((s) => /hg38\.csv: not a text file/.test(s))).toBe(true);
  });
});

describe.each(STORES.map((s) => [s.name, s] as const))('AlphaFold DB demo and 3D-Beacons coverage on %s', (_name, target) => {
  let store: OpenedStore;
  let t: TestApp;
  const get = (url: string) => t.app.inject({ method: 'GET', url });
  // 4HHB chain A as the structure database lists it for P69905: UniProt residues 2-142 (SIFTS), coverage left to the summary.
  const HHB: BeaconsStructure = {
    summary: {
      model_identifier: '4hhb',
      model_category: 'EXPERIMENTALLY DETERMINED',
      model_url: 'http://localhost:80/rcsb/files/download/4HHB.cif',
      model_format: 'MMCIF',
      provider: 'PDBe',
      created: '1984-07-17',
      sequence_identity: 1,
      uniprot_start: 2,
      uniprot_end: 142,
      coverage: 0,
      entities: [{ entity_type: 'POLYMER', entity_poly_type: 'POLYPEPTIDE(L)', identifier: 'P69905', identifier_category: 'UNIPROT', description: 'Hemoglobin subunit alpha', chain_ids: ['A', 'C'] }],
    },
  };
  beforeAll(async () => {
    store = await target.open();
    const service = createAlphafoldService({ experimental: () => ({ byUniprot: async (acc) => (acc === 'P69905' || acc === 'P12345' ? [HHB] : []) }) });
    t = await makeApp(store, { services: [service] });
    await loadAf(store, t.generations, AF_DEMO);
  });
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  it('the demo records carry every key of the v6 record, the flags as booleans', async () => {
    const rec = ((await get('/alphafold/api/prediction/P69905')).json() as Rec[])[0] as Rec;
    expect(Object.keys(rec)).toEqual(V6_KEYS);
    expect(rec).toMatchObject({ isReviewed: true, isUniProtReviewed: true, isReferenceProteome: true, isUniProtReferenceProteome: true });
    // The demo's files are version 4 (generated models): the record says what they say.
    expect(rec.latestVersion).toBe(4);
    expect(rec.msaUrl).toBe(`${F}/msa/AF-P69905-F1-msa_v4.a3m`);
    // Named (a canonical human protein) but not loaded: 404 in the database's body.
    for (const k of ['msaUrl', ...AM_KEYS]) {
      const r = await get(new URL(String(rec[k])).pathname);
      expect(r.statusCode, k).toBe(404);
      expect(r.json(), k).toEqual({ detail: 'Not Found' });
    }
  });

  it('gives experimental entries the fraction of the UniProt sequence they cover (4HHB chain A of P69905: 0.99)', async () => {
    const body = (await get('/alphafold/api/uniprot/summary/P69905.json')).json() as { uniprot_entry: Rec; structures: { summary: Rec }[] };
    expect(body.uniprot_entry.sequence_length).toBe(142);
    const hhb = body.structures.find((s) => s.summary.model_identifier === '4hhb');
    expect(hhb?.summary.coverage).toBe(0.99);
    expect(body.structures.find((s) => s.summary.provider === 'AlphaFold DB')?.summary.coverage).toBe(1);
    // Without a model of the accession loaded, the length is the longest range listed.
    const only = (await get('/alphafold/api/uniprot/summary/P12345.json')).json() as { structures: { summary: Rec }[] };
    expect(only.structures[0]?.summary.coverage).toBe(0.99);
  });
});

describe.each(STORES.map((s) => [s.name, s] as const))('3D-Beacons summary with the structure database wired in on %s', (_name, target) => {
  let store: OpenedStore;
  let t: TestApp;
  beforeAll(async () => {
    store = await target.open();
    // As the registry wires it: the structure database's entries of an accession, through SIFTS.
    t = await makeApp(store, { services: [rcsbData, createAlphafoldService({ experimental: pdbBeacons })] });
    await loadPdbDemo(store, t.generations);
    await loadAf(store, t.generations, AF_DEMO);
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  it('4HHB (chains A and C, UniProt 2-142 of P69905) covers 0.99 of the sequence, not 0', async () => {
    const r = await t.app.inject('/alphafold/api/uniprot/summary/P69905.json');
    expect(r.statusCode).toBe(200);
    const hhb = (r.json() as { structures: { summary: Rec }[] }).structures.find((s) => s.summary.model_identifier === '4hhb');
    expect(hhb?.summary).toMatchObject({ provider: 'PDBe', uniprot_start: 2, uniprot_end: 142, coverage: 0.99 });
  });
});

describe('AlphaFold DB optional files: names and fetch plan', () => {
  it('reads the bucket names of the MSA and the AlphaMissense tables', () => {
    expect(parseMsaName('AF-P04637-F1-msa_v6.a3m')).toEqual({ entryId: 'AF-P04637-F1', kind: 'msa', source: 'file:msa_v6' });
    expect(parseAmName('AF-P04637-9-F1-aa-substitutions.csv')).toEqual({ entryId: 'AF-P04637-9-F1', kind: 'am', source: 'file:aa-substitutions' });
    expect(parseAmName('AF-P04637-F1-hg19.csv')?.source).toBe('file:hg19');
    expect(parseLoadedExtra('AF-P04637-F1-hg38.csv.gz')?.source).toBe('file:hg38');
    for (const bad of ['AF-P04637-F1-msa_v6.a3m.gz', 'AF-P04637-F1-hg37.csv', 'P04637-hg38.csv', 'AF-P04637-F1-model_v6.cif']) {
      expect(parseMsaName(bad) ?? parseAmName(bad), bad).toBeUndefined();
    }
  });

  it('coverage follows the 3D-Beacons formula, to two decimals', () => {
    expect(coverageOf(2, 142, 142)).toBe(0.99);
    expect(coverageOf(1, 142, 142)).toBe(1);
    expect(coverageOf(5, 50, 60)).toBe(0.77);
    expect(coverageOf(10, 5, 60)).toBe(0);
    expect(coverageOf(1, 10, 0)).toBe(0);
  });

  it('a fetch of an entry takes the MSA and AlphaMissense files its v6 record names, each optional', () => {
    const upstreams = resolveUpstreams(['alphafold=http://mirror.example:9000/afdb'], {});
    const real = existsSync(RECORDED)
      ? (JSON.parse(readFileSync(RECORDED, 'utf8')) as Rec[])
      : [
          Object.fromEntries(
            OPTIONAL_LINKS.map((k) => [
              k,
              `https://alphafold.ebi.ac.uk/files/${k === 'msaUrl' ? 'msa/AF-P04637-F1-msa_v6.a3m' : `AF-P04637-F1-${{ amAnnotationsUrl: 'aa-substitutions', amAnnotationsHg19Url: 'hg19', amAnnotationsHg38Url: 'hg38' }[k as string] as string}.csv`}`,
            ]),
          ),
          { msaUrl: 'https://alphafold.ebi.ac.uk/files/msa/AF-P04637-9-F1-msa_v6.a3m' },
        ];
    const canon = optionalFiles({ upstreams }, real[0] as Rec);
    expect(canon).toEqual([
      { url: 'http://mirror.example:9000/afdb/files/msa/AF-P04637-F1-msa_v6.a3m', path: 'entries/AF-P04637-F1-msa_v6.a3m', optional: true },
      { url: 'http://mirror.example:9000/afdb/files/AF-P04637-F1-aa-substitutions.csv', path: 'entries/AF-P04637-F1-aa-substitutions.csv', optional: true },
      { url: 'http://mirror.example:9000/afdb/files/AF-P04637-F1-hg19.csv', path: 'entries/AF-P04637-F1-hg19.csv', optional: true },
      { url: 'http://mirror.example:9000/afdb/files/AF-P04637-F1-hg38.csv', path: 'entries/AF-P04637-F1-hg38.csv', optional: true },
    ]);
    // The isoform's record names only its MSA.
    expect(optionalFiles({ upstreams }, real[1] as Rec).map((f) => f.path)).toEqual(['entries/AF-P04637-9-F1-msa_v6.a3m']);
    // Links that are no such file, or no URL, are passed over.
    expect(optionalFiles({ upstreams }, { msaUrl: 'not a url', amAnnotationsUrl: 'https://x.example/files/other.csv', amAnnotationsHg19Url: 5 })).toEqual([]);
  });
});
