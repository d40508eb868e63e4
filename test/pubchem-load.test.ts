/**
 * A load of PubChem's own Compound records (real ones, test/fixtures/pubchem/real-subskeys.sdf.gz):
 * stored as they came, without RDKit, their values from their tags, their full records built when
 * asked for; the key file the searches scan is written by the load and again by a server that
 * finds none.
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedDirOf } from '../src/core/files/derived.js';
import { runLoad, type LoadResult } from '../src/core/ingest/load.js';
import { parseSdf, type SdfRecord } from '../src/services/pubchem/chem/sdf.js';
import { decodeSubskeys, keyTanimoto } from '../src/services/pubchem/chem/subskeys-codec.js';
import type { ServiceModule } from '../src/services/types.js';
import type { TestApp } from './helpers/app.js';
import { B, dataset, pubchemApp, req, type Res } from './helpers/pubchem.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';

const FIXTURE = join(import.meta.dirname, 'fixtures/pubchem/real-subskeys.sdf.gz');
const ids = (r: Res) => (r.body.IdentifierList as { CID: number[] }).CID;

describe.each(STORES)('a load of PubChem Compound records on $name', (target) => {
  let s: OpenedStore;
  let t: TestApp;
  let m: ServiceModule;
  let loaded: LoadResult;
  const texts = new Map<number, string>();
  const records = new Map<number, SdfRecord>();

  beforeAll(async () => {
    const text = gunzipSync(readFileSync(FIXTURE)).toString('utf8');
    for (const [i, chunk] of text.split(/(?<=\n\$\$\$\$\n)/).entries()) {
      const rec = parseSdf(chunk)[0];
      if (!rec || typeof rec === 'string') throw new Error(`record ${i}`);
      const cid = Number(rec.tags.get('PUBCHEM_COMPOUND_CID'));
      if (!texts.has(cid)) texts.set(cid, chunk);
      if (!records.has(cid)) records.set(cid, rec);
    }
    s = await target.open();
    ({ t, m } = await pubchemApp(s));
    const dir = tempDir();
    copyFileSync(FIXTURE, join(dir, 'Compound_real.sdf.gz'));
    loaded = await runLoad(s.db, t.generations, dataset(m, 'compounds'), dir);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await s?.cleanup();
  });

  // Records as PubChem writes them today carry the InChI; most of these (of 2008) do not, and get it from RDKit.
  const complete = () => [...records].filter(([, r]) => r.tags.has('PUBCHEM_IUPAC_INCHI') && r.tags.has('PUBCHEM_IUPAC_INCHIKEY')).map(([cid]) => cid);

  it('serves each record as it came: the SD text byte for byte, values from its tags, nothing computed', async () => {
    expect(loaded.records).toBe(texts.size);
    expect(complete().length).toBeGreaterThan(300);
    for (const cid of complete().filter((_, i) => i % 40 === 0)) {
      const sdf = await req(t.app, `${B}/compound/cid/${cid}/SDF`);
      expect(sdf.status).toBe(200);
      expect(sdf.raw).toBe(texts.get(cid));
    }
    const cid = complete()[7] as number;
    const tags = (records.get(cid) as SdfRecord).tags;
    const props = (await req(t.app, `${B}/compound/cid/${cid}/property/MolecularFormula,MolecularWeight,TPSA,Complexity,ConnectivitySMILES/JSON`)).body.PropertyTable as {
      Properties: Record<string, unknown>[];
    };
    expect(props.Properties[0]).toEqual({
      CID: cid,
      MolecularFormula: tags.get('PUBCHEM_MOLECULAR_FORMULA'),
      MolecularWeight: tags.get('PUBCHEM_MOLECULAR_WEIGHT'),
      TPSA: Number(tags.get('PUBCHEM_CACTVS_TPSA')),
      Complexity: Number(tags.get('PUBCHEM_CACTVS_COMPLEXITY')),
      ConnectivitySMILES: tags.get('PUBCHEM_OPENEYE_CAN_SMILES'),
    });
  });

  it('builds the full record when asked: atoms, bonds, coordinates and every value, none marked computed', async () => {
    const cid = complete()[3] as number;
    const rec = (await req(t.app, `${B}/compound/cid/${cid}/JSON`)).body.PC_Compounds as Record<string, unknown>[];
    const one = rec[0] as { atoms: { element: number[] }; bonds: { order: number[] }; props: { urn: Record<string, unknown> }[]; coords: unknown[] };
    const counts = (texts.get(cid) as string).split('\n')[3] as string;
    expect(one.atoms.element).toHaveLength(Number(counts.slice(0, 3)));
    expect(one.bonds.order).toHaveLength(Number(counts.slice(3, 6)));
    expect(one.coords).toHaveLength(1);
    expect(one.props.some((p) => p.urn.label === 'Fingerprint')).toBe(true);
    expect(one.props.some((p) => p.urn.software === 'RDKit')).toBe(false);
  });

  it('writes the key file at load, and a server that finds none writes it again before searching', async () => {
    const folder = join(derivedDirOf(s.db), 'pubchem-keys');
    // Named by the generation's table and its load's stamp: apart from other databases' files.
    const stamp = (await s.db.one<{ stamp: string }>(`SELECT stamp FROM "pcc_keystamp_g${loaded.gen}"`))?.stamp as string;
    const name = `pcc_structures_g${loaded.gen}-${stamp}.keys`;
    const mine = () => readdirSync(folder).filter((f) => f === name);
    expect(mine()).toHaveLength(1);
    const keys = new Map(
      [...records].flatMap(([cid, r]) => {
        const k = decodeSubskeys(r.tags.get('PUBCHEM_CACTVS_SUBSKEYS') ?? '');
        return typeof k === 'string' ? [] : [[cid, k] as const];
      }),
    );
    const expected = (q: Uint8Array, threshold: number) =>
      [...keys]
        .map(([cid, k]) => ({ cid, score: keyTanimoto(q, k) }))
        .filter((h) => h.score >= threshold / 100)
        .sort((a, b) => b.score - a.score || a.cid - b.cid)
        .map((h) => h.cid);
    const query = 150858;
    const before = ids(await req(t.app, `${B}/compound/fastsimilarity_2d/cid/${query}/cids/JSON?Threshold=80`));
    expect(before).toEqual(expected(keys.get(query) as Uint8Array, 80));
    expect(before.length).toBeGreaterThan(1);
    // A server started on the same database with the file gone (another host loaded it).
    await t.close();
    rmSync(join(folder, name));
    rmSync(join(folder, `${name}.keyless`));
    ({ t } = await pubchemApp(s));
    const again = await req(t.app, `${B}/compound/fastsimilarity_2d/cid/${query}/cids/JSON?Threshold=80`);
    expect(ids(again)).toEqual(before);
    expect(mine()).toHaveLength(1);
    expect(existsSync(join(folder, `${name}.keyless`))).toBe(true);
  });
});
