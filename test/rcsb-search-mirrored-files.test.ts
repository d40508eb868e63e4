/**
 * Structure and motif queries naming a file by its public URL, as py-rcsb-api and the RCSB's web
 * page send them (`https://files.rcsb.org/download/4HHB.cif`): a file of a host this server
 * mirrors is read from this server's own copy, in-process, with nothing requested from the
 * network. The file host's routes are not mounted here: the RCSB's files come from the loaded
 * archive through the file host's handlers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { alphafold } from '../src/services/alphafold/index.js';
import { rcsbData } from '../src/services/pdb/data/index.js';
import { rcsbSearch } from '../src/services/pdb/search/index.js';
import { loadAf } from './alphafold-fixtures.js';
import type { TestApp } from './helpers/app.js';
import { DEMO_DIR, globinVariant, loadArchive, pdbApp, SEARCH_QUERY, writeFile, postJson, searchIds, type Json } from './helpers/pdb.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';
import { missing } from './helpers/tools.js';

const SLOW = 600_000;
const FILES = 'https://files.rcsb.org';
const HEME_HIS = [
  { label_asym_id: 'A', label_seq_id: 58 },
  { label_asym_id: 'A', label_seq_id: 87 },
];
const structure = (value: Json, extra: Json = {}) => ({ type: 'terminal', service: 'structure', parameters: { value, ...extra } });
const motif = (value: Json) => ({ type: 'terminal', service: 'strucmotif', parameters: { value } });

describe.each(STORES.map((s) => [s.name, s] as const))('RCSB Search API query files by the URL of a mirrored host on %s', (_name, target) => {
  let store: OpenedStore;
  let t: TestApp;
  // Nothing may go to the network: every request made through fetch fails the test.
  const network = vi.fn((..._args: unknown[]) => Promise.reject(new Error('no network in this test')));
  const post = (body: unknown) => postJson(t.app, SEARCH_QUERY, body);
  const ids = (query: unknown, return_type = 'entry') => searchIds(t.app, query, return_type);
  const refused = async (query: unknown, why: RegExp) => {
    const r = await post({ query, return_type: 'entry' });
    expect(r.status, r.raw).toBe(400);
    expect(r.body).toEqual({ status: 400, message: expect.stringMatching(why) });
  };

  beforeAll(async () => {
    store = await target.open();
    t = await pdbApp(store, [rcsbData, rcsbSearch, alphafold]);
    await loadAf(store, t.generations);
    const dir = tempDir();
    writeFile(dir, 'hh/4hhb.cif.gz', readFileSync(join(DEMO_DIR, 'archive/hh/4hhb.cif.gz')));
    writeFile(dir, 'hb/9hb1.cif.gz', globinVariant('9HB1', { title: 'SYNTHETIC GLOBIN VARIANT', method: 'SOLUTION NMR', resolution: '2.80', released: '2001-05-01' }));
    await loadArchive(store, t.generations, dir, { source: 'test' });
    vi.stubGlobal('fetch', network);
  }, SLOW);
  afterAll(async () => {
    vi.unstubAllGlobals();
    expect(network).not.toHaveBeenCalled();
    await t.close();
    await store.cleanup();
  });

  it('finds a motif in a file of files.rcsb.org, in each of its forms, as by the entry id', { timeout: SLOW }, async () => {
    const byEntry = await ids(motif({ entry_id: '4HHB', residue_ids: HEME_HIS }));
    expect(byEntry).toEqual(['4HHB', '9HB1']);
    for (const value of [
      { url: `${FILES}/download/4HHB.cif`, format: 'cif' },
      { url: `${FILES}/view/4hhb.cif`, format: 'cif' },
      { url: `${FILES}/download/4hhb.cif.gz`, format: 'cif' },
      { url: `${FILES}/download/4HHB.bcif`, format: 'bcif' },
      { url: `${FILES}/download/4HHB.bcif.gz`, format: 'bcif' },
      { url: 'http://files.rcsb.org/download/4HHB.cif', format: 'cif' },
    ]) {
      expect(await ids(motif({ ...value, residue_ids: HEME_HIS })), value.url).toEqual(byEntry);
    }
    expect(network).not.toHaveBeenCalled();
  });

  it('refuses a file the mirrored host would not have, and any other host, with a 400 naming why', { timeout: SLOW }, async () => {
    const file = (url: string, format = 'cif') => motif({ url, format, residue_ids: HEME_HIS });
    await refused(file(`${FILES}/download/9ZZZ.cif`), /entry 9ZZZ is not loaded on this server/);
    await refused(file(`${FILES}/view/4HHB.bcif`, 'bcif'), /the RCSB file host has no file at \/view\/4HHB\.bcif/);
    await refused(file(`${FILES}/pub/pdb/data/structures/divided/mmCIF/hh/4hhb.cif.gz`), /the RCSB file host has no file at/);
    await refused(file('https://files.wwpdb.org/download/4HHB.cif'), /fetches nothing from the network/);
    await refused(file('https://models.rcsb.org/v1/4hhb/full.cif'), /fetches nothing from the network/);
    expect(network).not.toHaveBeenCalled();
  });

  describe(`structure${missing('TMalign', 'TM-align')}`, () => {
    it('searches by a file of files.rcsb.org in each format, gzipped or not, as by the entry id', { timeout: SLOW }, async () => {
      const low = { ptmscore_cutoff: 0.5 };
      const byId = await ids(structure({ entry_id: '4HHB', asym_id: 'A' }, low), 'polymer_instance');
      expect(byId.slice(0, 4).sort()).toEqual(['4HHB.A', '4HHB.C', '9HB1.A', '9HB1.C']);
      for (const value of [
        { url: `${FILES}/download/4HHB.cif`, format: 'cif', asym_id: 'A' },
        { url: `${FILES}/view/4HHB.cif`, format: 'cif', asym_id: 'A' },
        { url: `${FILES}/download/4hhb.cif.gz`, format: 'cif', asym_id: 'A' },
        { url: `${FILES}/download/4HHB.bcif`, format: 'bcif', asym_id: 'A' },
        { url: `${FILES}/download/4HHB.pdb`, format: 'pdb', asym_id: 'A' },
        { url: `${FILES}/download/4HHB.pdb.gz`, format: 'pdb', asym_id: 'A' },
      ]) {
        expect(await ids(structure(value, low), 'polymer_instance'), value.url).toEqual(byId);
      }
      expect(await ids(structure({ url: `${FILES}/download/4HHB.cif`, format: 'cif', assembly_id: '1' }), 'assembly')).toEqual(['4HHB-1', '9HB1-1']);
      expect(network).not.toHaveBeenCalled();
    });

    it('searches by a model file of the AlphaFold DB, from this server AlphaFold host', { timeout: SLOW }, async () => {
      const r = await post({
        query: structure({ url: 'https://alphafold.ebi.ac.uk/files/AF-P69905-F1-model_v4.cif', format: 'cif' }, { ptmscore_cutoff: 0 }),
        return_type: 'polymer_instance',
        request_options: { results_verbosity: 'verbose', return_all_hits: true },
      });
      expect(r.status, r.raw).toBe(200);
      // The demo's models are generated helices: any score will do.
      for (const h of r.body.result_set as Json[]) expect(h.services[0].nodes[0].match_context[0].tmscore).toBeGreaterThan(0);
      await refused(structure({ url: 'https://alphafold.ebi.ac.uk/files/AF-Q00000-F1-model_v4.cif', format: 'cif' }), /this server answered 404/);
      expect(network).not.toHaveBeenCalled();
    });
  });
});
