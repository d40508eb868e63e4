/**
 * PubChem's 881 substructure keys: the SD tag read and written back exactly, loaded and served
 * (`Fingerprint2D`, the record's "SubStructure Keys" prop, the SD record as loaded), similarity
 * ranked by Tanimoto on them, and what happens to a malformed tag or a query without keys.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SkipPlace } from '../src/core/ingest/dataset.js';
import { runLoad, type LoadResult } from '../src/core/ingest/load.js';
import { ident } from '../src/core/store/db.js';
import { molfileWithHydrogens } from '../src/services/pubchem/chem/compound.js';
import { parseMol, rdkit, type RDKit } from '../src/services/pubchem/chem/rdkit.js';
import { parseSdf } from '../src/services/pubchem/chem/sdf.js';
import { KEY_BYTES, KEY_COUNT, decodeSubskeys, encodeSubskeys, keyBit, keyCount, keyString, keyTanimoto, keyWords, subskeysHex } from '../src/services/pubchem/chem/subskeys-codec.js';
import { checked } from '../src/services/pubchem/chem/subskeys-engine.js';
import { popcount } from '../src/services/pubchem/chem/fingerprints.js';
import type { ServiceModule } from '../src/services/types.js';
import { silent, type TestApp } from './helpers/app.js';
import { B, dataset, fault, pubchemApp, req, type Res } from './helpers/pubchem.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';
import { ASPIRIN_BINARY, REAL_KEY_COUNTS, REAL_SUBSKEYS } from './helpers/subskeys.js';
import { missingPubchempy } from './helpers/tools.js';

type Row = Record<string, unknown>;
interface Prop {
  urn: Row;
  value: Row;
}

const FIXTURE = join(import.meta.dirname, 'fixtures/pubchem/real-subskeys.sdf.gz');

/** pubchempy's `Compound.cactvs_fingerprint`: the hex after the count, as binary, less the 7 padding bits, padded to 881. */
function pubchempyBits(hex: string): string {
  const bits = BigInt(`0x${hex.slice(8)}`).toString(2);
  return (bits.length < 20 ? bits.padStart(20, '0') : bits).slice(0, -7).padStart(KEY_COUNT, '0');
}

const decoded = (value: string): Uint8Array => {
  const k = decodeSubskeys(value);
  if (typeof k === 'string') throw new Error(k);
  return k;
};

describe('the substructure keys tag', () => {
  it('decodes PubChem’s values and encodes them back exactly', () => {
    for (const [cid, value] of Object.entries(REAL_SUBSKEYS)) {
      const keys = decoded(value);
      expect(keys.length, cid).toBe(KEY_BYTES);
      expect(encodeSubskeys(keys), cid).toBe(value);
      expect(keyCount(keys), cid).toBe(REAL_KEY_COUNTS[Number(cid)]);
      expect(popcount(keyWords(keys)), cid).toBe(keyCount(keys));
      // Key k is bit 7 - k % 8 of byte k / 8, as pubchempy reads the record's hexadecimal.
      const hex = subskeysHex(keys);
      expect(hex, cid).toMatch(/^00000371[0-9A-F]{222}$/);
      expect(keyString(keys), cid).toBe(pubchempyBits(hex));
    }
    expect(subskeysHex(decoded(REAL_SUBSKEYS[2244] as string))).toBe(ASPIRIN_BINARY);
    // Aspirin: keys 0 (>= 4 H) and 1 (>= 8 H) set, key 2 (>= 16 H) not; nothing past key 880.
    const aspirin = decoded(REAL_SUBSKEYS[2244] as string);
    expect([keyBit(aspirin, 0), keyBit(aspirin, 1), keyBit(aspirin, 2)]).toEqual([1, 1, 0]);
    expect(() => keyBit(aspirin, KEY_COUNT)).toThrow(RangeError);
    expect(keyTanimoto(aspirin, aspirin)).toBe(1);
  });

  it('reads a value wrapped over lines as the same keys', () => {
    const value = REAL_SUBSKEYS[1] as string;
    expect(encodeSubskeys(decoded(`${value.slice(0, 80)}\n${value.slice(80)}`))).toBe(value);
  });

  it('says what is wrong with a malformed value', () => {
    const good = Buffer.from(REAL_SUBSKEYS[2244] as string, 'base64');
    const withCount = (n: number) => {
      const b = Buffer.from(good);
      b.writeUInt32BE(n, 0);
      return b.toString('base64');
    };
    const padded = Buffer.from(good);
    padded[good.length - 1] = 0x01;
    const cases: [string, RegExp][] = [
      ['', /empty/],
      ['not base64!', /not base64/],
      [good.subarray(0, 100).toString('base64'), /100 bytes, not 115/],
      [Buffer.concat([good, Buffer.alloc(3)]).toString('base64'), /118 bytes/],
      [withCount(880), /key count is 880, not 881/],
      [padded.toString('base64'), /past key 880/],
      // The last character carries bits the 115 bytes do not use.
      [(REAL_SUBSKEYS[2244] as string).replace(/A==$/, 'B=='), /not canonical/],
    ];
    for (const [value, why] of cases) expect(decodeSubskeys(value), value).toMatch(why);
  });

  it('checks what a key computer gives', () => {
    expect(checked(() => new Uint8Array(KEY_BYTES))({} as never)).toEqual(new Uint8Array(KEY_BYTES));
    expect(checked(() => new Uint8Array(10))({} as never)).toMatch(/10 bytes of keys, not 111/);
    expect(
      checked(() => {
        throw new Error('no ring perception');
      })({} as never),
    ).toMatch(/failed: no ring perception/);
  });

  const fixtureMissing = existsSync(FIXTURE) ? '' : ' (skipped: test/fixtures/pubchem/real-subskeys.sdf.gz is not there)';
  it.skipIf(!!fixtureMissing)(`round-trips every tag of the real records in the fixture file${fixtureMissing}`, () => {
    const records = parseSdf(gunzipSync(readFileSync(FIXTURE)).toString('utf8')).filter((r) => typeof r !== 'string');
    const tagged = records.filter((r) => r.tags.has('PUBCHEM_CACTVS_SUBSKEYS'));
    expect(tagged.length).toBeGreaterThan(0);
    for (const r of tagged) {
      const value = (r.tags.get('PUBCHEM_CACTVS_SUBSKEYS') as string).replace(/\s+/g, '');
      expect(encodeSubskeys(decoded(value)), r.tags.get('PUBCHEM_COMPOUND_CID')).toBe(value);
    }
  });
});

// The fixture compounds: real structures; aspirin's keys and those of CIDs 1 and 14550001
// are PubChem's, the others are made here from aspirin's by switching keys off and on, so that
// their similarity to aspirin spreads over the thresholds tested (two get the same keys, for the
// order of ties).
const REAL: [number, string][] = [
  [2244, 'CC(=O)OC1=CC=CC=C1C(=O)O'],
  [1, 'CC(=O)OC(CC(=O)[O-])C[N+](C)(C)C'],
  [14550001, 'C1=CC(=C(C=C1[N+](=O)[O-])CSCCO)O'],
];
const MADE: [number, string, number][] = [
  [900007, 'CC(=O)OC1=CC=CC=C1C(=O)OC', 4],
  [900003, 'CC(=O)OC1=CC=C(C=C1)C(=O)O', 9],
  [900010, 'CC(=O)OC1=CC=CC(=C1)C(=O)O', 9],
  [900004, 'OC(=O)C1=CC=CC=C1O', 15],
  [900005, 'CC(=O)NC1=CC=CC=C1C(=O)O', 24],
  [900006, 'CC(=O)OC1=CC=CC=C1', 33],
  [900002, 'OC(=O)C1=CC=CC=C1', 45],
  [900008, 'CCOC(=O)C1=CC=CC=C1', 60],
];
const BAD_CID = 900099;
// The key count is 880 here: not PubChem's layout.
const BAD_VALUE = (() => {
  const b = Buffer.from(REAL_SUBSKEYS[2244] as string, 'base64');
  b.writeUInt32BE(880, 0);
  return b.toString('base64');
})();

/** Aspirin's keys with the `n` lowest set keys switched off and as many unset keys from 300 on switched on. */
function madeKeys(n: number): string {
  const keys = decoded(REAL_SUBSKEYS[2244] as string).slice();
  const flip = (k: number) => (keys[k >> 3] = (keys[k >> 3] as number) ^ (0x80 >> (k & 7)));
  let off = 0;
  for (let k = 0; k < KEY_COUNT && off < Math.ceil(n / 2); k++) {
    if (!keyBit(keys, k)) continue;
    flip(k);
    off++;
  }
  let on = 0;
  for (let k = 300; k < KEY_COUNT && on < Math.floor(n / 2); k++) {
    if (keyBit(keys, k)) continue;
    flip(k);
    on++;
  }
  return encodeSubskeys(keys);
}

function molfile(r: RDKit, smiles: string, title: string): string {
  const m = parseMol(r, smiles);
  if (!m) throw new Error(smiles);
  try {
    return molfileWithHydrogens(r, m, title) as string;
  } finally {
    m.delete();
  }
}

const record = (block: string, tags: [string, string][]) => block + tags.map(([k, v]) => `> <${k}>\n${v}\n\n`).join('') + '$$$$\n';

function fixtureSdf(r: RDKit): string {
  const out: string[] = [];
  for (const [cid, smiles] of REAL)
    out.push(
      record(molfile(r, smiles, String(cid)), [
        ['PUBCHEM_COMPOUND_CID', String(cid)],
        ['PUBCHEM_CACTVS_SUBSKEYS', REAL_SUBSKEYS[cid] as string],
      ]),
    );
  for (const [cid, smiles, n] of MADE)
    out.push(
      record(molfile(r, smiles, String(cid)), [
        ['PUBCHEM_COMPOUND_CID', String(cid)],
        ['PUBCHEM_CACTVS_SUBSKEYS', madeKeys(n)],
      ]),
    );
  out.push(
    record(molfile(r, 'CC(=O)OC1=CC=CC=C1C(=O)N', String(BAD_CID)), [
      ['PUBCHEM_COMPOUND_CID', String(BAD_CID)],
      ['PUBCHEM_CACTVS_SUBSKEYS', BAD_VALUE],
    ]),
  );
  return out.join('');
}

const ids = (r: Res) => (r.body.IdentifierList as { CID: number[] }).CID;
const properties = (r: Res) => (r.body.PropertyTable as { Properties: Row[] }).Properties;
const ALL = [...REAL.map(([c]) => c), ...MADE.map(([c]) => c), BAD_CID];

/** The stored keys of every fixture compound, read back as `Fingerprint2D`. */
async function storedKeys(app: FastifyInstance): Promise<Map<number, Uint8Array>> {
  const r = await req(app, `${B}/compound/cid/${ALL.join(',')}/property/Fingerprint2D/JSON`);
  return new Map(properties(r).flatMap((p) => (p.Fingerprint2D === undefined ? [] : [[p.CID as number, decoded(p.Fingerprint2D as string)] as const])));
}

/** What a similarity search must answer: Tanimoto on the stored keys at least the threshold, best first, ties by CID. */
function bruteForce(stored: Map<number, Uint8Array>, q: Uint8Array, threshold: number): number[] {
  return [...stored]
    .map(([cid, keys]) => ({ cid, score: keyTanimoto(q, keys) }))
    .filter((h) => h.score + 1e-9 >= threshold / 100)
    .sort((a, b) => b.score - a.score || a.cid - b.cid)
    .map((h) => h.cid);
}

const PUBCHEMPY = missingPubchempy();
const PUBCHEMPY_SCRIPT = `
import json, sys
import pubchempy as pcp
pcp.API_BASE = sys.argv[1]
c = pcp.Compound.from_cid(2244)
made = pcp.Compound.from_cid(900003)
props = pcp.get_properties('Fingerprint2D', [2244, 900003], 'cid')
similar = pcp.get_cids(2244, 'cid', searchtype='similarity', Threshold=80)
print(json.dumps({'fingerprint': c.fingerprint, 'cactvs': c.cactvs_fingerprint, 'made': made.cactvs_fingerprint, 'props': props, 'similar': similar}))
`;

for (const target of STORES) {
  describe(`PubChem substructure keys on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    let m: ServiceModule;
    let r: RDKit;
    let dir: string;
    let loaded: LoadResult;
    const skips: [SkipPlace, string][] = [];
    beforeAll(async () => {
      r = await rdkit();
      s = await target.open();
      ({ t, m } = await pubchemApp(s));
      dir = tempDir();
      writeFileSync(join(dir, 'Compound_keys.sdf'), fixtureSdf(r));
      loaded = await runLoad(s.db, t.generations, dataset(m, 'compounds'), dir, { onSkip: (p, why) => skips.push([p, why]) });
    });
    afterAll(async () => {
      await t.close();
      await s.cleanup();
    });

    it('loads the keys of the SD tags and serves them as Fingerprint2D, as loaded', async () => {
      expect(loaded.records).toBe(ALL.length);
      const got = properties(await req(t.app, `${B}/compound/cid/2244,14550001,900003/property/Fingerprint2D/JSON`));
      expect(got).toEqual([
        { CID: 2244, Fingerprint2D: REAL_SUBSKEYS[2244] },
        { CID: 14550001, Fingerprint2D: REAL_SUBSKEYS[14550001] },
        { CID: 900003, Fingerprint2D: madeKeys(9) },
      ]);
      const csv = await req(t.app, `${B}/compound/cid/2244/property/Fingerprint2D/CSV`);
      expect(csv.raw).toBe(`"CID","Fingerprint2D"\n2244,"${REAL_SUBSKEYS[2244] as string}"\n`);
      const sdf = await req(t.app, `${B}/compound/cid/2244/SDF`);
      expect(sdf.raw).toContain(`> <PUBCHEM_CACTVS_SUBSKEYS>\n${REAL_SUBSKEYS[2244] as string}\n\n`);
      // The record's other values were computed (the fixture gives only the CID and the keys); the keys were not.
      expect(sdf.raw.slice(sdf.raw.indexOf('> <BIOMIRROR_COMPUTED>'))).not.toContain('PUBCHEM_CACTVS_SUBSKEYS');
      expect(sdf.raw.match(/PUBCHEM_CACTVS_SUBSKEYS/g)).toHaveLength(1);
    });

    it('puts the keys in the record as PubChem does, where pubchempy looks for them', async () => {
      const rec = await req(t.app, `${B}/compound/cid/2244/JSON`);
      const props = (rec.body.PC_Compounds as { props: Prop[] }[])[0]?.props ?? [];
      const fp = props.filter((p) => p.urn.implementation === 'E_SCREEN');
      expect(fp).toEqual([{ urn: { label: 'Fingerprint', name: 'SubStructure Keys', datatype: 16, parameters: 'extended 2', implementation: 'E_SCREEN' }, value: { binary: ASPIRIN_BINARY } }]);
      // In PubChem's place: after the rotatable bond count, before the IUPAC names.
      const labels = props.map((p) => `${String(p.urn.label)}/${String(p.urn.name ?? '')}`);
      expect(labels.indexOf('Fingerprint/SubStructure Keys')).toBeLessThan(labels.indexOf('InChI/Standard'));
      const xml = await req(t.app, `${B}/compound/cid/2244/XML`);
      expect(xml.raw).toContain(ASPIRIN_BINARY);
      const asnt = await req(t.app, `${B}/compound/cid/2244/ASNT`);
      expect(asnt.raw).toContain(`binary '${ASPIRIN_BINARY}'H`);
    });

    it('ranks similarity by Tanimoto on the stored keys: exactly the brute-force set at 90, 80 and 70 %, best first, ties by CID', async () => {
      const stored = await storedKeys(t.app);
      expect(stored.size).toBe(ALL.length - 1);
      for (const cid of [2244, 900003, 900005, 14550001]) {
        const q = stored.get(cid) as Uint8Array;
        for (const threshold of [90, 80, 70]) {
          const got = await req(t.app, `${B}/compound/fastsimilarity_2d/cid/${cid}/cids/JSON?Threshold=${threshold}`);
          const expected = bruteForce(stored, q, threshold);
          if (!expected.length) {
            expect(got.status).toBe(404);
            continue;
          }
          expect(got.status, `${cid} at ${threshold}`).toBe(200);
          expect(ids(got), `${cid} at ${threshold}`).toEqual(expected);
        }
      }
      // The spread the made keys were meant to give, and the tie: 900003 and 900010 share their keys.
      const aspirin = stored.get(2244) as Uint8Array;
      const at70 = bruteForce(stored, aspirin, 70);
      expect(at70.length).toBeGreaterThan(bruteForce(stored, aspirin, 90).length);
      expect(at70.indexOf(900003) + 1).toBe(at70.indexOf(900010));
      // The default threshold is 90 %; MaxRecords keeps the best.
      expect(ids(await req(t.app, `${B}/compound/fastsimilarity_2d/cid/2244/cids/JSON`))).toEqual(bruteForce(stored, aspirin, 90));
      expect(ids(await req(t.app, `${B}/compound/fastsimilarity_2d/cid/2244/cids/JSON?Threshold=70&MaxRecords=3`))).toEqual(at70.slice(0, 3));
      // By InChI of a loaded compound: its stored keys.
      const inchi = properties(await req(t.app, `${B}/compound/cid/900005/property/InChI/JSON`))[0]?.InChI as string;
      const byInchi = await req(t.app, `${B}/compound/fastsimilarity_2d/inchi/cids/JSON?Threshold=80`, {
        method: 'POST',
        payload: new URLSearchParams({ inchi }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(ids(byInchi)).toEqual(bruteForce(stored, stored.get(900005) as Uint8Array, 80));
    });

    it('reports a malformed tag with its file and record, and loads the compound without keys', async () => {
      const bad = skips.filter(([, why]) => why.includes('PUBCHEM_CACTVS_SUBSKEYS'));
      expect(bad).toHaveLength(1);
      const [place, why] = bad[0] as [SkipPlace, string];
      expect(place.file).toBe(join(dir, 'Compound_keys.sdf'));
      expect(place.position).toMatch(/^line \d+$/);
      expect(why).toBe(`CID ${BAD_CID}: PUBCHEM_CACTVS_SUBSKEYS is malformed (the key count is 880, not 881); the compound is loaded without substructure keys`);
      // The record loads: its other values, no keys property, no keys in the record, the SD record as loaded.
      expect(properties(await req(t.app, `${B}/compound/cid/${BAD_CID}/property/MolecularFormula,Fingerprint2D/JSON`))).toEqual([{ CID: BAD_CID, MolecularFormula: 'C9H9NO3' }]);
      const rec = await req(t.app, `${B}/compound/cid/${BAD_CID}/JSON`);
      expect(((rec.body.PC_Compounds as { props: Prop[] }[])[0]?.props ?? []).some((p) => p.urn.label === 'Fingerprint')).toBe(false);
      expect((await req(t.app, `${B}/compound/cid/${BAD_CID}/SDF`)).raw).toContain(`> <PUBCHEM_CACTVS_SUBSKEYS>\n${BAD_VALUE}\n`);
      // It is found by substructure (the pattern screen), never by similarity.
      expect(ids(await req(t.app, `${B}/compound/fastsubstructure/smiles/${encodeURIComponent('NC(=O)c1ccccc1')}/cids/JSON`))).toContain(BAD_CID);
      expect(ids(await req(t.app, `${B}/compound/fastsimilarity_2d/cid/2244/cids/JSON?Threshold=0&MaxRecords=100`))).not.toContain(BAD_CID);
    });

    it('answers 400 with the reason for a query whose keys cannot be had', async () => {
      const noKeys = await req(t.app, `${B}/compound/fastsimilarity_2d/cid/${BAD_CID}/cids/JSON`);
      expect(noKeys.status).toBe(400);
      expect(fault(noKeys)).toEqual({
        Code: 'PUGREST.BadRequest',
        Message: 'Invalid search',
        Details: [`CID ${BAD_CID} has no substructure keys to search with: its SD record carried no valid PUBCHEM_CACTVS_SUBSKEYS and they were not computed at load`],
      });
      // The same at a list key's address for the asynchronous form.
      const bg = await req(t.app, `${B}/compound/similarity/cid/${BAD_CID}/cids/JSON`);
      expect(bg.status).toBe(400);
      expect(fault(bg).Details?.[0]).toMatch(/no substructure keys/);
      const smiles = await req(t.app, `${B}/compound/fastsimilarity_2d/smiles/${encodeURIComponent('CC(=O)OC1=CC=CC=C1C(=O)N')}/cids/JSON`);
      // The SMILES's keys are computed and searched (finding nothing at 90 %, or something).
      expect([200, 404]).toContain(smiles.status);
    });

    it('computes the keys of a record without the tag, and marks them as computed', async () => {
      const more = tempDir();
      writeFileSync(join(more, 'Compound_plain.sdf'), record(molfile(r, 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C', '2519'), [['PUBCHEM_COMPOUND_CID', '2519']]));
      const res = await runLoad(s.db, t.generations, dataset(m, 'compounds'), more);
      expect(res.skipped).toBe(0);
      const fp = properties(await req(t.app, `${B}/compound/cid/2519/property/Fingerprint2D/JSON`))[0]?.Fingerprint2D as string;
      expect(decodeSubskeys(fp)).toBeInstanceOf(Uint8Array);
      const rec = await req(t.app, `${B}/compound/cid/2519/JSON`);
      const prop = ((rec.body.PC_Compounds as { props: Prop[] }[])[0]?.props ?? []).find((p) => p.urn.implementation === 'E_SCREEN');
      expect(prop?.urn.software).toBe('RDKit');
      expect(prop?.value.binary).toBe(subskeysHex(decoded(fp)));
      const sdf = (await req(t.app, `${B}/compound/cid/2519/SDF`)).raw;
      expect(sdf).toContain(`> <PUBCHEM_CACTVS_SUBSKEYS>\n${fp}\n`);
      expect(sdf.slice(sdf.indexOf('> <BIOMIRROR_COMPUTED>'))).toContain('PUBCHEM_CACTVS_SUBSKEYS');
      // A SMILES query of the same structure has the same keys: the compound finds itself at 100 %.
      const self = await req(t.app, `${B}/compound/fastsimilarity_2d/smiles/${encodeURIComponent('CN1C=NC2=C1C(=O)N(C(=O)N2C)C')}/cids/JSON?Threshold=100`);
      expect(self.status, self.raw).toBe(200);
      expect(ids(self)).toEqual([2519]);
      // Put the fixture back for the tests that follow.
      await runLoad(s.db, t.generations, dataset(m, 'compounds'), dir);
    });

    it("adds computed keys to an SD file's records that lack them with the service command", async () => {
      const from = join(tempDir(), 'Compound_in.sdf');
      const aspirin = record(molfile(r, REAL[0]?.[1] as string, '2244'), [
        ['PUBCHEM_COMPOUND_CID', '2244'],
        ['PUBCHEM_CACTVS_SUBSKEYS', REAL_SUBSKEYS[2244] as string],
      ]);
      const caffeine = record(molfile(r, 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C', '2519'), [
        ['PUBCHEM_COMPOUND_CID', '2519'],
        ['PUBCHEM_CACTVS_ROTATABLE_BOND', '0'],
        ['PUBCHEM_IUPAC_NAME', '1,3,7-trimethylpurine-2,6-dione'],
        ['BIOMIRROR_COMPUTED', 'PUBCHEM_CACTVS_ROTATABLE_BOND'],
      ]);
      writeFileSync(from, aspirin + caffeine);
      const outDir = tempDir();
      const said: string[] = [];
      const code = await m.commands?.subskeys?.run([from, join(outDir, 'Compound_out.sdf')], { db: s.db, generations: t.generations, log: silent }, (l) => said.push(l));
      expect(code, said.join('\n')).toBe(0);
      expect(said.at(-1)).toContain('keys computed for 1 records, 1 had PubChem');
      const [first, second] = readFileSync(join(outDir, 'Compound_out.sdf'), 'utf8').split(/(?<=\$\$\$\$\n)/);
      expect(first).toBe(aspirin);
      // In PubChem's place (after the rotatable bond count), and listed among the computed tags.
      expect(second).toMatch(/> <PUBCHEM_CACTVS_ROTATABLE_BOND>\n0\n\n> <PUBCHEM_CACTVS_SUBSKEYS>\n[A-Za-z0-9+/]{154}==\n\n> <PUBCHEM_IUPAC_NAME>/);
      expect(second).toContain('> <BIOMIRROR_COMPUTED>\nPUBCHEM_CACTVS_ROTATABLE_BOND\nPUBCHEM_CACTVS_SUBSKEYS\n\n$$$$\n');
      // Run again over its own output: computed keys are computed again in place, PubChem's kept.
      const again = join(outDir, 'Compound_again.sdf');
      expect(await m.commands?.subskeys?.run([join(outDir, 'Compound_out.sdf'), again], { db: s.db, generations: t.generations, log: silent }, (l) => said.push(l))).toBe(0);
      expect(said.at(-1)).toContain('keys computed for 1 records, 1 had PubChem');
      expect(readFileSync(again, 'utf8')).toBe(`${first as string}${second as string}`);
      const usage = await m.commands?.subskeys?.run([from], { db: s.db, generations: t.generations, log: silent }, (l) => said.push(l));
      expect(usage).toBe(2);
    });

    it.skipIf(!!PUBCHEMPY)(`is read by pubchempy: Compound.fingerprint, cactvs_fingerprint, Fingerprint2D and a similarity search${PUBCHEMPY}`, async () => {
      const script = join(tempDir(), 'keys.py');
      writeFileSync(script, PUBCHEMPY_SCRIPT);
      const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
      // No network but this machine's loopback.
      const env = { ...process.env, http_proxy: 'http://127.0.0.1:9', https_proxy: 'http://127.0.0.1:9', no_proxy: '127.0.0.1,localhost' };
      const { stdout } = await promisify(execFile)('/usr/bin/python3', [script, `${base}${B}`], { encoding: 'utf8', timeout: 30_000, env });
      const out = JSON.parse(stdout) as { fingerprint: string; cactvs: string; made: string; props: Row[]; similar: number[] };
      expect(out.fingerprint).toBe(ASPIRIN_BINARY);
      expect(out.cactvs).toHaveLength(KEY_COUNT);
      expect(out.cactvs).toBe(keyString(decoded(REAL_SUBSKEYS[2244] as string)));
      expect(out.made).toBe(keyString(decoded(madeKeys(9))));
      expect(out.props).toEqual([
        { CID: 2244, Fingerprint2D: REAL_SUBSKEYS[2244] },
        { CID: 900003, Fingerprint2D: madeKeys(9) },
      ]);
      const stored = await storedKeys(t.app);
      expect(out.similar).toEqual(bruteForce(stored, stored.get(2244) as Uint8Array, 80));
    });
  });
}

describe('a compounds generation loaded by an earlier version of biomirror (no keys kept)', () => {
  const target = STORES[0] as (typeof STORES)[number];
  let s: OpenedStore;
  let t: TestApp;
  beforeAll(async () => {
    const r = await rdkit();
    s = await target.open();
    const made = await pubchemApp(s);
    t = made.t;
    const dir = tempDir();
    writeFileSync(join(dir, 'Compound_keys.sdf'), fixtureSdf(r));
    const res = await runLoad(s.db, t.generations, dataset(made.m, 'compounds'), dir);
    // Its structures table as an earlier version laid it out: no substructure keys.
    await s.db.exec(`ALTER TABLE ${ident(`pcc_structures_g${res.gen}`)} DROP COLUMN subskeys`);
  });
  afterAll(async () => {
    await t.close();
    await s.cleanup();
  });

  it('still screens substructures, and says why similarity cannot be searched', async () => {
    expect(ids(await req(t.app, `${B}/compound/fastsubstructure/smiles/${encodeURIComponent('OC(=O)c1ccccc1')}/cids/JSON`))).toContain(2244);
    const sim = await req(t.app, `${B}/compound/fastsimilarity_2d/cid/2244/cids/JSON`);
    expect(sim.status).toBe(400);
    expect(fault(sim).Details?.[0]).toMatch(/loaded by an earlier version of biomirror, which kept none; load them again/);
  });
});
