/**
 * The RCSB Search API's engines and their indexes: built by the archive load, served from their
 * folders, rebuilt in the background where missing; structure and motif queries by the URL of a
 * file of this server; grouping by MMseqs2 sequence clusters.
 */
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableSet } from '../src/core/ingest/dataset.js';
import { derivedDirOf } from '../src/core/files/derived.js';
import { alphafold } from '../src/services/alphafold/index.js';
import { rcsbData } from '../src/services/pdb/data/index.js';
import { rcsbFiles } from '../src/services/pdb/files/index.js';
import { ARCHIVE, ARCHIVE_PREFIX, SERVICE, archiveTables } from '../src/services/pdb/store/tables.js';
import { structuresHash } from '../src/services/pdb/search/build/coord-index.js';
import { searchTables } from '../src/services/pdb/search/build/indexer.js';
import { rcsbSearch } from '../src/services/pdb/search/index.js';
import { queryFileLimits } from '../src/services/pdb/search/query/query-file.js';
import { sequencesHash } from '../src/services/pdb/search/build/seq-index.js';
import { readSequences } from '../src/services/pdb/search/sequences.js';
import { loadAf } from './alphafold-fixtures.js';
import { makeApp, type TestApp } from './helpers/app.js';
import { DEMO_DIR, globinVariant, loadArchive, pdbApp, writeFile, type Json } from './helpers/pdb.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';
import { missing } from './helpers/tools.js';

const Q = '/rcsb/search/rcsbsearch/v2/query';
/** The shared port of the test app (the configuration's default) and the file host's own port. */
const HERE = 'http://localhost:8080';
const FILES_PORT = `http://127.0.0.1:${rcsbFiles.defaultPort}`;
const SLOW = 900_000;

const HHB_GZ = readFileSync(join(DEMO_DIR, 'archive/hh/4hhb.cif.gz'));

function archiveOf(ids: ('9HB1' | '9HB2')[]): string {
  const dir = tempDir();
  writeFile(dir, 'hh/4hhb.cif.gz', HHB_GZ);
  if (ids.includes('9HB1')) writeFile(dir, 'hb/9hb1.cif.gz', globinVariant('9HB1', { title: 'SYNTHETIC GLOBIN VARIANT', method: 'SOLUTION NMR', resolution: '2.80', released: '2001-05-01' }));
  if (ids.includes('9HB2')) writeFile(dir, 'hb/9hb2.cif.gz', globinVariant('9HB2', { title: 'ANOTHER GLOBIN', method: 'ELECTRON MICROSCOPY', resolution: '3.50', released: '2005-02-01' }));
  return dir;
}

/** An mmCIF holding only the given residues' atoms of 4HHB (an extracted motif). */
function extracted(residues: [string, number][]): string {
  const lines = gunzipSync(HHB_GZ).toString('utf8').split('\n');
  const head = lines.findIndex((l) => l.startsWith('_atom_site.'));
  const names: string[] = [];
  let i = head;
  while (lines[i]?.startsWith('_atom_site.')) names.push((lines[i++] as string).trim());
  const asym = names.indexOf('_atom_site.label_asym_id');
  const seq = names.indexOf('_atom_site.label_seq_id');
  const rows: string[] = [];
  for (; i < lines.length && !(lines[i] as string).startsWith('#'); i++) {
    const f = (lines[i] as string).trim().split(/\s+/);
    if (residues.some(([a, n]) => f[asym] === a && f[seq] === String(n))) rows.push(lines[i] as string);
  }
  return ['data_MOTIF', 'loop_', ...names, ...rows, '#', ''].join('\n');
}

const structure = (value: Json, extra: Json = {}) => ({ type: 'terminal', service: 'structure', parameters: { value, ...extra } });
const motif = (value: Json, extra: Json = {}) => ({ type: 'terminal', service: 'strucmotif', parameters: { value, ...extra } });
const sequence = (value: string) => ({ type: 'terminal', service: 'sequence', parameters: { value, sequence_type: 'protein' } });
const HEME_HIS = [
  { label_asym_id: 'A', label_seq_id: 58 },
  { label_asym_id: 'A', label_seq_id: 87 },
];
const ALPHA = 'VLSPADKTNVKAAWGKVGAHAGEYGAEALERMFLSFPTTKTYFPHFDLSHGSAQVKGHGKKVADALTNAVAHVDDMPNALSALSDLHAHKLRVDPVNFKLLSHCLLVTLAAHLPAEFTPAVHASLDKFLASVSTVLTSKYR';

function client(app: () => TestApp) {
  const post = async (body: unknown) => {
    const r = await app().app.inject({ method: 'POST', url: Q, payload: body as Json });
    let json: Json = {};
    try {
      json = r.json();
    } catch {
      // 204 has no body.
    }
    return { status: r.statusCode, body: json, raw: r.body, headers: r.headers };
  };
  const ids = async (query: unknown, return_type = 'entry', options: Json = {}) => {
    const r = await post({ query, return_type, request_options: { return_all_hits: true, results_verbosity: 'compact', ...options } });
    if (r.status === 204) return [];
    expect(r.status, r.raw).toBe(200);
    return r.body.result_set as string[];
  };
  return { post, ids };
}

/** The index folders of the generation served: built (ready) or not. */
async function servedFolders(store: OpenedStore, t: TestApp): Promise<{ sequences: string; structures: string }> {
  const gen = (await t.generations.active(SERVICE, ARCHIVE)) as number;
  const ts = tableSet(ARCHIVE_PREFIX, gen);
  const seqs = await readSequences(store.db, searchTables(ts).sseq);
  const root = derivedDirOf(store.db);
  return { sequences: join(root, `sequences-${sequencesHash(seqs.list)}`), structures: join(root, `structures-${await structuresHash(store.db, archiveTables(ts).entries)}`) };
}

describe.each(STORES.map((s) => [s.name, s] as const))(`RCSB Search API engines on %s${missing('mmseqs', 'MMseqs2')}${missing('TMalign', 'TM-align')}`, (_name, target) => {
  let store: OpenedStore;
  let t: TestApp;
  let own: TestApp;
  const { post, ids } = client(() => t);

  beforeAll(async () => {
    store = await target.open();
    t = await pdbApp(store, [rcsbData, rcsbSearch, rcsbFiles, alphafold]);
    // The file host alone on its own port, as `serve --port-per-service` runs it.
    own = await makeApp(store, { services: [rcsbFiles], prefixed: false });
    await loadAf(store, t.generations);
    await loadArchive(store, t.generations, archiveOf(['9HB1', '9HB2']), { source: 'test' });
  }, SLOW);
  afterAll(async () => {
    await own.close();
    await t.close();
    await store.cleanup();
  });

  it('builds the engine indexes with the load, before any query; a failed load leaves the served ones alone', { timeout: SLOW }, async () => {
    const served = await servedFolders(store, t);
    expect(existsSync(join(served.sequences, 'READY'))).toBe(true);
    expect(existsSync(join(served.structures, 'READY'))).toBe(true);
    expect(existsSync(join(served.sequences, 'protein', 'db'))).toBe(true);
    expect(existsSync(join(served.structures, 'pairs.u32'))).toBe(true);
    await expect(loadArchive(store, t.generations, join(tempDir(), 'no-such-archive'), { source: 'test' })).rejects.toThrow();
    expect(await servedFolders(store, t)).toEqual(served);
    expect(await ids(sequence(ALPHA.slice(0, 60)), 'polymer_entity')).toEqual(['4HHB_1', '9HB1_1', '9HB2_1']);
    expect(await ids(motif({ entry_id: '4HHB', residue_ids: HEME_HIS }))).toEqual(['4HHB', '9HB1', '9HB2']);
  });

  it('takes a structure query by the URL of a file of this server, in each format, gzipped or not, or as data', { timeout: SLOW }, async () => {
    const low = { ptmscore_cutoff: 0.5 };
    const byId = await ids(structure({ entry_id: '4HHB', asym_id: 'A' }, low), 'polymer_instance');
    expect(byId.slice(0, 6).sort()).toEqual(['4HHB.A', '4HHB.C', '9HB1.A', '9HB1.C', '9HB2.A', '9HB2.C']);
    const forms: Json[] = [
      { url: `${HERE}/rcsb/files/download/4HHB.cif`, format: 'cif', asym_id: 'A' },
      { url: `${HERE}/rcsb/files/download/4hhb.cif.gz`, format: 'cif', asym_id: 'A' },
      { url: `${HERE}/rcsb/files/download/4HHB.bcif`, format: 'bcif', asym_id: 'A' },
      { url: `${HERE}/rcsb/files/download/4HHB.pdb`, format: 'pdb', asym_id: 'A' },
      { url: `${FILES_PORT}/download/4HHB.cif`, format: 'cif', asym_id: 'A' },
      // The deprecated base64 form takes no chain: the file's first protein chain (A) is the query.
      { data: gunzipSync(HHB_GZ).toString('base64'), format: 'cif' },
    ];
    for (const value of forms) expect(await ids(structure(value, low), 'polymer_instance'), JSON.stringify(value).slice(0, 80)).toEqual(byId);
    // An assembly of the file searches assemblies.
    expect(await ids(structure({ url: `${HERE}/rcsb/files/download/4HHB.cif`, format: 'cif', assembly_id: '1' }), 'assembly')).toEqual(['4HHB-1', '9HB1-1', '9HB2-1']);
    // The AlphaFold host's model files too (the demo's models are generated helices: any score will do).
    const af = await post({
      query: structure({ url: `${HERE}/alphafold/files/AF-P69905-F1-model_v4.cif`, format: 'cif' }, { ptmscore_cutoff: 0 }),
      return_type: 'polymer_instance',
      request_options: { results_verbosity: 'verbose', return_all_hits: true },
    });
    expect(af.status, af.raw).toBe(200);
    for (const h of af.body.result_set as Json[]) {
      const tm = h.services[0].nodes[0].match_context[0].tmscore as number;
      expect(tm).toBeGreaterThan(0);
      expect(tm).toBeLessThanOrEqual(1);
    }
  });

  it('refuses a URL elsewhere, a file it cannot read and a file past its budgets with a 400 naming why', { timeout: SLOW }, async () => {
    const refused = async (value: Json, why: RegExp, service = structure) => {
      const r = await post({ query: service(value), return_type: 'entry' });
      expect(r.status, r.raw).toBe(400);
      expect(r.body.status).toBe(400);
      expect(r.body.message).toMatch(why);
    };
    // The hosts this server mirrors are read from its own copies (rcsb-search-mirrored-files.test.ts); others are not.
    await refused({ url: 'https://files.wwpdb.org/download/4HHB.cif', format: 'cif' }, /fetches nothing from the network/);
    await refused({ url: 'http://example.org:8080/rcsb/files/download/4HHB.cif', format: 'cif' }, /only from its own addresses/);
    await refused({ url: `${HERE}/rcsb/files/download/9ZZZ.cif`, format: 'cif' }, /answered 404/);
    await refused({ url: `${HERE}/rcsb/data/rest/v1/core/entry/4HHB`, format: 'cif' }, /not a readable mmCIF file/);
    await refused({ url: `${HERE}/rcsb/search/rcsbsearch/v2/metadata/schema`, format: 'cif' }, /no file host/);
    await refused({ url: `${HERE}/rcsb/files/download/4HHB.cif`, format: 'cif', asym_id: 'Z' }, /no protein chain Z/);
    await refused({ data: Buffer.from('not a structure at all').toString('base64'), format: 'cif' }, /not a readable mmCIF file/);
    await refused({ data: HHB_GZ.subarray(0, 2000).toString('base64'), format: 'cif' }, /not a readable mmCIF file/);
    await refused({ data: gzipSync('REMARK nothing here\nEND\n').toString('base64'), format: 'pdb' }, /no polymer residues/);
    await refused({ url: `${HERE}/rcsb/files/download/4HHB.bcif`, format: 'bcif', residue_ids: [HEME_HIS[0], { label_asym_id: 'A', label_seq_id: 999 }] }, /no amino-acid residue A 999/, motif);
    const saved = { ...queryFileLimits };
    try {
      queryFileLimits.maxBytes = 1000;
      await refused({ url: `${HERE}/rcsb/files/download/4HHB.cif`, format: 'cif' }, /at most 1000 are accepted/);
      queryFileLimits.maxBytes = saved.maxBytes;
      queryFileLimits.parseMs = 1;
      await refused({ url: `${HERE}/rcsb/files/download/4HHB.cif`, format: 'cif' }, /took longer than 1 ms/);
    } finally {
      Object.assign(queryFileLimits, saved);
    }
  });

  it('finds a motif given by file URL with residue ids, or by a file holding the motif alone', { timeout: SLOW }, async () => {
    const byEntry = await ids(motif({ entry_id: '4HHB', residue_ids: HEME_HIS }));
    expect(byEntry).toEqual(['4HHB', '9HB1', '9HB2']);
    expect(await ids(motif({ url: `${HERE}/rcsb/files/download/4HHB.cif`, format: 'cif', residue_ids: HEME_HIS }))).toEqual(byEntry);
    expect(
      await ids(
        motif({
          data: Buffer.from(
            extracted([
              ['A', 58],
              ['A', 87],
            ]),
          ).toString('base64'),
          format: 'cif',
        }),
      ),
    ).toEqual(byEntry);
    const r = await post({ query: motif({ url: `${HERE}/rcsb/files/download/4HHB.cif`, format: 'cif' }), return_type: 'entry' });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/must hold the motif alone/);
  });

  it('groups polymer entities by the MMseqs2 clusters at each cutoff, named <cluster>_<cutoff>', { timeout: SLOW }, async () => {
    const every = { type: 'terminal', service: 'text', parameters: { attribute: 'rcsb_entry_info.resolution_combined', operator: 'exists' } };
    const groups = async (cutoff: number) => {
      const r = await post({
        query: every,
        return_type: 'polymer_entity',
        request_options: { group_by: { aggregation_method: 'sequence_identity', similarity_cutoff: cutoff }, group_by_return_type: 'groups', return_all_hits: true },
      });
      expect(r.status, r.raw).toBe(200);
      return (r.body.group_set as Json[]).map((g) => ({ id: g.identifier as string, members: (g.result_set as Json[]).map((h) => h.identifier as string).sort() }));
    };
    const alphaBeta = [
      { id: expect.stringMatching(/^[12]_CUT$/), members: ['4HHB_1', '9HB1_1', '9HB2_1'] },
      { id: expect.stringMatching(/^[12]_CUT$/), members: ['4HHB_2', '9HB1_2', '9HB2_2'] },
    ];
    for (const cutoff of [100, 95, 90, 70, 50]) {
      const got = await groups(cutoff);
      expect(got.map((g) => g.id.replace(/_\d+$/, '_CUT')).sort()).toEqual(['1_CUT', '2_CUT']);
      expect(got.every((g) => g.id.endsWith(`_${cutoff}`))).toBe(true);
      expect(got.map((g) => ({ ...g, id: g.id.replace(/_\d+$/, '_CUT') })).sort((a, b) => (a.members[0] as string).localeCompare(b.members[0] as string))).toEqual(alphaBeta);
    }
    // Human α- and β-globin share about 43 % of their residues over their whole length.
    expect(await groups(30)).toEqual([{ id: '1_30', members: ['4HHB_1', '4HHB_2', '9HB1_1', '9HB1_2', '9HB2_1', '9HB2_2'] }]);
    const wrong = await post({ query: every, return_type: 'polymer_entity', request_options: { group_by: { aggregation_method: 'sequence_identity', similarity_cutoff: 80 } } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/similarity_cutoff.*80.*not one of 100, 95, 90, 70, 50, 30/);
  });
});

describe.each(STORES.map((s) => [s.name, s] as const))(`RCSB Search API engine indexes missing or engines absent on %s${missing('mmseqs', 'MMseqs2')}`, (_name, target) => {
  let store: OpenedStore;
  let t: TestApp;
  const { post, ids } = client(() => t);
  const KEYS = ['BIOMIRROR_INDEX_DIR', 'BIOMIRROR_MMSEQS', 'BIOMIRROR_TMALIGN'] as const;
  const saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));
  const restore = (k: (typeof KEYS)[number]) => {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  };

  beforeAll(async () => {
    // A folder of indexes of its own: this test removes folders.
    delete process.env.BIOMIRROR_INDEX_DIR;
    store = await target.open();
    t = await pdbApp(store, [rcsbData, rcsbSearch]);
  }, SLOW);
  afterAll(async () => {
    for (const k of KEYS) restore(k);
    await t.close();
    await store.cleanup();
  });

  /** Asks until the answer is no longer 503; every 503 says that the index is being built. */
  async function whenBuilt(body: Json): Promise<{ status: number; body: Json }> {
    for (;;) {
      const r = await post(body);
      if (r.status !== 503) return r;
      expect(r.headers['retry-after']).toBe('30');
      expect(r.body.message).toMatch(/index of the data served is being built/);
      await new Promise((ok) => setTimeout(ok, 500));
    }
  }

  it('loads without MMseqs2 or TM-align, answering their queries with a 400 that names them', { timeout: SLOW }, async () => {
    process.env.BIOMIRROR_MMSEQS = '/nonexistent/mmseqs';
    process.env.BIOMIRROR_TMALIGN = '/nonexistent/TMalign';
    await loadArchive(store, t.generations, archiveOf([]), { source: 'test' });
    expect(readdirSync(derivedDirOf(store.db)).filter((n) => n.startsWith('sequences-'))).toEqual([]);
    for (const [body, why] of [
      [{ query: sequence(ALPHA), return_type: 'entry' }, /MMseqs2 program \(mmseqs\) is not installed/],
      [
        {
          query: { type: 'terminal', service: 'text', parameters: { attribute: 'rcsb_entry_info.resolution_combined', operator: 'exists' } },
          return_type: 'polymer_entity',
          request_options: { group_by: { aggregation_method: 'sequence_identity', similarity_cutoff: 95 } },
        },
        /MMseqs2 program \(mmseqs\) is not installed/,
      ],
      [{ query: structure({ entry_id: '4HHB', asym_id: 'A' }), return_type: 'entry' }, /TM-align program \(TMalign\) is not installed/],
    ] as [Json, RegExp][]) {
      const r = await post(body);
      expect(r.status, r.raw).toBe(400);
      expect(r.body.message).toMatch(why);
    }
    // Motif search needs no program of its own.
    expect(await ids(motif({ entry_id: '4HHB', residue_ids: HEME_HIS }))).toEqual(['4HHB']);
  });

  it('builds a served generation’s missing indexes in the background, answering 503 with Retry-After until they are ready', { timeout: SLOW }, async () => {
    restore('BIOMIRROR_MMSEQS');
    restore('BIOMIRROR_TMALIGN');
    // MMseqs2 is back: the sequence index of the served generation was never built.
    const first = await post({ query: sequence(ALPHA.slice(0, 60)), return_type: 'polymer_entity' });
    expect(first.status, first.raw).toBe(503);
    const seq = await whenBuilt({ query: sequence(ALPHA.slice(0, 60)), return_type: 'polymer_entity', request_options: { return_all_hits: true, results_verbosity: 'compact' } });
    expect(seq.body.result_set).toEqual(['4HHB_1']);
    // An index folder lost (another host's load, a wiped disk) is built again from the database.
    rmSync((await servedFolders(store, t)).structures, { recursive: true });
    const again = await whenBuilt({ query: motif({ entry_id: '4HHB', residue_ids: HEME_HIS }), return_type: 'entry', request_options: { return_all_hits: true, results_verbosity: 'compact' } });
    expect(again.body.result_set).toEqual(['4HHB']);
  });

  it('switches to a new generation’s indexes with the generation, keeping the previous one’s', { timeout: SLOW }, async () => {
    const before = await servedFolders(store, t);
    await loadArchive(store, t.generations, archiveOf(['9HB1']), { source: 'test' });
    const after = await servedFolders(store, t);
    expect(after.structures).not.toBe(before.structures);
    expect(existsSync(join(after.structures, 'READY'))).toBe(true);
    expect(existsSync(join(before.structures, 'READY'))).toBe(true);
    expect(await ids(motif({ entry_id: '4HHB', residue_ids: HEME_HIS }))).toEqual(['4HHB', '9HB1']);
    expect(await ids(sequence(ALPHA.slice(0, 60)), 'polymer_entity')).toEqual(['4HHB_1', '9HB1_1']);
  });

  it('refuses a load whose MMseqs2 clustering fails, naming the failure, and keeps serving what it served', { timeout: SLOW }, async () => {
    const served = await servedFolders(store, t);
    // An MMseqs2 that fails at its first clustering run (the runs go on in a thread of their own).
    const bin = join(tempDir(), 'mmseqs');
    writeFileSync(bin, '#!/bin/sh\nif [ "$1" = linclust ]; then echo "injected failure" >&2; exit 3; fi\nexec mmseqs "$@"\n', { mode: 0o755 });
    process.env.BIOMIRROR_MMSEQS = bin;
    try {
      await expect(loadArchive(store, t.generations, archiveOf(['9HB1', '9HB2']), { source: 'test' })).rejects.toThrow(/mmseqs linclust ended with 3: injected failure/);
    } finally {
      restore('BIOMIRROR_MMSEQS');
    }
    expect(await servedFolders(store, t)).toEqual(served);
    expect(await ids(sequence(ALPHA.slice(0, 60)), 'polymer_entity')).toEqual(['4HHB_1', '9HB1_1']);
  });
});
