import { describe, expect, it } from 'vitest';
import { PATTERN_WORDS, popcount } from '../src/services/pubchem/chem/fingerprints.js';
import { KEY_WORDS } from '../src/services/pubchem/chem/subskeys-codec.js';
import { formulaOf, graphOf } from '../src/services/pubchem/chem/graph.js';
import { massString, weightString } from '../src/services/pubchem/chem/compute.js';
import { propertyName, storedName } from '../src/services/pubchem/chem/properties.js';
import { parseSdf, readMolfile } from '../src/services/pubchem/chem/sdf.js';
import { rdkit } from '../src/services/pubchem/chem/rdkit.js';
import { throttlingControl } from '../src/services/pubchem/limits.js';
import { csvTable, outputFromAccept } from '../src/services/pubchem/output/formats.js';
import { documentXml } from '../src/services/pubchem/output/xml.js';
import { Options, parsePugPath } from '../src/services/pubchem/request.js';
import { FingerprintIndex, NO_KEYS } from '../src/services/pubchem/search/index.js';
import { screen, similar } from '../src/services/pubchem/search/scan.js';
import { ServiceError } from '../src/core/http/errors.js';

const parse = (path: string, query: Record<string, string> = {}, accept?: string) => parsePugPath(path, new Options(query), accept);

describe('PUG REST path grammar', () => {
  it('reads domain, namespace, identifiers, operation, argument and output', () => {
    expect(parse('compound/cid/2244,2519/property/MolecularWeight,InChIKey/CSV')).toMatchObject({
      domain: 'compound',
      namespace: { kind: 'cid' },
      identifiers: ['2244', '2519'],
      operation: 'property',
      argument: 'MolecularWeight,InChIKey',
      output: 'CSV',
    });
    expect(parse('compound/name/aspirin/JSON')).toMatchObject({ operation: 'record', identifiers: ['aspirin'], output: 'JSON' });
    expect(parse('compound/fastsimilarity_2d/smiles/CCO/cids/JSON').namespace).toEqual({ kind: 'search', search: 'similarity', input: 'smiles', fast: true });
    expect(parse('compound/substructure/cid/2244/cids/XML').namespace).toEqual({ kind: 'search', search: 'substructure', input: 'cid', fast: false });
    expect(parse('compound/smiles/C%2FC%3DC%2FC/cids/JSON').identifiers).toEqual(['C/C=C/C']);
    expect(parse('compound/exact_mass/range/180/181/cids/JSON').namespace).toEqual({ kind: 'mass', column: 'exact_mass', low: 180, high: 181 });
    expect(parse('substance/sourceid/DTP.NCI/747285/SDF').namespace).toEqual({ kind: 'sourceid', source: 'DTP/NCI' });
  });

  it('takes identifiers from options when the namespace is named there, and the output from Accept', () => {
    expect(parse('compound/inchi/cids/JSON', { inchi: 'InChI=1S/CH4/h1H4' })).toMatchObject({ identifiers: ['InChI=1S/CH4/h1H4'], operation: 'cids' });
    expect(parse('compound/cid/property/MolecularFormula', { CID: '1,2' }, 'text/csv')).toMatchObject({ identifiers: ['1', '2'], output: 'CSV' });
    expect(parse('compound/cid/2244').output).toBe('XML');
    expect(outputFromAccept('image/png, */*')).toBe('PNG');
    expect(outputFromAccept('video/mp4')).toBe('unacceptable');
  });

  it('refuses what is not in the grammar with PubChem codes', () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return [(e as ServiceError).status, ((e as ServiceError).body as { Fault: { Code: string } }).Fault.Code];
      }
      return undefined;
    };
    expect(code(() => parse('element/cid/1/JSON'))).toEqual([400, 'PUGREST.BadRequest']);
    expect(code(() => parse('gene/geneid/1/summary/JSON'))).toEqual([501, 'PUGREST.Unimplemented']);
    expect(code(() => parse('compound/cid'))).toEqual([400, 'PUGREST.BadRequest']);
    expect(code(() => parse('compound/cid/1/synonyms/JSON/more'))).toEqual([400, 'PUGREST.BadRequest']);
    expect(code(() => parse('compound/cid/%E0%A4%A/JSON'))).toEqual([400, 'PUGREST.BadRequest']);
    expect(code(() => parse('compound/cid/1', {}, 'audio/ogg'))).toEqual([405, 'PUGREST.NotAllowed']);
  });
});

describe('property names', () => {
  it('accepts any case, and reads the spec’s SMILES names from PubChem’s newer ones', () => {
    expect(propertyName('molecularweight')).toBe('MolecularWeight');
    expect(propertyName('CANONICALSMILES')).toBe('CanonicalSMILES');
    expect(storedName('CanonicalSMILES')).toBe('ConnectivitySMILES');
    expect(storedName('IsomericSMILES')).toBe('SMILES');
    expect(propertyName('Colour')).toBeUndefined();
  });
});

describe('chemistry computed by the project', () => {
  it('writes Hill formulas with the net charge, and PubChem’s mass strings', async () => {
    const r = await rdkit();
    const f = (smiles: string) => {
      const m = r.get_mol(smiles);
      if (!m) throw new Error(smiles);
      try {
        return formulaOf(graphOf(m.get_json()));
      } finally {
        m.delete();
      }
    };
    expect(f('CC(=O)OC1=CC=CC=C1C(=O)O')).toBe('C9H8O4');
    expect(f('[Na+].[Cl-]')).toBe('ClNa');
    expect(f('OS(=O)(=O)O')).toBe('H2O4S');
    expect(f('C[N+](C)(C)C')).toBe('C4H12N+');
    expect(f('[O-]C(=O)C(=O)[O-]')).toBe('C2O4-2');
    expect(weightString(151.16256)).toBe('151.16');
    expect(weightString(180.1)).toBe('180.1');
    expect(massString(180.042258736)).toBe('180.04225873');
    expect(massString(18.0105646837)).toBe('18.01056468');
  });

  it('reads SD records and V2000 molfiles with charges and isotopes', () => {
    const block = 'x\n  test\n\n  2  1  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 N   0  0  0  0  0  0  0  0  0  0  0  0\n    1.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\n  1  2  1  1\nM  CHG  1   1   1\nM  ISO  1   2  13\nM  END\n';
    const [rec] = parseSdf(`${block}> <A>\none\ntwo\n\n>  <B>\n3\n\n$$$$\n`);
    expect(typeof rec).toBe('object');
    expect(rec && typeof rec !== 'string' ? [...rec.tags] : []).toEqual([
      ['A', 'one\ntwo'],
      ['B', '3'],
    ]);
    const mf = readMolfile(block);
    expect(typeof mf !== 'string' && mf.atoms.map((a) => [a.symbol, a.charge, a.isotope])).toEqual([
      ['N', 1, 0],
      ['C', 0, 13],
    ]);
    expect(typeof mf !== 'string' && mf.bonds).toEqual([{ a: 1, b: 2, order: 1, stereo: 1 }]);
    expect(parseSdf('no molfile here\n$$$$\n')).toEqual(['no "M  END" line: not a molfile']);
  });
});

describe('fingerprint scans', () => {
  // The last key word holds keys 864..880: two bytes and the top bit of the third (little-endian).
  const LAST_WORD = 0x0080ffff;

  /**
   * A random index whose words use the top bit (JavaScript's bitwise results are signed), ordered
   * as the store gives it: compounds with keys by count, then `keyless` compounds without keys.
   */
  function randomIndex(n: number, seed: number, keyless = 0) {
    let x = seed;
    const rnd = () => ((x = (x * 1103515245 + 12345) >>> 0), x);
    const total = n + keyless;
    const cids = new Uint32Array(total);
    const keys = new Uint32Array(total * KEY_WORDS);
    const pattern = new Uint32Array(total * PATTERN_WORDS);
    const counts = new Uint16Array(total);
    const rows = Array.from({ length: n }, (_, i) => {
      const k = new Uint32Array(KEY_WORDS).map((_, w) => rnd() & rnd() & (w === KEY_WORDS - 1 ? LAST_WORD : rnd()));
      const p = new Uint32Array(PATTERN_WORDS).map(() => rnd() | rnd());
      return { cid: i + 1, k, p, c: popcount(k) };
    }).sort((a, b) => a.c - b.c || a.cid - b.cid);
    rows.forEach((row, i) => {
      cids[i] = row.cid;
      keys.set(row.k, i * KEY_WORDS);
      pattern.set(row.p, i * PATTERN_WORDS);
      counts[i] = row.c;
    });
    for (let i = n; i < total; i++) {
      cids[i] = 100_000 + i;
      counts[i] = NO_KEYS;
      pattern.set(new Uint32Array(PATTERN_WORDS).map(() => rnd() | rnd()), i * PATTERN_WORDS);
    }
    return { index: new FingerprintIndex(total, cids, counts, keys, pattern), rows };
  }

  it('finds the same similar set as a full scan (the count bounds lose nothing), never a compound without keys', async () => {
    const { index, rows } = randomIndex(400, 7, 25);
    expect(index.keyed).toBe(400);
    expect(index.keysAt(400)).toBeUndefined();
    for (const t of [0.3, 0.5, 0.7, 0.9]) {
      const q = rows[123]?.k as Uint32Array;
      const expected = rows
        .map((row) => {
          let both = 0;
          for (let w = 0; w < KEY_WORDS; w++) both += popcount(new Uint32Array([(row.k[w] as number) & (q[w] as number)]));
          return { cid: row.cid, score: both / (popcount(q) + row.c - both) };
        })
        .filter((h) => h.score >= t)
        .sort((a, b) => b.score - a.score || a.cid - b.cid);
      const got = await similar(index, q, t, Date.now() + 10_000);
      expect(got.map((h) => h.cid)).toEqual(expected.map((h) => h.cid));
    }
    // Threshold 0 takes every compound with keys, and still none without.
    expect((await similar(index, rows[5]?.k as Uint32Array, 0, Date.now() + 10_000)).length).toBe(400);
  });

  it('screens substructure and superstructure candidates by bit containment, high bits included', async () => {
    const { index, rows } = randomIndex(200, 11);
    const q = new Uint32Array(PATTERN_WORDS);
    q[0] = 0x80000001;
    const subs = await screen(index, q, 'sub', Date.now() + 10_000);
    expect(subs).toEqual(rows.filter((r) => ((r.p[0] as number) & 0x80000001) >>> 0 === 0x80000001).map((r) => r.cid).sort((a, b) => a - b));
    expect(subs.length).toBeGreaterThan(0);
    const full = new Uint32Array(PATTERN_WORDS).fill(0xffffffff);
    // Compounds without keys are screened like the others.
    expect(await screen(randomIndex(200, 11, 10).index, full, 'super', Date.now() + 10_000)).toHaveLength(210);
  });
});

describe('writers', () => {
  it('writes PubChem CSV, pug_rest XML and the throttling header', () => {
    expect(csvTable(['CID', 'Name'], [[1, 'a "b"'], [2, undefined]])).toBe('"CID","Name"\n1,"a ""b"""\n2,\n');
    const xml = documentXml({ IdentifierList: { CID: [1, 2] } });
    expect(xml).toContain('<IdentifierList\n    xmlns="http://pubchem.ncbi.nlm.nih.gov/pug_rest"');
    expect(xml).toContain('  <CID>1</CID>\n  <CID>2</CID>\n</IdentifierList>');
    expect(documentXml({ Fault: { Code: 'X', Message: 'a < b & c' } })).toContain('<Message>a &lt; b &amp; c</Message>');
    expect(throttlingControl(0.12, 0.6, false, false)).toMatch(/^Request Count status: Green \(12%\), Request Time status: Yellow \(60%\), Service status: (Green|Yellow|Red) \(\d+%\)$/);
    expect(throttlingControl(1, 0, true, false)).toMatch(/^Request Count status: Black \(100%\).*, too many requests per second or blacklisted$/);
  });
});
