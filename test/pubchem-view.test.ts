import { beforeAll, describe, expect, it } from 'vitest';
import { fault, req, V, demoSuite } from './helpers/pubchem.js';
import { wellFormedXml } from './helpers/tools.js';
import { STORES } from './helpers/stores.js';
import type { TestApp } from './helpers/app.js';

interface Section {
  TOCHeading: string;
  Section?: Section[];
  Information?: { ReferenceNumber: number; Value: Record<string, unknown>; Reference?: string[] }[];
}
interface ViewRecord {
  RecordType: string;
  RecordNumber: number;
  RecordTitle?: string;
  Section: Section[];
  Reference: { ReferenceNumber: number; SourceName: string }[];
}

const record = (body: Record<string, unknown>) => body.Record as ViewRecord;

function find(sections: Section[], heading: string): Section | undefined {
  for (const s of sections) {
    if (s.TOCHeading === heading) return s;
    const inner = s.Section ? find(s.Section, heading) : undefined;
    if (inner) return inner;
  }
  return undefined;
}

function referenceNumbers(sections: Section[], into = new Set<number>()): Set<number> {
  for (const s of sections) {
    for (const i of s.Information ?? []) into.add(i.ReferenceNumber);
    if (s.Section) referenceNumbers(s.Section, into);
  }
  return into;
}

const SPEC_HEADINGS = [
  'Chemical and Physical Properties',
  'Drug and Medication Information',
  'Pharmacology and Biochemistry',
  'Safety and Hazards',
  'Toxicity',
  'Literature',
  'Patents',
  'Biomolecular Interactions and Pathways',
];

for (const target of STORES) {
  describe(`PubChem PUG View on ${target.name}`, () => {
    const suite = demoSuite(target);
    let t: TestApp;
    beforeAll(() => {
      t = suite.t;
    });

    it('builds the Record/Section tree of a compound, with references every Information points to', async () => {
      const r = await req(t.app, `${V}/data/compound/2244/JSON`);
      expect(r.status).toBe(200);
      const rec = record(r.body);
      expect(rec).toMatchObject({ RecordType: 'CID', RecordNumber: 2244, RecordTitle: 'Aspirin' });
      const headings = rec.Section.map((x) => x.TOCHeading);
      for (const h of ['Structures', 'Names and Identifiers', ...SPEC_HEADINGS, 'Biological Test Results']) expect(headings).toContain(h);
      const mw = find(rec.Section, 'Molecular Weight');
      expect(mw?.Information?.[0]?.Value).toEqual({ StringWithMarkup: [{ String: '180.16' }], Unit: 'g/mol' });
      expect(find(rec.Section, 'InChIKey')?.Information?.[0]?.Value).toEqual({ StringWithMarkup: [{ String: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N' }] });
      expect(find(rec.Section, 'XLogP3')?.Information?.[0]?.Reference?.[0]).toMatch(/^Computed by RDKit/);
      const used = referenceNumbers(rec.Section);
      const listed = new Set(rec.Reference.map((x) => x.ReferenceNumber));
      for (const n of used) expect(listed.has(n), `reference ${n}`).toBe(true);
    });

    it('selects each of the spec’s headings, keeping its parents and only its references', async () => {
      for (const h of SPEC_HEADINGS) {
        const r = await req(t.app, `${V}/data/compound/2244/JSON?heading=${encodeURIComponent(h)}`);
        expect(r.status, h).toBe(200);
        const rec = record(r.body);
        expect(
          rec.Section.map((x) => x.TOCHeading),
          h,
        ).toEqual([h]);
        expect(rec.Reference.map((x) => x.ReferenceNumber).sort()).toEqual([...referenceNumbers(rec.Section)].sort());
      }
      const inner = await req(t.app, `${V}/data/compound/2519/JSON?heading=${encodeURIComponent('hydrogen bond acceptor count')}`);
      const rec = record(inner.body);
      expect(rec.Section[0]?.TOCHeading).toBe('Chemical and Physical Properties');
      expect(rec.Section[0]?.Section?.[0]?.TOCHeading).toBe('Computed Properties');
      expect(rec.Section[0]?.Section?.[0]?.Section?.map((x) => x.TOCHeading)).toEqual(['Hydrogen Bond Acceptor Count']);
    });

    it('selects a sub-heading such as Solubility, cut to that sub-section under its parents, beside the computed sections', async () => {
      const full = record((await req(t.app, `${V}/data/compound/2244/JSON`)).body);
      // Loaded experimental properties join the computed ones under the same top heading.
      const props = full.Section.find((x) => x.TOCHeading === 'Chemical and Physical Properties');
      expect(props?.Section?.map((x) => x.TOCHeading)).toEqual(['Computed Properties', 'Experimental Properties']);
      const r = await req(t.app, `${V}/data/compound/2244/JSON?heading=Solubility`);
      expect(r.status).toBe(200);
      const rec = record(r.body);
      expect(rec.Section.map((x) => x.TOCHeading)).toEqual(['Chemical and Physical Properties']);
      expect(rec.Section[0]?.Section?.map((x) => x.TOCHeading)).toEqual(['Experimental Properties']);
      const leaf = rec.Section[0]?.Section?.[0]?.Section;
      expect(leaf?.map((x) => x.TOCHeading)).toEqual(['Solubility']);
      expect(leaf?.[0]).toEqual(find(full.Section, 'Solubility'));
      expect(rec.Reference.map((x) => x.ReferenceNumber)).toEqual([...referenceNumbers(rec.Section)]);
      // A sub-heading PubChem has, without data for this compound, is PubChem's 404.
      const none = await req(t.app, `${V}/data/compound/2519/JSON?heading=Solubility`);
      expect(none.status).toBe(404);
      expect(fault(none).Code).toBe('PUGVIEW.NotFound');
    });

    it('answers PUGVIEW faults: a heading without data (404), an unknown heading or format (400), an unknown CID (404)', async () => {
      const noData = await req(t.app, `${V}/data/compound/2519/JSON?heading=Toxicity`);
      expect(noData.status).toBe(404);
      expect(fault(noData)).toMatchObject({ Code: 'PUGVIEW.NotFound', Message: 'No data found' });
      const unknown = await req(t.app, `${V}/data/compound/2244/JSON?heading=Horoscope`);
      expect(unknown.status).toBe(400);
      expect(fault(unknown).Code).toBe('PUGVIEW.BadRequest');
      expect(fault(unknown).Details?.[0]).toContain('Horoscope');
      expect((await req(t.app, `${V}/data/compound/2244/PNG`)).status).toBe(400);
      expect((await req(t.app, `${V}/data/compound/abc/JSON`)).status).toBe(400);
      const missing = await req(t.app, `${V}/data/compound/999999999/JSON`);
      expect(missing.status).toBe(404);
      expect(fault(missing).Code).toBe('PUGVIEW.NotFound');
      expect((await req(t.app, `${V}/data/substance/1/JSON`)).status).toBe(404);
    });

    it('writes PUG View XML, and its faults as XML', async () => {
      const x = await req(t.app, `${V}/data/compound/2244/XML?heading=Patents`);
      expect(x.headers['content-type']).toMatch(/^application\/xml/);
      expect(x.raw).toContain('xmlns="http://pubchem.ncbi.nlm.nih.gov/pug_view"');
      expect(x.raw).toMatch(/<Section>\s*<TOCHeading>Patents<\/TOCHeading>/);
      const f = await req(t.app, `${V}/data/compound/2519/XML?heading=Toxicity`);
      expect(f.status).toBe(404);
      expect(f.raw).toMatch(/<Fault[\s\S]*<Code>PUGVIEW.NotFound<\/Code>/);
      for (const doc of [x.raw, f.raw]) expect(wellFormedXml(doc)).toBe('');
    });
  });
}
