import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { rdkit, type RDKit } from '../src/services/pubchem/chem/rdkit.js';
import { decodeSubskeys, encodeSubskeys, keyTanimoto } from '../src/services/pubchem/chem/subskeys-codec.js';
import { subskeysEngine, type KeysOf } from '../src/services/pubchem/chem/subskeys-engine.js';
import { ListKeys } from '../src/services/pubchem/search/listkeys.js';
import { popcountBytes, segmentsOf } from '../src/services/pubchem/search/keyfile/format.js';
import { B, dataset, fault, post, req, type Res, demoSuite } from './helpers/pubchem.js';
import { REAL_SUBSKEYS } from './helpers/subskeys.js';
import { STORES } from './helpers/stores.js';
import type { TestApp } from './helpers/app.js';

const ids = (r: Res) => (r.body.IdentifierList as { CID: number[] }).CID;
const waitingKey = (r: Res) => (r.body.Waiting as { ListKey: string }).ListKey;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The demo compounds with their SMILES and stored substructure keys, read back through the API, for brute-force answers. */
async function demoStructures(app: TestApp['app'], file: string): Promise<{ cid: number; smiles: string; keys: Uint8Array | undefined }[]> {
  const cids = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => Number(l.split('\t')[0]));
  const r = await post(app, `${B}/compound/cid/property/SMILES,Fingerprint2D/JSON`, { cid: cids.join(',') });
  return (r.body.PropertyTable as { Properties: { CID: number; SMILES: string; Fingerprint2D?: string }[] }).Properties.map((p) => {
    const keys = p.Fingerprint2D === undefined ? undefined : decodeSubskeys(p.Fingerprint2D);
    if (typeof keys === 'string') throw new Error(`CID ${p.CID}: ${keys}`);
    return { cid: p.CID, smiles: p.SMILES, keys };
  });
}

/** CIDs in the order a similarity search must give them: Tanimoto on the keys at least the threshold, best first, ties by CID. */
function bruteForce(demo: { cid: number; keys: Uint8Array | undefined }[], q: Uint8Array, threshold: number): number[] {
  return demo
    .flatMap((d) => (d.keys ? [{ cid: d.cid, score: keyTanimoto(q, d.keys) }] : []))
    .filter((d) => d.score + 1e-9 >= threshold / 100)
    .sort((a, b) => b.score - a.score || a.cid - b.cid)
    .map((d) => d.cid);
}

/** Polls a list key until its answer is no longer "Waiting". */
async function poll(app: TestApp['app'], url: string): Promise<Res> {
  for (let i = 0; i < 200; i++) {
    const r = await req(app, url);
    if (r.status !== 202) return r;
    expect(r.body).toEqual({ Waiting: { ListKey: expect.any(String), Message: 'Your request is running' } });
    await sleep(50);
  }
  throw new Error('the search never finished');
}

// Seven disconnected carbons, one of them in a ring: against a ring-free chain of 8 or more carbons
// the matcher tries every assignment (minutes), which only a thread restart stops.
const SLOW_SMARTS = encodeURIComponent('[#6].[#6].[#6].[#6].[#6].[#6].[#6;R]');

for (const target of STORES) {
  describe(`PubChem structure search on ${target.name}`, () => {
    const suite = demoSuite(target, { syncBudgetMs: 0, maxSearchMs: 2000, listkeyTtlMs: 60_000 });
    let t: TestApp;
    let demo: { cid: number; smiles: string; keys: Uint8Array | undefined }[];
    let r: RDKit;
    beforeAll(async () => {
      t = suite.t;
      demo = await demoStructures(t.app, `${dataset(suite.m, 'compounds').demo as string}/CID-SMILES`);
      r = await rdkit();
    });

    it('finds by similarity of a CID exactly the compounds a brute-force Tanimoto on the stored keys finds, best first', async () => {
      const aspirin = demo.find((d) => d.cid === 2244)?.keys;
      expect(aspirin && encodeSubskeys(aspirin)).toBe(REAL_SUBSKEYS[2244]);
      const queries = [
        2244,
        ...demo
          .filter((d) => d.keys && d.cid !== 2244)
          .slice(0, 4)
          .map((d) => d.cid),
      ];
      for (const cid of queries) {
        const q = demo.find((d) => d.cid === cid)?.keys as Uint8Array;
        for (const threshold of [90, 80, 70]) {
          const got = await req(t.app, `${B}/compound/fastsimilarity_2d/cid/${cid}/cids/JSON?Threshold=${threshold}&MaxRecords=1000`);
          expect(got.status, `${cid} at ${threshold}`).toBe(200);
          expect(ids(got), `${cid} at ${threshold}`).toEqual(bruteForce(demo, q, threshold));
        }
      }
      // The default threshold is 90; MaxRecords cuts the ranked list.
      const q = aspirin as Uint8Array;
      expect(ids(await req(t.app, `${B}/compound/fastsimilarity_2d/cid/2244/cids/JSON`))).toEqual(bruteForce(demo, q, 90));
      const all = bruteForce(demo, q, 50);
      if (all.length > 2) expect(ids(await req(t.app, `${B}/compound/fastsimilarity_2d/cid/2244/cids/JSON?Threshold=50&MaxRecords=2`))).toEqual(all.slice(0, 2));
    });

    it("finds by similarity of a SMILES what the query's computed keys find", async () => {
      const keysOf: KeysOf = await subskeysEngine();
      for (const [smiles, threshold] of [
        ['CC(=O)OC1=CC=CC=C1C(=O)O', 90],
        ['CC(C)CC1=CC=C(C=C1)C(C)C(=O)O', 70],
        ['CN[C@H]1CC[C@H](C2=CC=CC=C12)C3=CC(=C(C=C3)Cl)Cl', 80],
      ] as const) {
        const m = r.get_mol(smiles);
        if (!m) throw new Error(smiles);
        const q = keysOf(m);
        m.delete();
        if (typeof q === 'string') throw new Error(q);
        const got = await req(t.app, `${B}/compound/fastsimilarity_2d/smiles/${encodeURIComponent(smiles)}/cids/JSON?Threshold=${threshold}`);
        expect(got.status, smiles).toBe(200);
        expect(ids(got), smiles).toEqual(bruteForce(demo, q, threshold));
      }
    });

    it('finds by substructure and superstructure exactly what RDKit matching finds, in CID order; MaxRecords keeps the smallest', async () => {
      const matches = (query: string, smarts: boolean, mode: 'sub' | 'super') => {
        const q = smarts ? r.get_qmol(query) : r.get_mol(query);
        if (!q) throw new Error(query);
        const out: number[] = [];
        for (const d of demo) {
          const m = r.get_mol(d.smiles);
          if (!m) continue;
          const hit = mode === 'sub' ? m.get_substruct_match(q) : q.get_substruct_match(m);
          if (hit !== '{}') out.push(d.cid);
          m.delete();
        }
        q.delete();
        return out.sort((a, b) => a - b);
      };
      for (const [query, smarts] of [
        ['c1ccccc1C(=O)O', false],
        ['C1CCNCC1', false],
        ['[NX3;H2][CX4][CX3](=O)[OX2H1]', true],
        ['c1ccc2c(c1)cc[nH]2', false],
      ] as const) {
        const got = await req(t.app, `${B}/compound/fastsubstructure/${smarts ? 'smarts' : 'smiles'}/${encodeURIComponent(query)}/cids/JSON`);
        expect(got.status, query).toBe(200);
        expect(ids(got), query).toEqual(matches(query, smarts, 'sub'));
      }
      const sup = await req(t.app, `${B}/compound/fastsuperstructure/cid/2244/cids/JSON`);
      const aspirin = demo.find((d) => d.cid === 2244)?.smiles as string;
      expect(ids(sup)).toEqual(matches(aspirin, false, 'super'));
      expect(ids(sup)).toContain(241);
      // Past MaxRecords, the matches kept are the first in the key file's order: fewest keys, then
      // the keys of sections 1-2 and 3-5, then CID; answered in CID order.
      const few = await req(t.app, `${B}/compound/fastsubstructure/smiles/c1ccccc1/cids/JSON?MaxRecords=3`);
      const keysOf = new Map(demo.map((d) => [d.cid, d.keys]));
      const order = (cid: number) => {
        const k = keysOf.get(cid) as Uint8Array;
        const [s1, s2] = segmentsOf(k);
        return [popcountBytes(k), s1, s2, cid];
      };
      const smallest = matches('c1ccccc1', false, 'sub')
        .filter((c) => keysOf.get(c))
        .sort((a, b) => {
          const [x, y] = [order(a), order(b)];
          return (x[0] as number) - (y[0] as number) || (x[1] as number) - (y[1] as number) || (x[2] as number) - (y[2] as number) || a - b;
        });
      expect(ids(few)).toEqual(smallest.slice(0, 3).sort((a, b) => a - b));
    });

    it('finds by identity on the InChIKey, or its connectivity block', async () => {
      expect(ids(await req(t.app, `${B}/compound/fastidentity/smiles/${encodeURIComponent('C[C@@H](C(=O)O)N')}/cids/JSON`))).toEqual([5950]);
      expect((await req(t.app, `${B}/compound/fastidentity/smiles/${encodeURIComponent('C[C@H](C(=O)O)N')}/cids/JSON`)).status).toBe(404);
      expect(ids(await req(t.app, `${B}/compound/fastidentity/smiles/CC(C(=O)O)N/cids/JSON?identity_type=same_connectivity`))).toEqual([5950]);
    });

    it('feeds search results to any operation', async () => {
      const p = await req(t.app, `${B}/compound/fastsimilarity_2d/cid/2244/property/MolecularFormula/JSON?MaxRecords=1`);
      expect(p.body).toEqual({ PropertyTable: { Properties: [{ CID: 2244, MolecularFormula: 'C9H8O4' }] } });
      const sdf = await req(t.app, `${B}/compound/fastsubstructure/smiles/c1ccccc1C(=O)O/SDF?MaxRecords=2`);
      expect(sdf.raw.split('$$$$').length - 1).toBe(2);
    });

    it('answers a search that runs past its budget with a ListKey, then the result at the listkey address', async () => {
      // The budget is 0 ms here: every non-fast search goes on in the background.
      const started = await req(t.app, `${B}/compound/substructure/smiles/c1ccccc1C(=O)O/cids/JSON`);
      expect(started.status).toBe(202);
      const key = waitingKey(started);
      expect(key).toMatch(/^\d+$/);
      const done = await poll(t.app, `${B}/compound/listkey/${key}/cids/JSON`);
      expect(done.status).toBe(200);
      expect(ids(done)).toEqual(ids(await req(t.app, `${B}/compound/fastsubstructure/smiles/c1ccccc1C(=O)O/cids/JSON`)));
      // pubchempy's flow: POST the query, then ask the listkey for full records.
      const posted = await post(t.app, `${B}/compound/similarity/cid/JSON`, { cid: '2244' });
      expect(posted.status).toBe(202);
      const records = await poll(t.app, `${B}/compound/listkey/${waitingKey(posted)}/JSON`);
      const expected = bruteForce(demo, demo.find((d) => d.cid === 2244)?.keys as Uint8Array, 90);
      expect((records.body.PC_Compounds as { id: { id: { cid: number } } }[]).map((c) => c.id.id.cid)).toEqual(expected);
      const xml = await req(t.app, `${B}/compound/superstructure/cid/2244/cids/XML`);
      expect(xml.status).toBe(202);
      expect(xml.raw).toMatch(/<Waiting[\s\S]*<ListKey>\d+<\/ListKey>\s*<Message>Your request is running<\/Message>/);
    });

    it('says Waiting while a search runs, times out one whose process died, and forgets expired keys', async () => {
      const keys = new ListKeys(suite.s.db, 60_000);
      const running = await keys.create('compound', undefined, Date.now() + 60_000);
      const w = await req(t.app, `${B}/compound/listkey/${running}/cids/JSON`);
      expect(w.status).toBe(202);
      expect(w.body).toEqual({ Waiting: { ListKey: running, Message: 'Your request is running' } });
      const dead = await keys.create('compound', undefined, Date.now() - 120_000);
      const d = await req(t.app, `${B}/compound/listkey/${dead}/cids/JSON`);
      expect(d.status).toBe(504);
      expect(fault(d).Code).toBe('PUGREST.Timeout');
      const short = new ListKeys(suite.s.db, 50);
      const soon = await short.create('compound', [2244], Date.now());
      expect(ids(await req(t.app, `${B}/compound/listkey/${soon}/cids/JSON`))).toEqual([2244]);
      await sleep(120);
      const gone = await req(t.app, `${B}/compound/listkey/${soon}/cids/JSON`);
      expect(gone.status).toBe(404);
      expect(fault(gone).Details?.[0]).toMatch(/unknown or has expired/);
    });

    it('stops a pathological SMARTS at the time limit (504) while other requests are answered, and keeps searching afterwards', async () => {
      const slow = req(t.app, `${B}/compound/fastsubstructure/smarts/${SLOW_SMARTS}/cids/JSON`);
      await sleep(300);
      const before = Date.now();
      const quick = await req(t.app, `${B}/compound/cid/2244/property/MolecularFormula/JSON`);
      expect(quick.status).toBe(200);
      expect(Date.now() - before).toBeLessThan(1000);
      const timedOut = await slow;
      expect(timedOut.status).toBe(504);
      expect(fault(timedOut)).toMatchObject({ Code: 'PUGREST.Timeout', Message: 'Request timed out' });
      // The background form fails the same way at its list key.
      const bg = await req(t.app, `${B}/compound/substructure/smarts/${SLOW_SMARTS}/cids/JSON`);
      expect(bg.status).toBe(202);
      const failed = await poll(t.app, `${B}/compound/listkey/${waitingKey(bg)}/cids/JSON`);
      expect(failed.status).toBe(504);
      // A fresh thread takes over (on a loaded machine its first answer may itself run out of time: try thrice).
      let after: Res | undefined;
      for (let i = 0; i < 3 && after?.status !== 200; i++) after = await req(t.app, `${B}/compound/fastsubstructure/smiles/C1CCNCC1/cids/JSON`);
      expect(after?.status, after?.raw).toBe(200);
      expect(ids(after as Res).length).toBeGreaterThan(0);
    });

    it('refuses a huge query without hanging', async () => {
      const huge = 'C'.repeat(1_100_000);
      const r1 = await post(t.app, `${B}/compound/fastsubstructure/smarts/cids/JSON`, { smarts: huge });
      expect(r1.status).toBe(400);
      const r2 = await post(t.app, `${B}/compound/fastsimilarity_2d/smiles/cids/JSON`, { smiles: 'C1'.repeat(5000) });
      expect([400, 504]).toContain(r2.status);
    });

    it('answers 400 for bad search input and options, 404 when nothing matches', async () => {
      const cases: [string, string][] = [
        [`${B}/compound/fastsimilarity_2d/smiles/C1CC(/cids/JSON`, 'C1CC('],
        [`${B}/compound/fastsubstructure/smarts/${encodeURIComponent('[C')}/cids/JSON`, '[C'],
        [`${B}/compound/fastsimilarity_2d/cid/2244/cids/JSON?Threshold=abc`, 'Threshold'],
        [`${B}/compound/fastsimilarity_2d/cid/2244/cids/JSON?Threshold=101`, 'Threshold'],
        [`${B}/compound/fastsubstructure/cid/2244/cids/JSON?MaxRecords=0`, 'MaxRecords'],
        [`${B}/compound/fastsubstructure/cid/2244/cids/JSON?MaxSeconds=-5`, 'MaxSeconds'],
        [`${B}/compound/fastsimilarity_2d/smarts/c1ccccc1/cids/JSON`, 'SMARTS'],
        [`${B}/compound/fastsuperstructure/smarts/c1ccccc1/cids/JSON`, 'SMARTS'],
        [`${B}/compound/fastidentity/cid/2244/cids/JSON?identity_type=similar`, 'identity_type'],
        [`${B}/compound/fastsubstructure/name/aspirin/cids/JSON`, 'fastsubstructure/name'],
        [`${B}/compound/fastsubstructure/cid/x/cids/JSON`, 'x'],
      ];
      for (const [url, named] of cases) {
        const res = await req(t.app, url);
        expect(res.status, url).toBe(400);
        expect([fault(res).Message, ...(fault(res).Details ?? [])].join(' '), url).toContain(named);
      }
      const none = await req(t.app, `${B}/compound/fastsubstructure/smiles/${encodeURIComponent('[Xe]')}/cids/JSON`);
      expect(none.status).toBe(404);
      expect(fault(none).Code).toBe('PUGREST.NotFound');
      const unknownCid = await req(t.app, `${B}/compound/fastsimilarity_2d/cid/999999999/cids/JSON`);
      expect(unknownCid.status).toBe(404);
      expect((await req(t.app, `${B}/compound/fastsimilarity_3d/cid/2244/cids/JSON`)).status).toBe(501);
    });
  });
}
