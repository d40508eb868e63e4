import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { sdfChunks, sdfRecords, type SdfItem } from '../src/services/pubchem/ingest/sdf-stream.js';
import { scanCompound } from '../src/services/pubchem/ingest/sdf-scan.js';
import { compoundFromTags, storedProps } from '../src/services/pubchem/chem/compound.js';
import { formulaOf, graphOf } from '../src/services/pubchem/chem/graph.js';
import { massString, weightString } from '../src/services/pubchem/chem/compute.js';
import { propertyName, storedName } from '../src/services/pubchem/chem/properties.js';
import { parseSdf, parseSdfText, readMolfile } from '../src/services/pubchem/chem/sdf.js';
import { rdkit } from '../src/services/pubchem/chem/rdkit.js';
import { throttlingControl } from '../src/services/pubchem/limits.js';
import { csvTable, outputFromAccept } from '../src/services/pubchem/output/formats.js';
import { documentXml } from '../src/services/pubchem/output/xml.js';
import { Options, parsePugPath } from '../src/services/pubchem/request.js';
import { ServiceError } from '../src/core/http/errors.js';
import { pcCatalogue } from '../src/services/pubchem/errors.js';
import { packTexts, unpackTexts } from '../src/services/pubchem/store/sdf-blocks.js';

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
    const block =
      'x\n  test\n\n  2  1  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 N   0  0  0  0  0  0  0  0  0  0  0  0\n    1.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\n  1  2  1  1\nM  CHG  1   1   1\nM  ISO  1   2  13\nM  END\n';
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

  it('streams SD records as the line reader reads them, keeping the text and first line of each record', async () => {
    const real = gunzipSync(readFileSync(join(import.meta.dirname, 'fixtures/pubchem/real-subskeys.sdf.gz'))).toString('utf8');
    const block = 'x\n  test\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 N   0  0  0  0  0  0  0  0  0  0  0  0\nM  END\n';
    const odd = [
      `${block}> <A>\nno blank line before the end\n$$$$\n`,
      `no molfile\n$$$$\n`,
      `${block}> <B>\r\nwindows\r\n\r\n$$$$\r\n`,
      `${block}>  12  <C>\nnumbered\n\n> <C>\nsecond\n\n$$$$\n`,
      `${block}> <D>\nlast record, no end line\n`,
    ].join('');
    for (const text of [real, odd]) {
      const chunks = Array.from({ length: Math.ceil(text.length / 7919) }, (_, i) => Buffer.from(text.slice(i * 7919, (i + 1) * 7919)));
      const got: SdfItem[] = [];
      for await (const item of sdfRecords(Readable.from(chunks))) got.push(item);
      const expected = parseSdf(text);
      expect(got.map((g) => (typeof g.record === 'string' ? g.record : { molblock: g.record.molblock, tags: g.record.tags }))).toEqual(expected);
      // Each record starts on the line after the previous one's `$$$$`, and keeps its text.
      // (Lines counted once through the text: counting each record's prefix again is quadratic.)
      const starts = [1];
      text.split('\n').forEach((l, i) => {
        if (l.startsWith('$$$$')) starts.push(i + 2);
      });
      expect(got.map((g) => g.line)).toEqual(starts.slice(0, got.length));
      if (text === real) expect(got.map((g) => (typeof g.record === 'string' ? '' : g.record.text)).join('')).toBe(real);
    }
  });
});

describe('SD texts in compressed blocks', () => {
  it('gives back each text of a block byte for byte, and a reason for a damaged block', () => {
    const real = gunzipSync(readFileSync(join(import.meta.dirname, 'fixtures/pubchem/real-subskeys.sdf.gz'))).toString('utf8');
    const texts = real.split(/(?<=\n\$\$\$\$\n)/).slice(0, 16);
    const withUnicode = [...texts.slice(0, 3), 'α-β name\n$$$$\n', ''];
    for (const group of [texts, withUnicode, ['one']]) {
      const block = packTexts(group);
      expect(unpackTexts(block)).toEqual(group);
    }
    const block = packTexts(texts);
    // Compressed to well under half: what makes the load write fewer bytes.
    expect(block.length).toBeLessThan(texts.join('').length / 2);
    expect(unpackTexts(block.subarray(0, block.length >> 1))).toMatch(/cannot be decompressed|shorter|broken/);
    expect(unpackTexts(new Uint8Array([1, 2, 3]))).toMatch(/cannot be decompressed/);
  });
});

describe('platform errors in PubChem faults', () => {
  it('keeps the status the platform asks for, with the PUG REST code PubChem uses for it', () => {
    const code = (status: number) => {
      const e = pcCatalogue.badRequest('why', status, '/rest/pug/compound/cid/1/JSON');
      return [e.status, (e.body as { Fault: { Code: string; Details?: string[] } }).Fault.Code, (e.body as { Fault: { Details?: string[] } }).Fault.Details];
    };
    // A service with nothing loaded, one still loading, an upstream failing under pull-through.
    expect(code(404)).toEqual([404, 'PUGREST.NotFound', ['why']]);
    expect(code(503)).toEqual([503, 'PUGREST.ServerBusy', ['why']]);
    expect(code(504)).toEqual([504, 'PUGREST.Timeout', ['why']]);
    expect(code(502)).toEqual([502, 'PUGREST.ServerError', ['why']]);
    expect(code(405)).toEqual([405, 'PUGREST.NotAllowed', ['why']]);
    expect(code(400)).toEqual([400, 'PUGREST.BadRequest', ['why']]);
    expect(code(413)).toEqual([400, 'PUGREST.BadRequest', ['why']]);
  });
});

describe('writers', () => {
  it('writes PubChem CSV, pug_rest XML and the throttling header', () => {
    expect(
      csvTable(
        ['CID', 'Name'],
        [
          [1, 'a "b"'],
          [2, undefined],
        ],
      ),
    ).toBe('"CID","Name"\n1,"a ""b"""\n2,\n');
    const xml = documentXml({ IdentifierList: { CID: [1, 2] } });
    expect(xml).toContain('<IdentifierList\n    xmlns="http://pubchem.ncbi.nlm.nih.gov/pug_rest"');
    expect(xml).toContain('  <CID>1</CID>\n  <CID>2</CID>\n</IdentifierList>');
    expect(documentXml({ Fault: { Code: 'X', Message: 'a < b & c' } })).toContain('<Message>a &lt; b &amp; c</Message>');
    expect(throttlingControl(0.12, 0.6, false, false)).toMatch(/^Request Count status: Green \(12%\), Request Time status: Yellow \(60%\), Service status: (Green|Yellow|Red) \(\d+%\)$/);
    expect(throttlingControl(1, 0, true, false)).toMatch(/^Request Count status: Black \(100%\).*, too many requests per second or blacklisted$/);
  });
});

describe('records of PubChem files read from their bytes', () => {
  const real = gunzipSync(readFileSync(join(import.meta.dirname, 'fixtures/pubchem/real-subskeys.sdf.gz')));
  /** The whole-record reading: what a load stored before records were read from their bytes. */
  const whole = (text: string) => {
    const rec = parseSdfText(text);
    if (typeof rec === 'string') return undefined;
    const built = compoundFromTags(Number(rec.tags.get('PUBCHEM_COMPOUND_CID')), rec);
    if (!built) return undefined;
    const { props, computed: _c, record: _r, sdf: _s, ...columns } = built;
    return { columns, props };
  };
  const scanned = (text: string) => {
    const bytes = Buffer.from(text, 'utf8');
    return scanCompound(bytes.toString('latin1'), 0, bytes.length);
  };

  it('gives the columns and property values the whole reading gives, on every real record it reads', async () => {
    let fast = 0;
    let total = 0;
    for await (const chunk of sdfChunks(Readable.from([real.subarray(0, 5_000_000), real.subarray(5_000_000)]))) {
      for (const span of chunk.spans) {
        total++;
        const text = chunk.bytes.toString('utf8', span.start, span.end);
        const got = scanCompound(chunk.latin1, span.start, span.end);
        const want = whole(text);
        // Every record the whole reading stores without RDKit is read from its bytes, with the same columns.
        expect(got === undefined).toBe(want === undefined);
        if (!got || !want) continue;
        fast++;
        expect(got).toEqual(want.columns);
        expect(storedProps(text)).toEqual(want.props);
      }
    }
    expect(total).toBe(1328);
    expect(fast).toBeGreaterThan(300);
  });

  it('leaves records laid out otherwise to the whole reading, and never reads a value it would not', () => {
    const texts = real.toString('utf8').split(/(?<=\n\$\$\$\$\n)/);
    const base = texts.find((t) => whole(t) !== undefined) as string;
    expect(scanned(base)).toEqual(whole(base)?.columns);
    const weight = /> <PUBCHEM_MOLECULAR_WEIGHT>\n([^\n]*)\n/.exec(base)?.[1] as string;
    const variants: [string, string, 'whole' | 'same'][] = [
      ['CRLF line ends', base.replace(/\n/g, '\r\n'), 'whole'],
      ['a numbered data header', base.replace('> <PUBCHEM_MOLECULAR_WEIGHT>', '>  7  <PUBCHEM_MOLECULAR_WEIGHT>'), 'whole'],
      ['a name the parser trims, given first', base.replace('> <PUBCHEM_COMPOUND_CID>', '> < PUBCHEM_MOLECULAR_WEIGHT >\n1\n\n> <PUBCHEM_COMPOUND_CID>'), 'whole'],
      ['a value on two lines', base.replace(`> <PUBCHEM_MOLECULAR_WEIGHT>\n${weight}\n`, `> <PUBCHEM_MOLECULAR_WEIGHT>\n${weight}\n0\n`), 'whole'],
      ['blank lines between items', base.replace('M  END\n', 'M  END\n\n').replace('\n\n> <PUBCHEM_MOLECULAR_WEIGHT>', '\n\n\n> <PUBCHEM_MOLECULAR_WEIGHT>'), 'same'],
      ['a line of spaces between items', base.replace('\n\n> <PUBCHEM_MOLECULAR_WEIGHT>', '\n\n  \n> <PUBCHEM_MOLECULAR_WEIGHT>'), 'whole'],
      ['text after the data header', base.replace('> <PUBCHEM_MOLECULAR_WEIGHT>', '> <PUBCHEM_MOLECULAR_WEIGHT> (1)'), 'whole'],
      ['a value with spaces around it', base.replace(`> <PUBCHEM_MOLECULAR_WEIGHT>\n${weight}\n`, `> <PUBCHEM_MOLECULAR_WEIGHT>\n${weight}  \n`), 'same'],
      ['a tag given twice', base.replace('$$$$\n', () => '> <PUBCHEM_MOLECULAR_WEIGHT>\n999\n\n$$$$\n'), 'same'],
      ['no blank line before the end', base.replace(/\n+\$\$\$\$\n$/, () => '\n$$$$\n'), 'same'],
      ['a value this project computed', base.replace('$$$$\n', () => '> <BIOMIRROR_COMPUTED>\nPUBCHEM_XLOGP3\n\n$$$$\n'), 'whole'],
      ['no substructure keys', base.replace(/> <PUBCHEM_CACTVS_SUBSKEYS>\n[^\n]*\n\n/, ''), 'whole'],
      ['an empty required value', base.replace(`> <PUBCHEM_MOLECULAR_WEIGHT>\n${weight}\n`, '> <PUBCHEM_MOLECULAR_WEIGHT>\n\n'), 'whole'],
      ['malformed keys', base.replace(/(> <PUBCHEM_CACTVS_SUBSKEYS>\n)[^\n]*/, '$1AAAA'), 'same'],
    ];
    for (const [what, text, expected] of variants) {
      expect(text, what).not.toBe(base);
      const got = scanned(text);
      if (expected === 'whole') expect(got, what).toBeUndefined();
      else expect(got, what).toEqual(whole(text)?.columns);
    }
    expect(scanned(variants[13]?.[1] as string)?.notes[0]).toMatch(/PUBCHEM_CACTVS_SUBSKEYS is malformed/);
  });
});
