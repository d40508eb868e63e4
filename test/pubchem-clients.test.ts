/**
 * What pubchempy relies on: every non-fast search answered with a list key and asked again at the
 * key's address, the exact content type of every output, the current SMILES labels of records,
 * and records as ASN.1 text and BER.
 */
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { fromJson } from '../src/core/asn1/value.js';
import { currentLabels } from '../src/services/pubchem/chem/record.js';
import { PC_MODULE } from '../src/services/pubchem/output/asn-schema.js';
import { at, parseAsn, type AsnValue } from './helpers/asn1.js';
import { decodeAs, readTlvs } from './helpers/ber.js';
import { B, V, fault, post, req, demoSuite, type Res } from './helpers/pubchem.js';
import { STORES } from './helpers/stores.js';

type Row = Record<string, unknown>;
interface Prop {
  urn: { label: string; name?: string };
  value: Row;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * pubchempy's `get`: a search (or a formula) is sent without its operation as JSON; a `Waiting`
 * answer is polled at `listkey/<key>/<operation>/JSON`, then asked once more in the wanted output.
 * Identifiers go in a form body, except CIDs of searches, formulas and cross-references, which go in
 * the path; cross-reference searches are asked in one call.
 */
async function pubchempyGet(
  app: FastifyInstance,
  identifier: string,
  namespace: string,
  operation: string | undefined,
  output: string,
  searchtype?: string,
  query = '',
): Promise<{ first: Res; last: Res }> {
  const url = (ns: string, id: string | undefined, op: string | undefined, out: string, search?: string) =>
    [B, 'compound', search, ns, id === undefined ? undefined : encodeURIComponent(id), op, out].filter((x) => x !== undefined).join('/') + query;
  const inPath = namespace === 'formula' || namespace === 'listkey' || searchtype === 'xref' || (searchtype !== undefined && namespace === 'cid');
  const send = (op: string | undefined, out: string) =>
    inPath ? req(app, url(namespace, identifier, op, out, searchtype)) : post(app, url(namespace, undefined, op, out, searchtype), { [namespace]: identifier });
  if ((searchtype === undefined || searchtype === 'xref') && namespace !== 'formula') {
    const only = await send(operation, output);
    return { first: only, last: only };
  }
  const first = await send(undefined, 'JSON');
  let last = first;
  const waiting = () => (last.body.Waiting as { ListKey?: string } | undefined)?.ListKey;
  const key = waiting();
  if (key === undefined) return { first, last };
  for (let i = 0; waiting() !== undefined; i++) {
    if (i === 200) throw new Error('the search never finished');
    await sleep(20);
    last = await req(app, url('listkey', key, operation, 'JSON'));
  }
  if (output !== 'JSON') last = await req(app, url('listkey', key, operation, output));
  return { first, last };
}

const cidsOf = (r: Res) => (r.body.IdentifierList as { CID: number[] }).CID;

describe('records loaded before the 2025 labels', () => {
  it('are served with the SMILES labelled Absolute and Connectivity', () => {
    const old = {
      props: [
        { urn: { label: 'SMILES', name: 'Canonical', datatype: 1 }, value: { sval: 'CC(N)C(=O)O' } },
        { urn: { label: 'SMILES', name: 'Isomeric', datatype: 1 }, value: { sval: 'C[C@H](N)C(=O)O' } },
        { urn: { label: 'IUPAC Name', name: 'Canonical', datatype: 1 }, value: { sval: 'x' } },
      ],
    };
    const names = (currentLabels(old).props as Prop[]).map((p) => `${p.urn.label}/${p.urn.name ?? ''}`);
    expect(names).toEqual(['SMILES/Connectivity', 'SMILES/Absolute', 'IUPAC Name/Canonical']);
  });
});

for (const target of STORES) {
  describe(`PubChem as pubchempy uses it, on ${target.name}`, () => {
    const suite = demoSuite(target);
    let app: FastifyInstance;
    beforeAll(() => {
      app = suite.t.app;
    });

    it('answers every non-fast search with a list key, and the operation at the key’s address as the fast search answers it', async () => {
      const searches: [string, string, string][] = [
        ['superstructure', 'smiles', 'CC(=O)OC1=CC=CC=C1C(=O)O'],
        ['substructure', 'smiles', 'c1ccccc1C(=O)O'],
        ['similarity', 'smiles', 'CC(C)CC1=CC=C(C=C1)C(C)C(=O)O'],
        ['identity', 'smiles', 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C'],
        ['substructure', 'cid', '2244'],
        // Aspirin's keys are PubChem's own in the demo file.
        ['similarity', 'cid', '2244'],
      ];
      for (const [search, ns, id] of searches) {
        const fastSearch = search === 'similarity' ? 'fastsimilarity_2d' : `fast${search}`;
        const direct = await post(app, `${B}/compound/${fastSearch}/${ns}/cids/JSON`, { [ns]: id });
        expect(direct.status, `${search} ${id}`).toBe(200);
        const { first, last } = await pubchempyGet(app, id, ns, 'cids', 'JSON', search);
        expect(first.status, `${search} ${id}`).toBe(202);
        expect(first.body).toEqual({ Waiting: { ListKey: expect.stringMatching(/^\d+$/), Message: 'Your request is running' } });
        expect(last.status).toBe(200);
        expect(cidsOf(last), `${search} ${id}`).toEqual(cidsOf(direct));
      }
    });

    it('answers a non-fast search with the list key whatever operation and output it names', async () => {
      const search = `${B}/compound/substructure/smiles/${encodeURIComponent('c1ccccc1C(=O)O')}`;
      for (const tail of ['cids/TXT', 'property/MolecularWeight/CSV', 'SDF', 'PNG', 'ASNB', 'ASNT', 'synonyms/JSON', 'aids/JSON', 'cids/XML', 'cids/JSONP']) {
        const r = await req(app, `${search}/${tail}`);
        expect(r.status, tail).toBe(202);
        const key = tail.endsWith('XML') ? /<ListKey>(\d+)<\/ListKey>/.exec(r.raw)?.[1] : /"ListKey": "(\d+)"/.exec(r.raw)?.[1];
        expect(key, tail).toMatch(/^\d+$/);
        const answer = await req(app, `${B}/compound/listkey/${key as string}/${tail}`);
        expect(answer.status, tail).toBe(200);
      }
    });

    it('feeds the list key to every operation and output pubchempy asks for', async () => {
      const aspirin = 'CC(=O)OC1=CC=CC=C1C(=O)O';
      const props = await pubchempyGet(app, aspirin, 'smiles', 'property/MolecularFormula,MolecularWeight', 'CSV', 'superstructure');
      expect(props.last.status).toBe(200);
      expect(props.last.headers['content-type']).toBe('text/csv');
      expect(props.last.raw).toContain('2244,"C9H8O4","180.16"');
      const txt = await pubchempyGet(app, aspirin, 'smiles', 'cids', 'TXT', 'superstructure');
      expect(txt.last.raw.trim().split('\n').map(Number)).toContain(241);
      const syn = await pubchempyGet(app, '2244', 'cid', 'synonyms', 'JSON', 'identity');
      expect((syn.last.body.InformationList as { Information: { Synonym: string[] }[] }).Information[0]?.Synonym ?? []).toContain('Aspirin');
      const records = await pubchempyGet(app, aspirin, 'smiles', undefined, 'JSON', 'identity');
      expect((records.last.body.PC_Compounds as { id: { id: { cid: number } } }[]).map((c) => c.id.id.cid)).toEqual([2244]);
      const sdf = await pubchempyGet(app, aspirin, 'smiles', undefined, 'SDF', 'identity');
      expect(sdf.last.raw.split('\n')[0]).toBe('2244');
      const xml = await pubchempyGet(app, aspirin, 'smiles', 'cids', 'XML', 'identity');
      expect(xml.last.raw).toMatch(/<IdentifierList[\s\S]*<CID>2244<\/CID>/);
      const asnt = await pubchempyGet(app, aspirin, 'smiles', undefined, 'ASNT', 'identity');
      expect(asnt.last.raw.startsWith('PC-Compounds ::= {')).toBe(true);
    });

    it('answers a formula search with a list key and a fastformula search at once', async () => {
      const formula = await pubchempyGet(app, 'C9H8O4', 'formula', 'cids', 'JSON');
      expect(formula.first.status).toBe(202);
      expect(cidsOf(formula.last)).toEqual([2244]);
      const fast = await req(app, `${B}/compound/fastformula/C9H8O4/cids/JSON`);
      expect(fast.status).toBe(200);
      expect(cidsOf(fast)).toEqual([2244]);
      const bad = await req(app, `${B}/compound/formula/c9h8o4/cids/JSON`);
      expect(bad.status).toBe(400);
      expect(fault(bad).Details?.[0]).toContain('c9h8o4');
    });

    it('answers a search that finds nothing with a list key whose address says No CID found (404)', async () => {
      const none = await pubchempyGet(app, '[Xe]', 'smiles', 'cids', 'JSON', 'substructure');
      expect(none.first.status).toBe(202);
      expect(none.last.status).toBe(404);
      expect(fault(none.last)).toMatchObject({ Code: 'PUGREST.NotFound', Message: 'No CID found' });
    });

    it('labels every output with PubChem’s exact content type', async () => {
      const cases: [string, string][] = [
        [`${B}/compound/cid/2244/JSON`, 'application/json'],
        [`${B}/compound/cid/2244/property/MolecularWeight/JSON`, 'application/json'],
        [`${B}/compound/cid/2244/XML`, 'application/xml'],
        [`${B}/compound/cid/2244/cids/JSONP?callback=f`, 'application/javascript'],
        [`${B}/compound/cid/2244/SDF`, 'chemical/x-mdl-sdfile'],
        [`${B}/compound/cid/2244/property/MolecularWeight/CSV`, 'text/csv'],
        [`${B}/compound/cid/2244/cids/TXT`, 'text/plain'],
        [`${B}/compound/cid/2244/PNG`, 'image/png'],
        [`${B}/compound/cid/2244/ASNT`, 'text/plain'],
        [`${B}/compound/cid/2244/ASNB`, 'application/ber-encoded'],
        [`${B}/compound/cid/999999999/JSON`, 'application/json'],
        [`${B}/compound/substructure/cid/2244/cids/JSON`, 'application/json'],
        [`${V}/data/compound/2244/JSON`, 'application/json'],
        [`${V}/data/compound/2244/XML`, 'application/xml'],
      ];
      for (const [url, type] of cases) {
        const r = await req(app, url);
        expect(r.status, url).toBeLessThan(500);
        expect(r.headers['content-type'], url).toBe(type);
      }
      // By the Accept header too, when the path names no output.
      const byAccept = await req(app, `${B}/compound/cid/2244/cids`, { headers: { accept: 'application/json' } });
      expect(byAccept.headers['content-type']).toBe('application/json');
      const ber = await req(app, `${B}/compound/cid/2244`, { headers: { accept: 'application/ber-encoded' } });
      expect(ber.headers['content-type']).toBe('application/ber-encoded');
    });

    it('labels the SMILES of records Absolute and Connectivity, as PubChem has since 2025', async () => {
      const r = await req(app, `${B}/compound/cid/2244,5950/JSON`);
      const [aspirin, alanine] = r.body.PC_Compounds as { props: Prop[] }[];
      const smiles = (c: { props: Prop[] } | undefined) => (c?.props ?? []).filter((p) => p.urn.label === 'SMILES').map((p) => [p.urn.name, p.value.sval]);
      expect(smiles(aspirin)).toEqual([
        ['Absolute', 'CC(=O)OC1=CC=CC=C1C(=O)O'],
        ['Connectivity', 'CC(=O)OC1=CC=CC=C1C(=O)O'],
      ]);
      // L-alanine: the absolute SMILES carries its stereocentre, the connectivity one does not.
      const table = await req(app, `${B}/compound/cid/5950/property/SMILES,ConnectivitySMILES/JSON`);
      const p = (table.body.PropertyTable as { Properties: { SMILES: string; ConnectivitySMILES: string }[] }).Properties[0];
      expect(smiles(alanine)).toEqual([
        ['Absolute', p?.SMILES],
        ['Connectivity', p?.ConnectivitySMILES],
      ]);
      expect(p?.SMILES).toContain('@');
      expect(p?.ConnectivitySMILES).not.toContain('@');
      const novel = await req(app, `${B}/compound/smiles/${encodeURIComponent('CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCN')}/JSON`);
      const names = ((novel.body.PC_Compounds as { props: Prop[] }[])[0]?.props ?? []).filter((p) => p.urn.label === 'SMILES').map((p) => p.urn.name);
      expect(names).toEqual(['Absolute', 'Connectivity']);
    });

    it('writes records as ASN.1 value notation that holds what the JSON record holds', async () => {
      const json = (await req(app, `${B}/compound/cid/2244,2519/JSON`)).body.PC_Compounds as Row[];
      const r = await req(app, `${B}/compound/cid/2244,2519/ASNT`);
      expect(r.status).toBe(200);
      const [doc, ...more] = parseAsn(r.raw);
      expect(more).toHaveLength(0);
      expect(doc?.type).toBe('PC-Compounds');
      const records = doc?.value as AsnValue[];
      expect(records).toHaveLength(2);
      const symbols: Record<number, string> = { 1: '#h', 6: '#c', 7: '#n', 8: '#o' };
      json.forEach((j, i) => {
        const a = records[i];
        const jr = j as {
          id: { id: { cid: number } };
          atoms: { aid: number[]; element: number[] };
          bonds: { order: number[] };
          coords: { conformers: { x: number[] }[] }[];
          props: Prop[];
          count: Row;
        };
        expect(at(a, 'id', 'id', 'cid')).toBe(jr.id.id.cid);
        expect(at(a, 'atoms', 'aid')).toEqual(jr.atoms.aid);
        expect(at(a, 'atoms', 'element')).toEqual(jr.atoms.element.map((e) => symbols[e]));
        expect(at(a, 'bonds', 'order')).toEqual(jr.bonds.order.map((o) => ['', '#single', '#double', '#triple'][o]));
        expect(at(a, 'coords', 0, 'type')).toEqual(['#twod', '#computed', '#units-unknown']);
        const xs = (at(a, 'coords', 0, 'conformers', 0, 'x') as [number, number, number][]).map(([m, base, e]) => m * base ** e);
        xs.forEach((x, k) => expect(x).toBeCloseTo(jr.coords[0]?.conformers[0]?.x[k] as number, 10));
        expect(at(a, 'count', 'heavy-atom')).toBe(jr.count.heavy_atom);
        const props = at(a, 'props') as { urn: Row; value: Row }[];
        expect(props).toHaveLength(jr.props.length);
        const absolute = props.find((p) => p.urn.label === 'SMILES' && p.urn.name === 'Absolute');
        expect(absolute?.urn.datatype).toBe('#string');
        expect(absolute?.value).toEqual({ sval: jr.props.find((p) => p.urn.name === 'Absolute')?.value.sval });
        const fp = props.find((p) => p.urn.label === 'Fingerprint');
        const jfp = jr.props.find((p) => p.urn.label === 'Fingerprint');
        if (jfp) expect(fp?.value).toEqual({ binary: `'${String(jfp.value.binary)}'H` });
      });
    });

    it('writes records as BER that decodes back to the same tree as the JSON record', async () => {
      const json = (await req(app, `${B}/compound/cid/2244,2519,5950/JSON`)).body.PC_Compounds as Row[];
      const r = await req(app, `${B}/compound/cid/2244,2519,5950/ASNB`);
      expect(r.status).toBe(200);
      const tlvs = readTlvs(r.rawPayload);
      expect(tlvs).toHaveLength(1);
      const decoded = decodeAs(PC_MODULE, 'PC-Compounds', tlvs[0] as never);
      expect(decoded).toEqual(fromJson(PC_MODULE, 'PC-Compounds', json));
      // Outermost: an indefinite-length SEQUENCE OF, then a compound, its id in [0], the CID in [1] > [0].
      expect(r.rawPayload.subarray(0, 10).toString('hex')).toBe('30803080a0803080a180');
      // A structure that is not in the database is written too (with an empty id).
      const novel = await req(app, `${B}/compound/smiles/CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCN/ASNB`);
      expect(novel.status).toBe(200);
      const back = decodeAs(PC_MODULE, 'PC-Compounds', readTlvs(novel.rawPayload)[0] as never);
      expect(back.t === 'list' && back.items.length).toBe(1);
    });

    it('lists the depositors of the loaded substances and assays (sources domain)', async () => {
      for (const kind of ['substance', 'assay']) {
        const r = await req(app, `${B}/sources/${kind}/JSON`);
        expect(r.status, kind).toBe(200);
        expect(r.headers['content-type']).toBe('application/json');
        expect(r.body).toEqual({ InformationList: { SourceName: ['biomirror demo'] } });
      }
      const xml = await req(app, `${B}/sources/substance/XML`);
      expect(xml.raw).toMatch(/<InformationList[\s\S]*<SourceName>biomirror demo<\/SourceName>/);
      const bad = await req(app, `${B}/sources/gene/JSON`);
      expect(bad.status).toBe(400);
      expect(fault(bad).Details?.[0]).toContain('gene');
      expect((await req(app, `${B}/sources/substance/CSV`)).status).toBe(400);
    });

    it('finds compounds and substances by registry number (xref/RN) and lists a compound’s registry numbers (xrefs/RN)', async () => {
      // pubchempy: get_cids('50-78-2', 'RN', searchtype='xref') puts the value in the path, synchronously.
      const rn = await pubchempyGet(app, '50-78-2', 'RN', 'cids', 'JSON', 'xref');
      expect(rn.first.status).toBe(200);
      expect(cidsOf(rn.last)).toEqual([2244]);
      const sub = await req(app, `${B}/substance/xref/RN/50-78-2/sids/JSON`);
      expect(sub.status).toBe(200);
      const sids = (sub.body.IdentifierList as { SID: number[] }).SID;
      expect(sids.length).toBeGreaterThan(0);
      const linked = await req(app, `${B}/substance/sid/${sids.join(',')}/cids/JSON?list_return=flat`);
      expect(cidsOf(linked)).toEqual([2244]);
      const x = await req(app, `${B}/compound/cid/2244,2519/xrefs/RN/JSON`);
      expect(x.body).toEqual({
        InformationList: {
          Information: [
            { CID: 2244, RN: ['50-78-2'] },
            { CID: 2519, RN: ['58-08-2'] },
          ],
        },
      });
      const txt = await req(app, `${B}/compound/cid/3672/xrefs/RN/TXT`);
      expect(txt.raw).toBe('15687-27-1\n');
      const none = await req(app, `${B}/compound/xref/RN/9999-99-9/cids/JSON`);
      expect(none.status).toBe(404);
      const badRn = await req(app, `${B}/compound/xref/RN/aspirin/cids/JSON`);
      expect(badRn.status).toBe(400);
      expect(fault(badRn).Details?.[0]).toContain('aspirin');
      const badType = await req(app, `${B}/compound/xref/Horoscope/1/cids/JSON`);
      expect(badType.status).toBe(400);
      expect(fault(badType).Details?.[0]).toContain('xref/Horoscope');
      // What needs a bulk file that is not loaded says which one.
      const patent = await req(app, `${B}/compound/xref/PatentID/US-636000-A/cids/JSON`);
      expect(patent.status).toBe(501);
      expect(fault(patent).Details?.[0]).toContain('CID-Patent');
      expect((await req(app, `${B}/compound/cid/2244/xrefs/PatentID/JSON`)).status).toBe(501);
    });

    it('writes substance records as ASN.1 too, their deposited and standardized compounds inside', async () => {
      const json = (await req(app, `${B}/substance/sid/900000001,900000002/JSON`)).body.PC_Substances as Row[];
      expect(json).toHaveLength(2);
      const ber = await req(app, `${B}/substance/sid/900000001,900000002/ASNB`);
      expect(ber.headers['content-type']).toBe('application/ber-encoded');
      expect(decodeAs(PC_MODULE, 'PC-Substances', readTlvs(ber.rawPayload)[0] as never)).toEqual(fromJson(PC_MODULE, 'PC-Substances', json));
      const text = await req(app, `${B}/substance/sid/900000001/ASNT`);
      const [doc] = parseAsn(text.raw);
      expect(doc?.type).toBe('PC-Substances');
      const sub = (doc?.value as AsnValue[])[0];
      const j = json[0] as { sid: { id: number }; source: { db: { name: string; source_id: { str: string } } }; compound: { id: { id?: { cid: number } } }[] };
      expect(at(sub, 'sid', 'id')).toBe(j.sid.id);
      expect(at(sub, 'source', 'db', 'name')).toBe(j.source.db.name);
      expect(at(sub, 'source', 'db', 'source-id', 'str')).toBe(j.source.db.source_id.str);
      const standardized = (at(sub, 'compound') as AsnValue[]).map((c) => at(c, 'id', 'id', 'cid')).filter((x) => x !== undefined);
      expect(standardized).toEqual(j.compound.map((c) => c.id.id?.cid).filter((x) => x !== undefined));
    });

    it('refuses ASN.1 for operations PubChem writes no ASN.1 for (400), and for assay descriptions (501)', async () => {
      const cids = await req(app, `${B}/compound/cid/2244/cids/ASNT`);
      expect(cids.status).toBe(400);
      expect(fault(cids).Details?.[0]).toContain('ASNT');
      const assay = await req(app, `${B}/assay/aid/9000001/description/ASNB`);
      expect(assay.status).toBe(501);
      expect(fault(assay).Code).toBe('PUGREST.Unimplemented');
    });
  });
}
