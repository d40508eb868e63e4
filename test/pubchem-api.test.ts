import { beforeAll, describe, expect, it } from 'vitest';
import { B, fault, post, req, demoSuite } from './helpers/pubchem.js';
import { STORES } from './helpers/stores.js';
import { wellFormedXml } from './helpers/tools.js';
import type { TestApp } from './helpers/app.js';

type Row = Record<string, unknown>;
interface PcCompound {
  id: { id?: { cid: number } };
  atoms: { aid: number[]; element: number[] };
  bonds: { aid1: number[]; aid2: number[] };
  coords: { type: number[]; conformers: { x: number[] }[] }[];
  charge: number;
  props: { urn: Row; value: Row }[];
  count: Row;
}
interface PcSubstance {
  sid: { id: number };
  source: { db: { name: string } };
  compound: { id: { type: number; id?: { cid: number } } }[];
}
const props = (r: { body: Row }) => (r.body.PropertyTable as { Properties: Row[] }).Properties;
const ids = (r: { body: Row }, k = 'CID') => (r.body.IdentifierList as Record<string, number[]>)[k];
const info = (r: { body: Row }) => (r.body.InformationList as { Information: Row[] }).Information;

/** The document must be well-formed XML (xmllint's verdict, or a strict parser's where it is missing). */
function wellFormed(xml: string): void {
  expect(wellFormedXml(xml)).toBe('');
}

const SPEC_PROPERTIES = [
  'MolecularFormula',
  'MolecularWeight',
  'CanonicalSMILES',
  'IsomericSMILES',
  'InChI',
  'InChIKey',
  'IUPACName',
  'XLogP',
  'ExactMass',
  'MonoisotopicMass',
  'TPSA',
  'Complexity',
  'Charge',
  'HBondDonorCount',
  'HBondAcceptorCount',
  'RotatableBondCount',
  'HeavyAtomCount',
  'IsotopeAtomCount',
  'AtomStereoCount',
  'BondStereoCount',
  'CovalentUnitCount',
  'Volume3D',
  'XStericQuadrupole3D',
  'YStericQuadrupole3D',
  'ZStericQuadrupole3D',
  'FeatureCount3D',
];

for (const target of STORES) {
  describe(`PubChem PUG REST on ${target.name}`, () => {
    const suite = demoSuite(target);
    let t: TestApp;
    beforeAll(() => {
      t = suite.t;
    });

    describe('compound properties', () => {
      it('answers all 26 properties of the spec with PubChem types (strings for weight and masses)', async () => {
        const r = await req(t.app, `${B}/compound/cid/2244/property/${SPEC_PROPERTIES.join(',')}/JSON`);
        expect(r.status).toBe(200);
        expect(r.headers['content-type']).toMatch(/^application\/json/);
        const [p] = props(r) as [Row];
        expect(p.CID).toBe(2244);
        expect(p.MolecularFormula).toBe('C9H8O4');
        expect(p.MolecularWeight).toBe('180.16');
        expect(p.ExactMass).toBe('180.04225873');
        expect(p.MonoisotopicMass).toBe('180.04225873');
        expect(p.InChIKey).toBe('BSYNRYMUTXBXSQ-UHFFFAOYSA-N');
        expect(p.InChI).toBe('InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)');
        expect(p.CanonicalSMILES).toBe('CC(=O)OC1=CC=CC=C1C(=O)O');
        expect(p.IsomericSMILES).toBe('CC(=O)OC1=CC=CC=C1C(=O)O');
        expect(p.IUPACName).toBe('2-acetyloxybenzoic acid');
        for (const k of ['Charge', 'HBondDonorCount', 'HBondAcceptorCount', 'RotatableBondCount', 'HeavyAtomCount', 'IsotopeAtomCount', 'AtomStereoCount', 'BondStereoCount', 'CovalentUnitCount']) {
          expect(Number.isInteger(p[k]), k).toBe(true);
        }
        expect([p.HBondDonorCount, p.HBondAcceptorCount, p.RotatableBondCount, p.HeavyAtomCount, p.CovalentUnitCount]).toEqual([1, 4, 3, 13, 1]);
        expect(typeof p.XLogP).toBe('number');
        expect(p.TPSA).toBe(63.6);
        expect(typeof p.Complexity).toBe('number');
        // 3D properties come from the loaded Compound_3D record, as PubChem publishes them.
        expect([p.Volume3D, p.XStericQuadrupole3D, p.YStericQuadrupole3D, p.ZStericQuadrupole3D, p.FeatureCount3D]).toEqual([136, 3.86, 2.45, 0.89, 5]);
      });

      it('keeps the order of the request, answers the newer SMILES names, Title, and any case', async () => {
        const r = await req(t.app, `${B}/compound/cid/2519,1983/property/inchikey,SMILES,ConnectivitySMILES,Title,molecularweight/JSON`);
        expect(r.status).toBe(200);
        expect(props(r).map((p) => Object.keys(p))).toEqual([
          ['CID', 'InChIKey', 'SMILES', 'ConnectivitySMILES', 'Title', 'MolecularWeight'],
          ['CID', 'InChIKey', 'SMILES', 'ConnectivitySMILES', 'Title', 'MolecularWeight'],
        ]);
        expect(props(r).map((p) => [p.CID, p.Title, p.InChIKey, p.MolecularWeight])).toEqual([
          [2519, 'Caffeine', 'RYYVLZVUVIJVGH-UHFFFAOYSA-N', '194.19'],
          [1983, 'Acetaminophen', 'RZVAJINKPMORJF-UHFFFAOYSA-N', '151.16'],
        ]);
      });

      it('distinguishes isomeric from connectivity SMILES on a stereo compound', async () => {
        const r = await req(t.app, `${B}/compound/cid/5950/property/IsomericSMILES,CanonicalSMILES,AtomStereoCount,DefinedAtomStereoCount,UndefinedAtomStereoCount/JSON`);
        const [p] = props(r) as [Row];
        expect(String(p.IsomericSMILES)).toContain('@');
        expect(String(p.CanonicalSMILES)).not.toContain('@');
        expect([p.AtomStereoCount, p.DefinedAtomStereoCount, p.UndefinedAtomStereoCount]).toEqual([1, 1, 0]);
      });

      it('writes CSV with quoted strings and bare numbers, and TXT for one property', async () => {
        const csv = await req(t.app, `${B}/compound/cid/2244,2519/property/MolecularFormula,MolecularWeight,HeavyAtomCount/CSV`);
        expect(csv.headers['content-type']).toMatch(/^text\/csv/);
        expect(csv.raw.trim().split('\n')).toEqual(['"CID","MolecularFormula","MolecularWeight","HeavyAtomCount"', '2244,"C9H8O4","180.16",13', '2519,"C8H10N4O2","194.19",14']);
        const txt = await req(t.app, `${B}/compound/name/caffeine/property/InChIKey/TXT`);
        expect(txt.headers['content-type']).toMatch(/^text\/plain/);
        expect(txt.raw).toBe('RYYVLZVUVIJVGH-UHFFFAOYSA-N\n');
        const two = await req(t.app, `${B}/compound/cid/2244/property/InChIKey,MolecularWeight/TXT`);
        expect(two.status).toBe(400);
        expect(fault(two).Code).toBe('PUGREST.BadRequest');
      });

      it('writes XML and JSONP', async () => {
        const x = await req(t.app, `${B}/compound/cid/2244/property/MolecularWeight,InChIKey/XML`);
        expect(x.headers['content-type']).toMatch(/^application\/xml/);
        expect(x.raw).toContain('<PropertyTable');
        expect(x.raw).toContain('xmlns="http://pubchem.ncbi.nlm.nih.gov/pug_rest"');
        expect(x.raw).toMatch(/<Properties>\s*<CID>2244<\/CID>\s*<MolecularWeight>180.16<\/MolecularWeight>\s*<InChIKey>BSYNRYMUTXBXSQ-UHFFFAOYSA-N<\/InChIKey>\s*<\/Properties>/);
        wellFormed(x.raw);
        const p = await req(t.app, `${B}/compound/cid/2244/property/MolecularWeight/JSONP?callback=got`);
        expect(p.headers['content-type']).toMatch(/^application\/javascript/);
        expect(p.raw.startsWith('got({')).toBe(true);
        expect(JSON.parse(p.raw.slice(4, p.raw.lastIndexOf(')')))).toEqual({ PropertyTable: { Properties: [{ CID: 2244, MolecularWeight: '180.16' }] } });
        expect((await req(t.app, `${B}/compound/cid/2244/property/MolecularWeight/JSONP?callback=alert(1)`)).status).toBe(400);
      });

      it('refuses unknown properties, an empty list and outputs a property table has not', async () => {
        for (const [url, code] of [
          [`${B}/compound/cid/2244/property/MolecularWeight,Colour/JSON`, 400],
          [`${B}/compound/cid/2244/property//JSON`, 400],
          [`${B}/compound/cid/2244/property/MolecularWeight/SDF`, 400],
          [`${B}/compound/cid/2244/property/MolecularWeight/PNG`, 400],
        ] as const) {
          const r = await req(t.app, url);
          expect(r.status, url).toBe(code);
          expect(fault(r).Code, url).toBe('PUGREST.BadRequest');
        }
        const r = await req(t.app, `${B}/compound/cid/2244/property/MolecularWeight,Colour/JSON`);
        expect(fault(r).Message).toBe('Invalid property');
        expect(fault(r).Details?.[0]).toContain('Colour');
      });
    });

    describe('inputs', () => {
      it('finds compounds by name (any case), SMILES, InChI, InChIKey, formula and mass', async () => {
        expect(ids(await req(t.app, `${B}/compound/name/ACETYLSALICYLIC%20ACID/cids/JSON`))).toEqual([2244]);
        expect(ids(await req(t.app, `${B}/compound/smiles/${encodeURIComponent('O=C(O)c1ccccc1OC(C)=O')}/cids/JSON`))).toEqual([2244]);
        expect(ids(await req(t.app, `${B}/compound/inchi/cids/JSON?inchi=${encodeURIComponent('InChI=1S/C8H10N4O2/c1-10-4-9-6-5(10)7(13)12(3)8(14)11(6)2/h4H,1-3H3')}`))).toEqual([2519]);
        expect(ids(await req(t.app, `${B}/compound/inchikey/BSYNRYMUTXBXSQ-UHFFFAOYSA-N,RYYVLZVUVIJVGH-UHFFFAOYSA-N/cids/JSON`))).toEqual([2244, 2519]);
        expect(ids(await req(t.app, `${B}/compound/fastformula/C9H8O4/cids/JSON`))).toEqual([2244]);
        expect(ids(await req(t.app, `${B}/compound/molecular_weight/range/180.1/180.2/cids/JSON`))).toContain(2244);
        expect(ids(await req(t.app, `${B}/compound/exact_mass/equals/180.04225873/cids/JSON`))).toEqual([2244]);
      });

      it('reads identifiers from a POST form body, as pubchempy sends them, and from the query string', async () => {
        const byName = await post(t.app, `${B}/compound/name/cids/JSON`, { name: 'paracetamol' });
        expect(byName.status).toBe(200);
        expect(ids(byName)).toEqual([1983]);
        const bySmiles = await post(t.app, `${B}/compound/smiles/property/MolecularFormula/JSON`, { smiles: 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C' });
        expect(props(bySmiles)).toEqual([{ CID: 2519, MolecularFormula: 'C8H10N4O2' }]);
        const byCids = await post(t.app, `${B}/compound/cid/property/MolecularFormula/CSV`, { cid: '2244,2519,3672' });
        expect(byCids.raw.trim().split('\n')).toHaveLength(4);
        const viaQuery = await req(t.app, `${B}/compound/cid/property/MolecularFormula/JSON?cid=3672`);
        expect(props(viaQuery)).toEqual([{ CID: 3672, MolecularFormula: 'C13H18O2' }]);
        const viaJson = await req(t.app, `${B}/compound/name/cids/JSON`, { method: 'POST', payload: { name: 'ibuprofen' } });
        expect(ids(viaJson)).toEqual([3672]);
        const multipart = await req(t.app, `${B}/compound/name/cids/JSON`, {
          method: 'POST',
          payload: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\naspirin\r\n--x--\r\n',
          headers: { 'content-type': 'multipart/form-data; boundary=x' },
        });
        expect(multipart.status).toBe(400);
        expect(fault(multipart).Code).toBe('PUGREST.BadRequest');
        const head = await req(t.app, `${B}/compound/cid/2244/property/MolecularWeight/JSON`, { method: 'HEAD' });
        expect(head.status).toBe(200);
      });

      it('answers a non-fast search that finishes within the budget with a list key that is ready at once', async () => {
        const r = await req(t.app, `${B}/compound/similarity/cid/2244/cids/JSON`);
        expect(r.status).toBe(202);
        const key = (r.body.Waiting as { ListKey: string }).ListKey;
        expect(ids(await req(t.app, `${B}/compound/listkey/${key}/cids/JSON`))).toEqual([2244]);
      });

      it('answers CID 0 and a computed record for a valid SMILES that is not in the database', async () => {
        const smiles = encodeURIComponent('CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCN');
        expect(ids(await req(t.app, `${B}/compound/smiles/${smiles}/cids/JSON`))).toEqual([0]);
        const rec = await req(t.app, `${B}/compound/smiles/${smiles}/JSON`);
        expect(rec.status).toBe(200);
        const c = (rec.body.PC_Compounds as Row[])[0] as { id: Row; props: { urn: Row; value: Row }[] };
        expect(c.id).toEqual({});
        expect(c.props.find((p) => p.urn.label === 'Molecular Formula')?.value).toEqual({ sval: 'C30H63N' });
        const png = await req(t.app, `${B}/compound/smiles/${smiles}/PNG`);
        expect(png.headers['content-type']).toBe('image/png');
        expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
        const p = await req(t.app, `${B}/compound/smiles/${smiles}/property/MolecularWeight/JSON`);
        expect(p.status).toBe(404);
      });

      it('answers 404 with PubChem messages for what is not there', async () => {
        const name = await req(t.app, `${B}/compound/name/unobtainium/cids/JSON`);
        expect(name.status).toBe(404);
        expect(name.body).toEqual({ Fault: { Code: 'PUGREST.NotFound', Message: 'No CID found', Details: ['No CID found that matches the given name'] } });
        const key = await req(t.app, `${B}/compound/inchikey/AAAAAAAAAAAAAA-BBBBBBBBBB-N/cids/JSON`);
        expect(fault(key).Details).toEqual(['No CID found that matches the given InChI key']);
        const cid = await req(t.app, `${B}/compound/cid/999999999/property/MolecularWeight/JSON`);
        expect(cid.status).toBe(404);
        expect(fault(cid).Message).toBe('No records found for the given CID(s)');
      });

      it('answers 400 naming the bad input', async () => {
        const cases: [string, string][] = [
          [`${B}/compound/cid/2244x/JSON`, '2244x'],
          [`${B}/compound/cid/0/JSON`, '"0"'],
          [`${B}/compound/smiles/${encodeURIComponent('C1CC(')}/cids/JSON`, 'C1CC('],
          [`${B}/compound/inchi/cids/JSON?inchi=InChI%3Dnonsense`, 'InChI=nonsense'],
          [`${B}/compound/inchikey/not-a-key/cids/JSON`, 'not-a-key'],
          [`${B}/compound/fastformula/c9h8o4/cids/JSON`, 'c9h8o4'],
          [`${B}/compound/molecular_weight/range/abc/cids/JSON`, 'molecular_weight'],
          [`${B}/compound/colour/red/JSON`, 'colour'],
          [`${B}/compound/cid/2244/flavour/JSON`, 'flavour'],
          [`${B}/molecule/cid/2244/JSON`, 'molecule'],
          [`${B}/compound/cid/2244/property/MolecularWeight/JSON/extra`, 'extra'],
          [`${B}/compound/name`, 'name'],
          [`${B}/compound/cid/2244/synonyms/CSV`, 'CSV'],
          [`${B}/compound/cid/2244/PNG?image_size=huge`, 'huge'],
          [`${B}/compound/cid/2244/sids/JSON?list_return=pile`, 'pile'],
        ];
        for (const [url, named] of cases) {
          const r = await req(t.app, url);
          expect(r.status, url).toBe(400);
          expect(fault(r).Code, url).toBe('PUGREST.BadRequest');
          expect([fault(r).Message, ...(fault(r).Details ?? [])].join(' '), url).toContain(named);
        }
      });

      it('answers 501 for what PubChem has and this mirror does not serve, 405 for other methods', async () => {
        for (const url of [
          `${B}/gene/geneid/1956/summary/JSON`,
          `${B}/compound/cid/2244/xrefs/PubMedID/JSON`,
          `${B}/assay/aid/9000001/description/ASNT`,
          `${B}/compound/xref/PatentID/US-636000-A/cids/JSON`,
          `${B}/compound/name/aspirin/cids/JSON?name_type=word`,
        ]) {
          const r = await req(t.app, url);
          expect(r.status, url).toBe(501);
          expect(fault(r).Code).toBe('PUGREST.Unimplemented');
        }
        const del = await req(t.app, `${B}/compound/cid/2244/JSON`, { method: 'DELETE' });
        expect(del.status).toBe(405);
        expect(fault(del).Code).toBe('PUGREST.NotAllowed');
      });

      it('takes the output from the Accept header when the path has none', async () => {
        const j = await req(t.app, `${B}/compound/cid/2244/property/MolecularFormula`, { headers: { accept: 'application/json' } });
        expect(props(j)).toEqual([{ CID: 2244, MolecularFormula: 'C9H8O4' }]);
        const sdf = await req(t.app, `${B}/compound/cid/2244`, { headers: { accept: 'chemical/x-mdl-sdfile' } });
        expect(sdf.headers['content-type']).toMatch(/^chemical\/x-mdl-sdfile/);
        expect(sdf.raw).toContain('$$$$');
        const bad = await req(t.app, `${B}/compound/cid/2244`, { headers: { accept: 'video/mp4' } });
        expect(bad.status).toBe(405);
      });
    });

    describe('records', () => {
      it('serves the full record as PC_Compounds JSON in PubChem’s shape', async () => {
        const r = await req(t.app, `${B}/compound/cid/2244/JSON`);
        const [c] = r.body.PC_Compounds as [PcCompound];
        expect(c.id).toEqual({ id: { cid: 2244 } });
        expect(c.atoms.aid).toHaveLength(21);
        expect(c.atoms.element.filter((e) => e === 8)).toHaveLength(4);
        expect(c.bonds.aid1).toHaveLength(c.bonds.aid2.length);
        expect(c.coords[0]?.type).toEqual([1, 5, 255]);
        expect(c.coords[0]?.conformers[0]?.x).toHaveLength(21);
        expect(c.charge).toBe(0);
        const label = (l: string, n?: string) => c.props.find((p) => p.urn.label === l && (n === undefined || p.urn.name === n))?.value;
        expect(label('Molecular Weight')).toEqual({ fval: 180.16 });
        expect(label('InChIKey', 'Standard')).toEqual({ sval: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N' });
        expect(label('IUPAC Name', 'Preferred')).toEqual({ sval: '2-acetyloxybenzoic acid' });
        expect(c.count).toMatchObject({ heavy_atom: 13, atom_chiral: 0, covalent_unit: 1, tautomers: -1 });
        const two = await req(t.app, `${B}/compound/cid/2244,2519/record/JSON`);
        expect((two.body.PC_Compounds as PcCompound[]).map((x) => x.id.id?.cid)).toEqual([2244, 2519]);
      });

      it('serves the record as ASN.1-style XML, SD file and PNG depictions of the asked size', async () => {
        const x = await req(t.app, `${B}/compound/cid/2244/XML`);
        expect(x.raw).toContain('<PC-CompoundType_id_cid>2244</PC-CompoundType_id_cid>');
        expect(x.raw).toContain('<PC-Element value="o">8</PC-Element>');
        expect(x.raw).toContain('<PC-Count_heavy-atom>13</PC-Count_heavy-atom>');
        wellFormed(x.raw);
        for (const path of ['SDF', 'record/SDF']) {
          const sdf = await req(t.app, `${B}/compound/cid/2244/${path}`);
          expect(sdf.raw.split('\n')[0]).toBe('2244');
          expect(sdf.raw).toContain('> <PUBCHEM_COMPOUND_CID>\n2244');
          expect(sdf.raw).toContain('> <PUBCHEM_IUPAC_INCHIKEY>\nBSYNRYMUTXBXSQ-UHFFFAOYSA-N');
          expect(sdf.raw.trimEnd().endsWith('$$$$')).toBe(true);
        }
        const sizes: [string, number, number][] = [
          ['', 300, 300],
          ['?image_size=small', 100, 100],
          ['?image_size=large', 300, 300],
          ['?image_size=320x240', 320, 240],
        ];
        for (const [q, w, h] of sizes) {
          const png = await req(t.app, `${B}/compound/name/caffeine/PNG${q}`);
          expect(png.headers['content-type']).toBe('image/png');
          // PNG header, then the IHDR chunk's width and height.
          expect(png.rawPayload.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
          expect([png.rawPayload.readUInt32BE(16), png.rawPayload.readUInt32BE(20)]).toEqual([w, h]);
        }
        // PubChem has no conformer model for cisplatin (platinum): no 3D record, loaded or computed.
        const three = await req(t.app, `${B}/compound/cid/5460033/JSON?record_type=3d`);
        expect(three.status).toBe(404);
      });

      it('answers synonyms, description and their TXT form', async () => {
        const s = await req(t.app, `${B}/compound/cid/2244/synonyms/JSON`);
        const [i] = info(s) as [{ CID: number; Synonym: string[] }];
        expect(i.CID).toBe(2244);
        expect(i.Synonym[0]).toBe('Aspirin');
        expect(i.Synonym).toContain('50-78-2');
        const txt = await req(t.app, `${B}/compound/name/aspirin/synonyms/TXT`);
        expect(txt.raw.split('\n')).toContain('acetylsalicylic acid');
        const d = await req(t.app, `${B}/compound/cid/2244,2519/description/JSON`);
        expect(info(d)).toEqual([
          { CID: 2244, Title: 'Aspirin' },
          { CID: 2519, Title: 'Caffeine' },
        ]);
      });
    });

    describe('identifier lists', () => {
      it('answers cids as an IdentifierList, sids and aids grouped by CID, flat on request and in TXT', async () => {
        expect((await req(t.app, `${B}/compound/cid/2244,2519/cids/JSON`)).body).toEqual({ IdentifierList: { CID: [2244, 2519] } });
        const sids = await req(t.app, `${B}/compound/cid/2244,2519/sids/JSON`);
        const groups = info(sids) as { CID: number; SID: number[] }[];
        expect(groups.map((g) => g.CID)).toEqual([2244, 2519]);
        expect(groups[0]?.SID.length).toBeGreaterThan(0);
        const flat = await req(t.app, `${B}/compound/cid/2244,2519/sids/JSON?list_return=flat`);
        expect(ids(flat, 'SID')?.sort()).toEqual(groups.flatMap((g) => g.SID).sort());
        const txt = await req(t.app, `${B}/compound/cid/2244/aids/TXT`);
        expect(txt.raw.trim().split('\n').map(Number)).toEqual([9000001, 9000002, 9000003, 9000004]);
        const active = await req(t.app, `${B}/compound/cid/2244/aids/JSON?aids_type=active`);
        expect((info(active)[0] as { AID: number[] }).AID).toEqual([9000001, 9000002]);
        const none = await req(t.app, `${B}/compound/cid/962/aids/JSON`);
        expect(none.status).toBe(404);
      });

      it('keeps a list under a list key and pages through it', async () => {
        const k = await req(t.app, `${B}/compound/name/aspirin/cids/JSON?list_return=listkey`);
        const list = k.body.IdentifierList as { Size: number; ListKey: string };
        expect(list.Size).toBe(1);
        expect(list.ListKey).toMatch(/^\d+$/);
        const back = await req(t.app, `${B}/compound/listkey/${list.ListKey}/property/MolecularFormula/JSON`);
        expect(props(back)).toEqual([{ CID: 2244, MolecularFormula: 'C9H8O4' }]);
        const sub = await req(t.app, `${B}/compound/fastsubstructure/smiles/c1ccccc1/cids/JSON?list_return=listkey`);
        const key = (sub.body.IdentifierList as { ListKey: string; Size: number }).ListKey;
        const all = ids(await req(t.app, `${B}/compound/listkey/${key}/cids/JSON`)) as number[];
        expect(all.length).toBe((sub.body.IdentifierList as { Size: number }).Size);
        const page = ids(await req(t.app, `${B}/compound/listkey/${key}/cids/JSON?listkey_start=2&listkey_count=3`));
        expect(page).toEqual(all.slice(2, 5));
        const bad = await req(t.app, `${B}/compound/listkey/12345/cids/JSON`);
        expect(bad.status).toBe(404);
        expect(fault(bad).Code).toBe('PUGREST.NotFound');
        const badStart = await req(t.app, `${B}/compound/listkey/${key}/cids/JSON?listkey_start=-1`);
        expect(badStart.status).toBe(400);
        const wrongDomain = await req(t.app, `${B}/substance/listkey/${key}/sids/JSON`);
        expect(wrongDomain.status).toBe(400);
      });
    });

    describe('bioassays', () => {
      it('summarizes a compound’s assay results as PubChem’s Table, in JSON, XML and CSV', async () => {
        const r = await req(t.app, `${B}/compound/cid/2244/assaysummary/JSON`);
        const table = r.body.Table as { Columns: { Column: string[] }; Row: { Cell: string[] }[] };
        expect(table.Columns.Column).toEqual([
          'AID',
          'Panel Member ID',
          'SID',
          'CID',
          'Activity Outcome',
          'Target Accession',
          'Target GeneID',
          'Activity Value [uM]',
          'Activity Name',
          'Assay Name',
          'Assay Type',
          'PubMed ID',
          'RNAi',
        ]);
        const first = table.Row[0]?.Cell as string[];
        expect([first[0], first[3], first[4], first[5], first[6], first[8], first[10]]).toEqual(['9000001', '2244', 'Active', 'P23219', '5742', 'IC50', 'Confirmatory']);
        expect(table.Row.every((row) => row.Cell.length === 13)).toBe(true);
        const csv = await req(t.app, `${B}/compound/cid/2244/assaysummary/CSV`);
        const lines = csv.raw.trim().split('\n');
        expect(lines[0]).toBe(
          '"AID","Panel Member ID","SID","CID","Activity Outcome","Target Accession","Target GeneID","Activity Value [uM]","Activity Name","Assay Name","Assay Type","PubMed ID","RNAi"',
        );
        expect(lines).toHaveLength(table.Row.length + 1);
        const xml = await req(t.app, `${B}/compound/cid/2244/assaysummary/XML`);
        expect(xml.raw).toContain('<Column>Activity Outcome</Column>');
        wellFormed(xml.raw);
      });

      it('describes assays as PC_AssayContainer and links them to SIDs and CIDs', async () => {
        const d = await req(t.app, `${B}/assay/aid/9000001/description/JSON`);
        const descr = (d.body.PC_AssayContainer as { assay: { descr: { aid: { id: number }; name: string } } }[])[0]?.assay.descr;
        expect(descr?.aid.id).toBe(9000001);
        expect(descr?.name).toContain('COX-1');
        const x = await req(t.app, `${B}/assay/aid/9000001/description/XML`);
        expect(x.raw).toContain('<PC-AssayDescription>');
        wellFormed(x.raw);
        const cids = await req(t.app, `${B}/assay/aid/9000003/cids/JSON?cids_type=active`);
        expect((info(cids)[0] as { CID: number[] }).CID).toEqual([5291, 644241, 3062316]);
        const concise = await req(t.app, `${B}/assay/aid/9000003/concise/JSON`);
        expect((concise.body.Table as { Columns: { Column: string[] } }).Columns.Column).not.toContain('Panel Member ID');
        expect((await req(t.app, `${B}/assay/aid/1/description/JSON`)).status).toBe(404);
        expect((await req(t.app, `${B}/assay/aid/9000001/summary/JSON`)).status).toBe(501);
        expect((await req(t.app, `${B}/assay/aid/9000001/property/MolecularWeight/JSON`)).status).toBe(400);
      });
    });

    describe('substances', () => {
      it('serves substance records, synonyms, CIDs and links', async () => {
        const sids = (info(await req(t.app, `${B}/compound/cid/2519/sids/JSON`))[0] as { SID: number[] }).SID;
        const sid = sids[0] as number;
        const rec = await req(t.app, `${B}/substance/sid/${sid}/JSON`);
        const [sub] = rec.body.PC_Substances as [PcSubstance];
        expect(sub.sid.id).toBe(sid);
        expect(sub.source.db.name).toBe('biomirror demo');
        const standardized = sub.compound.find((c) => c.id.type === 1);
        expect(standardized?.id.id?.cid).toBe(2519);
        expect((info(await req(t.app, `${B}/substance/sid/${sid}/cids/JSON`))[0] as { CID: number[] }).CID).toEqual([2519]);
        expect((info(await req(t.app, `${B}/substance/sid/${sid}/synonyms/JSON`))[0] as { Synonym: string[] }).Synonym).toContain('Caffeine');
        expect(ids(await req(t.app, `${B}/substance/name/caffeine/sids/JSON`), 'SID')).toContain(sid);
        const sdf = await req(t.app, `${B}/substance/sid/${sid}/SDF`);
        expect(sdf.raw).toContain(`> <PUBCHEM_SUBSTANCE_ID>\n${sid}`);
        const xml = await req(t.app, `${B}/substance/sid/${sid}/XML`);
        expect(xml.raw).toContain('<PC-Substance>');
        wellFormed(xml.raw);
        expect((await req(t.app, `${B}/substance/sid/1/JSON`)).status).toBe(404);
      });
    });
  });
}
