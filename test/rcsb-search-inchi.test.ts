/**
 * The Search API's chemical search by InChI descriptor: matched against the standard InChI RDKit
 * computes for each loaded chemical component, with the match types weighed as the RCSB's schema
 * describes them (formal charge in every graph match, stereochemistry in all but graph-relaxed),
 * the same way for a SMILES query of the same molecule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoad } from '../src/core/ingest/load.js';
import { rcsbData } from '../src/services/pdb/data/index.js';
import { rcsbSearch } from '../src/services/pdb/search/index.js';
import type { TestApp } from './helpers/app.js';
import { COMPONENTS, pdbApp, SEARCH_QUERY, postJson, searchIds } from './helpers/pdb.js';
import { STORES, type OpenedStore } from './helpers/stores.js';

const L_ALANINE = 'InChI=1S/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)/t2-/m0/s1';
/** Not a component of the dictionary: the other enantiomer, the ammonium form, a deuterated form. */
const D_ALANINE = 'InChI=1S/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)/t2-/m1/s1';
const ALANINIUM = 'InChI=1S/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)/p+1/t2-/m0/s1';
const D3_ALANINE = 'InChI=1S/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)/t2-/m0/s1/i1D3';
/** L-alanine as a non-standard InChI with its fixed-hydrogen layer. */
const L_ALANINE_FIXED_H = 'InChI=1/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)/t2-/m0/s1/f/h5H';
const GLYCINE = 'InChI=1S/C2H5NO2/c3-1-2(4)5/h1,3H2,(H,4,5)';
/** Alanine methyl ester: no component has it. */
const ESTER = 'InChI=1S/C4H9NO2/c1-3(5)4(6)7-2/h3H,5H2,1-2H3/t3-/m0/s1';

const chem = (value: string, match_type: string, descriptor_type = 'InChI') => ({
  type: 'terminal',
  service: 'chemical',
  parameters: { type: 'descriptor', descriptor_type, value, match_type },
});

describe.each(STORES.map((s) => [s.name, s] as const))('RCSB Search API chemical search by InChI on %s', (_name, target) => {
  let store: OpenedStore;
  let t: TestApp;
  const post = (body: unknown) => postJson(t.app, SEARCH_QUERY, body);
  const ids = (query: unknown) => searchIds(t.app, query, 'mol_definition');

  beforeAll(async () => {
    store = await target.open();
    t = await pdbApp(store, [rcsbData, rcsbSearch]);
    // The dictionary alone: chemical search needs no archive.
    const ccd = COMPONENTS as NonNullable<typeof COMPONENTS>;
    await runLoad(store.db, t.generations, ccd, ccd.demo as string, { source: 'test' });
  }, 600_000);
  afterAll(async () => {
    await t.close();
    await store.cleanup();
  });

  it('matches an InChI no component carries by the graph match types, stereo and charge as the schema weighs them', { timeout: 120_000 }, async () => {
    expect(await ids(chem(L_ALANINE, 'graph-exact'))).toEqual(['ALA']);
    expect(await ids(chem(L_ALANINE, 'graph-strict'))).toEqual(['ALA']);
    expect(await ids(chem(L_ALANINE, 'graph-relaxed-stereo'))).toEqual(['ALA']);
    // The other enantiomer: the same atoms, bonds and charge; other stereochemistry.
    expect(await ids(chem(D_ALANINE, 'graph-relaxed'))).toEqual(['ALA']);
    expect(await ids(chem(D_ALANINE, 'graph-relaxed-stereo'))).toEqual([]);
    expect(await ids(chem(D_ALANINE, 'graph-exact'))).toEqual([]);
    // Another formal charge: no graph match, relaxed included.
    expect(await ids(chem(ALANINIUM, 'graph-relaxed'))).toEqual([]);
    // Isotopes count in the exact kinds only.
    expect(await ids(chem(D3_ALANINE, 'graph-relaxed-stereo'))).toEqual(['ALA']);
    expect(await ids(chem(D3_ALANINE, 'graph-strict'))).toEqual([]);
    // A non-standard InChI: its fixed-hydrogen layer is beyond the standard InChI compared.
    expect(await ids(chem(L_ALANINE_FIXED_H, 'graph-exact'))).toEqual(['ALA']);
    expect(await ids(chem(ESTER, 'graph-relaxed'))).toEqual([]);
  });

  it('answers an InChI as the SMILES of the same molecule', { timeout: 120_000 }, async () => {
    const pairs: [string, string][] = [
      [D_ALANINE, 'C[C@@H](N)C(O)=O'],
      [ALANINIUM, 'C[C@H]([NH3+])C(O)=O'],
      [L_ALANINE, 'C[C@H]([NH3+])C([O-])=O'],
    ];
    for (const [inchi, smiles] of pairs) {
      for (const type of ['graph-exact', 'graph-relaxed', 'graph-relaxed-stereo']) {
        expect(await ids(chem(inchi, type)), `${inchi} ${type}`).toEqual(await ids(chem(smiles, type, 'SMILES')));
      }
    }
  });

  it('takes fingerprint and substructure matches through the component with the same computed InChI, and refuses others with a 400', { timeout: 120_000 }, async () => {
    const sub = await ids(chem(GLYCINE, 'sub-struct-graph-relaxed'));
    expect(sub).toEqual(expect.arrayContaining(['ALA', 'GLY', 'SER', 'LYS']));
    expect(sub).not.toContain('HEM');
    const fp = await post({ query: chem(L_ALANINE, 'fingerprint-similarity'), return_type: 'mol_definition' });
    expect(fp.status, fp.raw).toBe(200);
    expect(fp.body.result_set[0]).toEqual({ identifier: 'ALA', score: 1 });
    const r = await post({ query: chem(ESTER, 'fingerprint-similarity'), return_type: 'mol_definition' });
    expect(r.status, r.raw).toBe(400);
    expect(r.body).toEqual({ status: 400, message: expect.stringMatching(/InChI.*fingerprint-similarity.*use a SMILES descriptor/) });
  });

  it('refuses text that is not an InChI with a 400', async () => {
    for (const value of ['InChI=1S/nothing', 'C[C@H](N)C(O)=O', 'InChI=1S/C3H7NO2/c1-2(4)/z5', 'InChI=2S/C3H7NO2']) {
      const r = await post({ query: chem(value, 'graph-relaxed'), return_type: 'mol_definition' });
      expect(r.status, value).toBe(400);
      expect(r.body).toEqual({ status: 400, message: expect.stringContaining('Not a readable InChI descriptor') });
    }
  });
});
