/**
 * PubChem's 3D side: the Compound_3D conformers dataset, the 3D properties read from it exactly as
 * PubChem publishes them, `record_type=3d` records in every format, conformers computed where no
 * file covers a compound (and the switch that turns that off), and the engine's bounds.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { runLoad } from '../src/core/ingest/load.js';
import { atoms3d, conformerFromSdf, props3dFromTags, PROPERTIES_3D } from '../src/services/pubchem/chem/conformer3d.js';
import { featureLines, featuresOf } from '../src/services/pubchem/chem/features3d.js';
import { parseSdf, type SdfRecord } from '../src/services/pubchem/chem/sdf.js';
import { shapeOf } from '../src/services/pubchem/chem/shape3d.js';
import { B, dataset, demoSuite, fault, req } from './helpers/pubchem.js';
import { STORES, tempDir } from './helpers/stores.js';
import { wellFormedXml } from './helpers/tools.js';
import type { TestApp } from './helpers/app.js';

type Row = Record<string, unknown>;
interface Datum {
  urn: { label: string; name?: string; software?: string };
  value: Record<string, unknown>;
}
interface Record3d {
  id: { id: { cid: number } };
  atoms: { aid: number[]; element: number[] };
  bonds: { aid1: number[] };
  coords: { type: number[]; aid: number[]; conformers: { x: number[]; y: number[]; z: number[]; data?: Datum[] }[]; data?: Datum[] }[];
  props: { urn: { label: string; name?: string }; value: Row }[];
}

const DEMO_3D = fileURLToPath(new URL('../src/services/pubchem/demo/conformers/Compound_3D_demo.sdf.gz', import.meta.url));
const demoRecords = (): SdfRecord[] => parseSdf(gunzipSync(readFileSync(DEMO_3D)).toString('utf8')).filter((r): r is SdfRecord => typeof r !== 'string');

const props = (r: { body: Row }) => (r.body.PropertyTable as { Properties: Row[] }).Properties;
const records = (r: { body: Row }) => r.body.PC_Compounds as Record3d[];
const datum = (list: Datum[] | undefined, label: string, name: string) => list?.find((d) => d.urn.label === label && d.urn.name === name)?.value;

/** PubChem's published 3D values of aspirin (CID 2244), as its Compound_3D record carries them. */
const ASPIRIN = {
  Volume3D: 136,
  XStericQuadrupole3D: 3.86,
  YStericQuadrupole3D: 2.45,
  ZStericQuadrupole3D: 0.89,
  FeatureCount3D: 5,
  FeatureAcceptorCount3D: 3,
  FeatureDonorCount3D: 0,
  FeatureAnionCount3D: 1,
  FeatureCationCount3D: 0,
  FeatureRingCount3D: 1,
  FeatureHydrophobeCount3D: 0,
  ConformerModelRMSD3D: 0.6,
  EffectiveRotorCount3D: 3,
  ConformerCount3D: 18,
};
const INTEGER_PROPS = [
  'FeatureCount3D',
  'FeatureAcceptorCount3D',
  'FeatureDonorCount3D',
  'FeatureAnionCount3D',
  'FeatureCationCount3D',
  'FeatureRingCount3D',
  'FeatureHydrophobeCount3D',
  'ConformerCount3D',
];

describe('PubChem 3D: shape and features from PubChem conformers', () => {
  it('reads every 3D property from the tags (quadrupoles are multipoles 2 to 4, counts from the feature lines)', () => {
    const aspirin = demoRecords().find((r) => r.tags.get('PUBCHEM_COMPOUND_CID') === '2244') as SdfRecord;
    expect(props3dFromTags(aspirin.tags)).toEqual(ASPIRIN);
    expect(Object.keys(ASPIRIN).sort()).toEqual([...PROPERTIES_3D].sort());
  });

  it("reproduces PubChem's monopole and steric quadrupoles exactly from its own coordinates, and its volume within 7%", () => {
    const recs = demoRecords();
    expect(recs.length).toBeGreaterThanOrEqual(6);
    for (const r of recs) {
      const published = (r.tags.get('PUBCHEM_SHAPE_MULTIPOLES') ?? '').split('\n').map(Number);
      const atoms = atoms3d(r.molblock);
      if (typeof atoms === 'string') throw new Error(atoms);
      const s = shapeOf(atoms);
      const cid = r.tags.get('PUBCHEM_COMPOUND_CID');
      expect([s?.monopole, ...(s?.quadrupoles ?? [])], `CID ${cid}`).toEqual(published.slice(0, 4));
      const volume = Number(r.tags.get('PUBCHEM_SHAPE_VOLUME'));
      expect(Math.abs((s?.volume ?? 0) - volume) / volume, `CID ${cid} volume ${s?.volume} vs ${volume}`).toBeLessThan(0.07);
    }
  });

  it("assigns PubChem's pharmacophore features, line for line, on its conformers", () => {
    for (const r of demoRecords()) {
      const f = featuresOf(r.molblock);
      expect(f && featureLines(f), `CID ${r.tags.get('PUBCHEM_COMPOUND_CID')}`).toBe(r.tags.get('PUBCHEM_PHARMACOPHORE_FEATURES'));
    }
  });

  it('refuses a 2D record as a conformer, and leaves out values the tags lack', () => {
    const flat = parseSdf(
      '1\n  test\n\n  2  1  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 C   0  0\n    1.5000    0.0000    0.0000 O   0  0\n  1  2  1  0\nM  END\n$$$$\n',
    )[0] as SdfRecord;
    expect(conformerFromSdf(1, flat)).toMatch(/2D coordinates only/);
    expect(props3dFromTags(new Map([['PUBCHEM_SHAPE_VOLUME', 'n/a']]))).toEqual({});
  });
});

for (const target of STORES) {
  describe(`PubChem 3D on ${target.name}: loaded Compound_3D records`, () => {
    const suite = demoSuite(target);
    let t: TestApp;
    beforeAll(() => {
      t = suite.t;
    });

    it('answers every 3D property as published, with PubChem JSON types, and no computed-values header', async () => {
      const r = await req(t.app, `${B}/compound/cid/2244/property/${PROPERTIES_3D.join(',')}/JSON`);
      expect(r.status).toBe(200);
      const [p] = props(r) as [Row];
      expect(p).toEqual({ CID: 2244, ...ASPIRIN });
      for (const k of INTEGER_PROPS) expect(Number.isInteger(p[k]), k).toBe(true);
      expect(r.headers['x-biomirror-computed-3d']).toBeUndefined();
    });

    it('answers 3D properties as CSV, TXT and XML', async () => {
      const csv = await req(t.app, `${B}/compound/cid/2244,2519/property/Volume3D,XStericQuadrupole3D,FeatureRingCount3D/CSV`);
      expect(csv.raw.trim().split('\n')).toEqual(['"CID","Volume3D","XStericQuadrupole3D","FeatureRingCount3D"', '2244,136,3.86,1', '2519,143.9,4.01,2']);
      const txt = await req(t.app, `${B}/compound/cid/241/property/Volume3D/TXT`);
      expect(txt.raw.trim()).toBe('67.5');
      const xml = await req(t.app, `${B}/compound/cid/795/property/FeatureCationCount3D,ZStericQuadrupole3D/XML`);
      expect(wellFormedXml(xml.raw)).toBe('');
      expect(xml.raw).toContain('<FeatureCationCount3D>1</FeatureCationCount3D>');
      expect(xml.raw).toContain('<ZStericQuadrupole3D>0.58</ZStericQuadrupole3D>');
    });

    it("answers record_type=3d JSON: the 3D atoms and coordinates, conformer data, and the 2D record's properties", async () => {
      const r = await req(t.app, `${B}/compound/cid/2244/record/JSON?record_type=3d`);
      expect(r.status).toBe(200);
      const [c] = records(r) as [Record3d];
      expect(c.id.id.cid).toBe(2244);
      // PubChem's 3D files list the oxygens first.
      expect(c.atoms.element.slice(0, 5)).toEqual([8, 8, 8, 8, 6]);
      expect(c.atoms.aid).toHaveLength(21);
      const coords = c.coords[0] as Record3d['coords'][0];
      expect(coords.type).toEqual([2, 5, 10]);
      const conf = coords.conformers[0] as Record3d['coords'][0]['conformers'][0];
      expect(conf.z).toHaveLength(21);
      expect([conf.x[0], conf.y[0], conf.z[0]]).toEqual([1.2333, 0.554, 0.7792]);
      expect(datum(conf.data, 'Conformer', 'ID')).toEqual({ sval: '000008C400000001' });
      expect(datum(conf.data, 'Shape', 'Volume')).toEqual({ fval: 136 });
      expect((datum(conf.data, 'Shape', 'Multipoles')?.fvec as number[]).slice(0, 4)).toEqual([244.06, 3.86, 2.45, 0.89]);
      expect(datum(coords.data, 'Conformer', 'RMSD')).toEqual({ fval: 0.6 });
      // Where pubchempy's Compound reads its *_3d attributes (conformer data, coordinate data, props).
      expect(datum(conf.data, 'Feature', 'Self Overlap')).toEqual({ fval: 25.432 });
      expect(datum(conf.data, 'Energy', 'MMFF94 NoEstat')).toEqual({ fval: 39.5952 });
      expect((datum(conf.data, 'Fingerprint', 'Shape')?.slist as string[])[0]).toBe('1 1 18265615372930943622');
      expect(datum(c.props as Datum[], 'Count', 'Effective Rotor')).toEqual({ fval: 3 });
      expect(datum(c.props as Datum[], 'Features', 'Pharmacophore')).toEqual({ slist: ['5', '1 2 acceptor', '1 3 acceptor', '1 4 acceptor', '3 2 3 11 anion', '6 5 6 7 8 9 10 rings'] });
      expect((datum(c.props as Datum[], 'Charge', 'MMFF94 Partial')?.slist as string[])[0]).toBe('18');
      expect(c.props.find((p) => p.urn.label === 'InChIKey')?.value.sval).toBe('BSYNRYMUTXBXSQ-UHFFFAOYSA-N');
      const two = records(await req(t.app, `${B}/compound/cid/2244/record/JSON`))[0] as Record3d;
      expect(two.coords[0]?.type).toEqual([1, 5, 255]);
    });

    it("answers record_type=3d as SDF (PubChem's record as loaded), XML and ASN.1 text", async () => {
      const sdf = await req(t.app, `${B}/compound/cid/2519,2244/SDF?record_type=3d`);
      expect(sdf.status).toBe(200);
      expect(sdf.raw.startsWith('2519\n  -OEChem-07012107543D')).toBe(true);
      expect(sdf.raw.match(/\$\$\$\$/g)).toHaveLength(2);
      expect(sdf.raw).toContain('> <PUBCHEM_SHAPE_VOLUME>\n136\n');
      const xml = await req(t.app, `${B}/compound/cid/241/XML?record_type=3d`);
      expect(wellFormedXml(xml.raw)).toBe('');
      expect(xml.raw).toContain('<PC-Conformer_z>');
      expect(xml.raw).toContain('<PC-CoordinateType value="threed">2</PC-CoordinateType>');
      expect(xml.raw).toContain('<PC-InfoData_value_sval>000000F100000001</PC-InfoData_value_sval>');
      const asnt = await req(t.app, `${B}/compound/cid/241/ASNT?record_type=3d`);
      expect(asnt.status).toBe(200);
      expect(asnt.raw).toMatch(/z \{/);
      const asnb = await req(t.app, `${B}/compound/cid/241/ASNB?record_type=3d`);
      expect(asnb.status).toBe(200);
      expect(asnb.headers['content-type']).toBe('application/ber-encoded');
      expect(asnb.rawPayload.length).toBeGreaterThan(100);
      const jsonp = await req(t.app, `${B}/compound/cid/241/JSONP?record_type=3d&callback=got`);
      expect(jsonp.raw.startsWith('got(')).toBe(true);
      expect(jsonp.raw).toContain('"z": [');
    });

    it('lists conformer ids, and answers 3D PNG and 3D similarity with 501', async () => {
      const c = await req(t.app, `${B}/compound/cid/2244,2519/conformers/JSON`);
      expect(c.body).toEqual({
        InformationList: {
          Information: [
            { CID: 2244, ConformerID: ['000008C400000001'] },
            { CID: 2519, ConformerID: ['000009D700000001'] },
          ],
        },
      });
      expect((await req(t.app, `${B}/compound/cid/702/conformers/JSON`)).status).toBe(404);
      const png = await req(t.app, `${B}/compound/cid/2244/PNG?record_type=3d`);
      expect(png.status).toBe(501);
      expect(fault(png).Code).toBe('PUGREST.Unimplemented');
      expect((await req(t.app, `${B}/compound/fastsimilarity_3d/cid/2244/cids/JSON`)).status).toBe(501);
      expect((await req(t.app, `${B}/compound/cid/2244/JSON?record_type=4d`)).status).toBe(400);
    });

    it('answers the conformers domain by conformer id: SDF as loaded, the 3D record as JSON and XML', async () => {
      const sdf = await req(t.app, `${B}/conformers/000008C400000001/SDF`);
      expect(sdf.status).toBe(200);
      expect(sdf.raw.startsWith('2244\n  -OEChem-07012107583D')).toBe(true);
      const json = await req(t.app, `${B}/conformers/000009d700000001,000000F100000001/JSON`);
      expect(records(json).map((c) => c.id.id.cid)).toEqual([2519, 241]);
      expect(records(json)[0]?.coords[0]?.conformers[0]?.z).toHaveLength(24);
      const xml = await req(t.app, `${B}/conformers/000000DE00000001/XML`);
      expect(wellFormedXml(xml.raw)).toBe('');
      expect((await req(t.app, `${B}/conformers/00000000DEADBEEF/SDF`)).status).toBe(404);
      const bad = await req(t.app, `${B}/conformers/2244/SDF`);
      expect(bad.status).toBe(400);
      expect(fault(bad).Details?.[0]).toMatch(/16 hexadecimal digits/);
      expect((await req(t.app, `${B}/conformers/000008C400000001/PNG`)).status).toBe(400);
    });

    it('computes a conformer for a compound no file covers, marked as computed in every answer', async () => {
      const r = await req(t.app, `${B}/compound/cid/702,2244/property/${PROPERTIES_3D.join(',')}/JSON`);
      expect(r.status).toBe(200);
      const [ethanol, aspirin] = props(r) as [Row, Row];
      expect(aspirin).toEqual({ CID: 2244, ...ASPIRIN });
      expect(r.headers['x-biomirror-computed-3d']).toBe('702');
      // Ethanol: 3 heavy atoms (2 C, 1 O); one acceptor and one donor (the OH).
      expect(ethanol.FeatureAcceptorCount3D).toBe(1);
      expect(ethanol.FeatureDonorCount3D).toBe(1);
      expect(ethanol.Volume3D as number).toBeGreaterThan(35);
      expect(ethanol.Volume3D as number).toBeLessThan(60);
      expect(ethanol.XStericQuadrupole3D as number).toBeGreaterThanOrEqual(ethanol.YStericQuadrupole3D as number);
      // The conformer-model values describe PubChem's model: never computed.
      expect(ethanol).not.toHaveProperty('ConformerModelRMSD3D');
      expect(ethanol).not.toHaveProperty('ConformerCount3D');
      const sdf = await req(t.app, `${B}/compound/cid/702/SDF?record_type=3d`);
      expect(sdf.raw.split('\n').slice(0, 2)).toEqual(['702', '  biomirror OpenChemLib 3D (generated)']);
      expect(sdf.raw).toContain('> <BIOMIRROR_COMPUTED>');
      const rec = records(await req(t.app, `${B}/compound/cid/702/JSON?record_type=3d`))[0] as Record3d;
      expect(rec.atoms.aid).toHaveLength(9);
      const conf = rec.coords[0]?.conformers[0];
      expect(conf?.z.some((z) => z !== 0)).toBe(true);
      expect(conf?.data?.find((d) => d.urn.name === 'Volume')?.urn.software).toBe('OpenChemLib');
    });

    it('leaves 3D values out for compounds PubChem3D does not model (other elements, several covalent units)', async () => {
      const r = await req(t.app, `${B}/compound/cid/5460033,5234,2244/property/Volume3D/JSON`);
      expect(props(r)).toEqual([{ CID: 5460033 }, { CID: 5234 }, { CID: 2244, Volume3D: 136 }]);
      const rec = await req(t.app, `${B}/compound/cid/5234/SDF?record_type=3d`);
      expect(rec.status).toBe(404);
      expect(fault(rec).Code).toBe('PUGREST.NotFound');
    });
  });

  describe(`PubChem 3D on ${target.name}: no Compound_3D file loaded`, () => {
    // A generous budget: the machine running the tests may be busy, and this measures accuracy, not speed.
    const suite = demoSuite(target, { conformerMs: 120_000, conformerRequestMs: 600_000 }, ['compounds']);

    it("computes conformers close to PubChem's on the compounds whose values are known", async () => {
      const cids = demoRecords().map((r) => Number(r.tags.get('PUBCHEM_COMPOUND_CID')));
      const r = await req(suite.t.app, `${B}/compound/cid/${cids.join(',')}/property/${PROPERTIES_3D.join(',')}/JSON`);
      expect(r.status).toBe(200);
      expect(String(r.headers['x-biomirror-computed-3d']).split(',').map(Number).sort()).toEqual([...cids].sort());
      const rows = props(r);
      for (const rec of demoRecords()) {
        const cid = Number(rec.tags.get('PUBCHEM_COMPOUND_CID'));
        const real = props3dFromTags(rec.tags);
        const ours = rows.find((p) => p.CID === cid) as Row;
        expect(Math.abs((ours.Volume3D as number) - (real.Volume3D as number)) / (real.Volume3D as number), `CID ${cid} volume`).toBeLessThan(0.08);
        for (const k of ['XStericQuadrupole3D', 'YStericQuadrupole3D', 'ZStericQuadrupole3D']) expect(Math.abs((ours[k] as number) - (real[k] as number)), `CID ${cid} ${k}`).toBeLessThan(0.25);
        for (const k of INTEGER_PROPS.filter((p) => p !== 'ConformerCount3D')) expect(ours[k], `CID ${cid} ${k}`).toBe(real[k]);
      }
    });
  });

  describe(`PubChem 3D on ${target.name}: computing switched off`, () => {
    const suite = demoSuite(target, { compute3d: false });

    it('serves loaded conformers only: others have no 3D values and no 3D record', async () => {
      const r = await req(suite.t.app, `${B}/compound/cid/702,241/property/Volume3D,FeatureCount3D/JSON`);
      expect(props(r)).toEqual([{ CID: 702 }, { CID: 241, Volume3D: 67.5, FeatureCount3D: 1 }]);
      expect(r.headers['x-biomirror-computed-3d']).toBeUndefined();
      const rec = await req(suite.t.app, `${B}/compound/cid/702/JSON?record_type=3d`);
      expect(rec.status).toBe(404);
      expect(fault(rec).Message).toBe('No records found for the given CID(s)');
      expect((await req(suite.t.app, `${B}/compound/cid/702,241/SDF?record_type=3d`)).raw.startsWith('241\n')).toBe(true);
    });
  });

  describe(`PubChem 3D on ${target.name}: engine bounds and ingest`, () => {
    const suite = demoSuite(target, { conformerMs: 1 }, ['compounds']);

    it('ends a conformer past its time budget (the compound gets no 3D values) and keeps serving', async () => {
      const r = await req(suite.t.app, `${B}/compound/cid/5997/property/Volume3D,MolecularFormula/JSON`);
      expect(r.status).toBe(200);
      expect(props(r)).toEqual([{ CID: 5997, MolecularFormula: 'C27H46O' }]);
      const again = await req(suite.t.app, `${B}/compound/cid/2244/property/MolecularWeight/JSON`);
      expect(props(again)).toEqual([{ CID: 2244, MolecularWeight: '180.16' }]);
    });

    it('loads Compound_3D files, skipping records that are not conformers with the reason', async () => {
      const dir = tempDir();
      const recs = demoRecords();
      const text = gunzipSync(readFileSync(DEMO_3D)).toString('utf8');
      const flat = '9999\n  test\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 C   0  0\nM  END\n$$$$\n';
      writeFileSync(join(dir, '00000001_00025000.sdf'), text + flat.replace('9999', 'x') + 'not a molfile\n$$$$\n');
      const res = await runLoad(suite.s.db, suite.t.generations, dataset(suite.m, 'conformers'), dir);
      expect(res.records).toBe(recs.length);
      expect(res.skipped).toBe(2);
    });
  });
}
