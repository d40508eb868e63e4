import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SkipPlace } from '../src/core/ingest/dataset.js';
import { FormatError } from '../src/core/ingest/errors.js';
import { runLoad } from '../src/core/ingest/load.js';
import { molfileWithHydrogens } from '../src/services/pubchem/chem/compound.js';
import { parseMol, rdkit, type RDKit } from '../src/services/pubchem/chem/rdkit.js';
import { ZipWriter } from '../synthetic/zip.js';
import { B, dataset, fault, loadDemo, pubchemApp, req } from './helpers/pubchem.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';
import type { TestApp } from './helpers/app.js';
import type { ServiceModule } from '../src/services/types.js';
import { silent } from './helpers/app.js';
import { REAL_SUBSKEYS } from './helpers/subskeys.js';

type Row = Record<string, unknown>;
const props = (r: { body: Row }) => (r.body.PropertyTable as { Properties: Row[] }).Properties;

/** A molfile with hydrogens and coordinates, as PubChem's SD files have them. */
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

// PubChem's own values for aspirin, as its Compound SD files carry them (several differ from what
// RDKit computes: XLogP3 1.2, Complexity 212).
const ASPIRIN_TAGS: [string, string][] = [
  ['PUBCHEM_COMPOUND_CID', '2244'],
  ['PUBCHEM_COMPOUND_CANONICALIZED', '1'],
  ['PUBCHEM_CACTVS_COMPLEXITY', '212'],
  ['PUBCHEM_CACTVS_HBOND_ACCEPTOR', '4'],
  ['PUBCHEM_CACTVS_HBOND_DONOR', '1'],
  ['PUBCHEM_CACTVS_ROTATABLE_BOND', '3'],
  ['PUBCHEM_CACTVS_SUBSKEYS', REAL_SUBSKEYS[2244] as string],
  ['PUBCHEM_IUPAC_NAME', '2-acetyloxybenzoic acid'],
  ['PUBCHEM_IUPAC_INCHI', 'InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)'],
  ['PUBCHEM_IUPAC_INCHIKEY', 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N'],
  ['PUBCHEM_XLOGP3', '1.2'],
  ['PUBCHEM_EXACT_MASS', '180.04225873'],
  ['PUBCHEM_MOLECULAR_FORMULA', 'C9H8O4'],
  ['PUBCHEM_MOLECULAR_WEIGHT', '180.16'],
  ['PUBCHEM_SMILES', 'CC(=O)OC1=CC=CC=C1C(=O)O'],
  ['PUBCHEM_CONNECTIVITY_SMILES', 'CC(=O)OC1=CC=CC=C1C(=O)O'],
  ['PUBCHEM_CACTVS_TPSA', '63.6'],
  ['PUBCHEM_MONOISOTOPIC_WEIGHT', '180.04225873'],
  ['PUBCHEM_TOTAL_CHARGE', '0'],
  ['PUBCHEM_HEAVY_ATOM_COUNT', '13'],
  ['PUBCHEM_ATOM_DEF_STEREO_COUNT', '0'],
  ['PUBCHEM_ATOM_UDEF_STEREO_COUNT', '0'],
  ['PUBCHEM_BOND_DEF_STEREO_COUNT', '0'],
  ['PUBCHEM_BOND_UDEF_STEREO_COUNT', '0'],
  ['PUBCHEM_ISOTOPIC_ATOM_COUNT', '0'],
  ['PUBCHEM_COMPONENT_COUNT', '1'],
];

for (const target of STORES) {
  describe(`PubChem ingest on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    let m: ServiceModule;
    let r: RDKit;
    let dir: string;
    beforeAll(async () => {
      r = await rdkit();
    });
    beforeEach(async () => {
      s = await target.open();
      ({ t, m } = await pubchemApp(s));
      dir = tempDir();
    });
    afterEach(async () => {
      await t.close();
      await s.cleanup();
    });
    const load = (name: 'compounds' | 'substances' | 'assays', input: string, onSkip?: (p: SkipPlace, why: string) => void) =>
      runLoad(s.db, t.generations, dataset(m, name), input, onSkip ? { onSkip } : {});

    it('takes PubChem’s values from the PUBCHEM_* tags and computes only what a file lacks', async () => {
      writeFileSync(join(dir, 'Compound_000000001_000500000.sdf.gz'), gzipSync(record(molfile(r, 'CC(=O)OC1=CC=CC=C1C(=O)O', '2244'), ASPIRIN_TAGS)));
      // Structure only: the CID on the first line, no tags.
      writeFileSync(join(dir, 'Compound_000500001_001000000.sdf'), record(molfile(r, 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C', '2519'), []));
      const res = await load('compounds', dir);
      expect(res.records).toBe(2);
      const p = props(await req(t.app, `${B}/compound/cid/2244,2519/property/XLogP,Complexity,InChIKey,MolecularWeight,SMILES/JSON`));
      expect(p[0]).toEqual({ CID: 2244, XLogP: 1.2, Complexity: 212, InChIKey: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N', MolecularWeight: '180.16', SMILES: 'CC(=O)OC1=CC=CC=C1C(=O)O' });
      expect(p[1]).toMatchObject({ CID: 2519, InChIKey: 'RYYVLZVUVIJVGH-UHFFFAOYSA-N', MolecularWeight: '194.19' });
      const rec = await req(t.app, `${B}/compound/cid/2244,2519/JSON`);
      const urns = (rec.body.PC_Compounds as { props: { urn: Row }[] }[]).map((c) => c.props.filter((x) => x.urn.software === 'RDKit').length);
      expect(urns[0]).toBe(0);
      expect(urns[1]).toBeGreaterThan(10);
      const sdf = await req(t.app, `${B}/compound/cid/2519/SDF`);
      expect(sdf.raw).toContain('> <BIOMIRROR_COMPUTED>');
      expect((await req(t.app, `${B}/compound/cid/2244/SDF`)).raw).not.toContain('BIOMIRROR_COMPUTED');
    });

    it('reads titles, synonyms and CID-SID pairs, grouping lines by CID', async () => {
      writeFileSync(join(dir, 'Compound_x.sdf'), record(molfile(r, 'CCO', '702'), []));
      writeFileSync(join(dir, 'CID-Title'), '702\tEthanol\n');
      writeFileSync(join(dir, 'CID-Synonym-filtered.gz'), gzipSync('702\tethanol\n702\tethyl alcohol\n702\t64-17-5\n887\tmethanol\n'));
      writeFileSync(join(dir, 'CID-SID'), '702\t11\t1\n702\t12\t2\n702\t13\n');
      const skipped: string[] = [];
      const res = await load('compounds', dir, (_p, why) => skipped.push(why));
      expect(skipped).toEqual([]);
      expect(res.records).toBe(5);
      expect((await req(t.app, `${B}/compound/name/ETHYL%20ALCOHOL/property/Title/JSON`)).body).toEqual({ PropertyTable: { Properties: [{ CID: 702, Title: 'Ethanol' }] } });
      const sids = (await req(t.app, `${B}/compound/cid/702/sids/JSON`)).body;
      expect(sids).toEqual({ InformationList: { Information: [{ CID: 702, SID: [11, 13] }] } });
      const all = (await req(t.app, `${B}/compound/cid/702/sids/JSON?sids_type=all`)).body;
      expect(all).toEqual({ InformationList: { Information: [{ CID: 702, SID: [11, 12, 13] }] } });
    });

    it('skips and reports records it cannot load, and duplicates, and goes on', async () => {
      const good = record(molfile(r, 'CCO', '702'), []);
      const noEnd = 'broken\n\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n$$$$\n';
      const noCid = record(molfile(r, 'CC', 'ethane'), []);
      const badAtom = record(molfile(r, 'CC', '6324').replace(/ C {3}0/, ' Qq  0'), []);
      writeFileSync(join(dir, 'Compound_bad.sdf'), good + noEnd + noCid + badAtom + good);
      writeFileSync(join(dir, 'CID-Synonym-filtered'), '702\tethanol\n887\tmethanol\n702\talcohol\n');
      const skipped: [SkipPlace, string][] = [];
      const res = await load('compounds', dir, (p, why) => skipped.push([p, why]));
      expect(res.records).toBe(3);
      const reasons = skipped.map(([, why]) => why);
      expect(reasons.some((x) => x.includes('M  END'))).toBe(true);
      expect(reasons.some((x) => x.includes('PUBCHEM_COMPOUND_CID'))).toBe(true);
      expect(reasons.some((x) => x.includes('CID 6324'))).toBe(true);
      expect(reasons.filter((x) => x.startsWith('duplicate'))).toHaveLength(2);
      expect(skipped.every(([p]) => typeof p.position === 'string' && p.position.startsWith('line '))).toBe(true);
    });

    it('keeps serving the previous data when a load fails, and serves the new load (and searches it) when one succeeds', async () => {
      await loadDemo(s, t.generations, m, ['compounds']);
      const empty = tempDir();
      writeFileSync(join(empty, 'notes.txt'), 'nothing here');
      await expect(load('compounds', empty)).rejects.toBeInstanceOf(FormatError);
      const garbage = tempDir();
      writeFileSync(join(garbage, 'Compound_bad.sdf'), Array.from({ length: 120 }, () => 'not a molfile\n$$$$\n').join(''));
      await expect(load('compounds', garbage)).rejects.toThrow(/not molfiles/);
      expect((await req(t.app, `${B}/compound/name/aspirin/cids/JSON`)).body).toEqual({ IdentifierList: { CID: [2244] } });
      expect((await req(t.app, `${B}/compound/fastsimilarity_2d/cid/2244/cids/JSON`)).status).toBe(200);
      writeFileSync(join(dir, 'Compound_new.sdf'), record(molfile(r, 'CC(=O)OC1=CC=CC=C1C(=O)OC', '99999991'), []));
      await load('compounds', dir);
      t.generations.invalidate();
      expect((await req(t.app, `${B}/compound/cid/2244/JSON`)).status).toBe(404);
      const found = await req(t.app, `${B}/compound/fastsubstructure/smiles/CC(=O)Oc1ccccc1/cids/JSON`);
      expect(found.body).toEqual({ IdentifierList: { CID: [99999991] } });
    });

    it('answers a failure inside the server with PUGREST.ServerError (500), naming only the request id', async () => {
      const [res] = await loadDemo(s, t.generations, m, ['compounds']);
      // A table of the served generation disappears from under the service.
      await s.db.exec(`DROP TABLE "pcc_compounds_g${res?.gen}"`);
      const r = await req(t.app, `${B}/compound/cid/2244/property/MolecularWeight/JSON`, { headers: { 'x-request-id': 'test-500' } });
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ Fault: { Code: 'PUGREST.ServerError', Message: 'Server error', Details: ['Request test-500 failed; the error is logged under this id'] } });
      const x = await req(t.app, `${B}/compound/cid/2244/property/MolecularWeight/XML`);
      expect(x.status).toBe(500);
      expect(x.raw).toMatch(/<Fault[\s\S]*<Code>PUGREST.ServerError<\/Code>/);
    });

    it('reads substances with their CID associations', async () => {
      const sdf =
        record(molfile(r, 'CC(=O)OC1=CC=CC=C1C(=O)O', '5001'), [
          ['PUBCHEM_SUBSTANCE_ID', '5001'],
          ['PUBCHEM_SUBSTANCE_VERSION', '3'],
          ['PUBCHEM_EXT_DATASOURCE_NAME', 'Test Source'],
          ['PUBCHEM_EXT_DATASOURCE_REGID', 'T-1'],
          ['PUBCHEM_SUBSTANCE_SYNONYM', 'aspirin\nASA'],
          ['PUBCHEM_CID_ASSOCIATIONS', '2244  1\n2245  2'],
        ]) +
        record('\n\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n', [
          ['PUBCHEM_SUBSTANCE_ID', '5002'],
          ['PUBCHEM_EXT_DATASOURCE_NAME', 'Test Source'],
          ['PUBCHEM_EXT_DATASOURCE_REGID', 'T-2'],
        ]);
      writeFileSync(join(dir, 'Substance_000000001_000500000.sdf.gz'), gzipSync(sdf + record('x\n\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n', [])));
      const skipped: string[] = [];
      const res = await load('substances', dir, (_p, why) => skipped.push(why));
      expect(res.records).toBe(2);
      expect(skipped).toEqual(['no PUBCHEM_SUBSTANCE_ID tag']);
      const rec = (await req(t.app, `${B}/substance/sid/5001/JSON`)).body.PC_Substances as Row[];
      expect(rec[0]).toMatchObject({ sid: { id: 5001, version: 3 }, source: { db: { name: 'Test Source', source_id: { str: 'T-1' } } }, synonyms: ['aspirin', 'ASA'] });
      expect((rec[0]?.compound as Row[]).map((c) => c.id)).toEqual([{ type: 0 }, { type: 1, id: { cid: 2244 } }, { type: 2, id: { cid: 2245 } }]);
      expect((await req(t.app, `${B}/substance/sourceid/Test%20Source/T-2/sids/JSON`)).body).toEqual({ IdentifierList: { SID: [5002] } });
      expect((await req(t.app, `${B}/substance/sid/5001/cids/JSON?cids_type=all`)).body).toEqual({ InformationList: { Information: [{ SID: 5001, CID: [2244, 2245] }] } });
      expect((await req(t.app, `${B}/substance/sid/5002/PNG`)).status).toBe(404);
    });

    it('reads assay records from JSON, gzipped JSON and zips, and bioactivities with or without a header', async () => {
      const descr = (aid: number, method: number) => ({
        PC_AssaySubmit: { assay: { descr: { aid: { id: aid, version: 1 }, name: `Assay ${aid}`, activity_outcome_method: method, aid_source: { db: { name: 'Lab' } } } } },
      });
      writeFileSync(join(dir, 'AID_1.json'), JSON.stringify(descr(1, 1)));
      writeFileSync(join(dir, 'AID_2.json.gz'), gzipSync(JSON.stringify({ PC_AssayContainer: [descr(2, 2).PC_AssaySubmit] })));
      const zip = new ZipWriter(join(dir, '0000001_0001000.zip'));
      await zip.add('0000001_0001000/3.json.gz', gzipSync(JSON.stringify(descr(3, 3))));
      await zip.add('0000001_0001000/README', 'not an assay');
      await zip.close();
      writeFileSync(join(dir, 'AID_bad.json'), '{"PC_AssaySubmit": {}}');
      mkdirSync(join(dir, 'Extras'));
      // No header: the bulk file's column order; outcomes as PubChem's numeric codes.
      writeFileSync(join(dir, 'Extras', 'bioactivities.tsv.gz'), gzipSync('1\t101\t\t2244\t2\tIC50\t=\t3.5\tP23219\t5742\t9606\t\n2\t102\t\t2244\t1\t\t\t\t\t\t\t\nx\t1\n'));
      const skipped: string[] = [];
      const res = await load('assays', dir, (_p, why) => skipped.push(why));
      expect(res.records).toBe(5);
      expect(skipped).toHaveLength(2);
      const table = (await req(t.app, `${B}/compound/cid/2244/assaysummary/JSON`)).body.Table as { Row: { Cell: string[] }[] };
      expect(table.Row.map((x) => [x.Cell[0], x.Cell[4], x.Cell[7], x.Cell[9], x.Cell[10]])).toEqual([
        ['1', 'Active', '3.5', 'Assay 1', 'Screening'],
        ['2', 'Inactive', '', 'Assay 2', 'Confirmatory'],
      ]);
      const three = (await req(t.app, `${B}/assay/aid/3/description/JSON`)).body.PC_AssayContainer as { assay: { descr: { name: string } } }[];
      expect(three[0]?.assay.descr.name).toBe('Assay 3');
      expect(fault(await req(t.app, `${B}/assay/aid/4/description/JSON`)).Code).toBe('PUGREST.NotFound');
    });

    it('writes an SD file from CID-SMILES with the service command, which loads like PubChem’s', async () => {
      const input = join(dir, 'CID-SMILES');
      writeFileSync(input, '2244\tCC(=O)OC1=CC=CC=C1C(=O)O\t2-acetyloxybenzoic acid\n7\tnot-a-smiles\n2519\tCN1C=NC2=C1C(=O)N(C(=O)N2C)C\n');
      const out: string[] = [];
      const sdfDir = tempDir();
      const code = await m.commands?.sdf?.run([input, join(sdfDir, 'Compound_gen.sdf.gz')], { db: s.db, generations: t.generations, log: silent }, (l) => out.push(l));
      expect(code).toBe(0);
      expect(out.some((l) => l.includes('line 2: skipped'))).toBe(true);
      expect(out.at(-1)).toContain('2 compounds written, 1 lines skipped');
      const usage = await m.commands?.sdf?.run([input], { db: s.db, generations: t.generations, log: silent }, (l) => out.push(l));
      expect(usage).toBe(2);
      const res = await load('compounds', sdfDir);
      expect(res.records).toBe(2);
      expect(props(await req(t.app, `${B}/compound/cid/2244/property/IUPACName,InChIKey/JSON`))).toEqual([
        { CID: 2244, IUPACName: '2-acetyloxybenzoic acid', InChIKey: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N' },
      ]);
      const demoSdf = readFileSync(join(dataset(m, 'compounds').demo as string, 'CID-SMILES'), 'utf8');
      expect(demoSdf.split('\n').filter(Boolean).length).toBeGreaterThan(200);
    });
  });
}
