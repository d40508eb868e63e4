/**
 * The fifteen endpoints of the pharmacogenomics service over the demo data, on each database:
 * fields and their types, every parameter and enumeration, and the errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers/app.js';
import { get, loadPgx, P, PGX_DEMO, pgxApp } from './helpers/pgx.js';
import { STORES, type OpenedStore } from './helpers/stores.js';

type J = Record<string, unknown>;
type Shape = Record<string, 'string' | 'number' | 'integer' | 'boolean' | 'string[]' | 'object' | 'array' | 'number|null'>;

/** Every field of the spec's resource is present with the spec's type. */
function expectShape(o: unknown, shape: Shape): void {
  expect(o).toBeTypeOf('object');
  const obj = o as J;
  for (const [k, type] of Object.entries(shape)) {
    const v = obj[k];
    const where = `field ${k}`;
    if (type === 'string[]') {
      expect(Array.isArray(v), where).toBe(true);
      for (const x of v as unknown[]) expect(typeof x, where).toBe('string');
    } else if (type === 'array') expect(Array.isArray(v), where).toBe(true);
    else if (type === 'object') expect(v !== null && typeof v === 'object' && !Array.isArray(v), where).toBe(true);
    else if (type === 'integer') expect(Number.isInteger(v), where).toBe(true);
    else if (type === 'number|null') expect(v === null || typeof v === 'number', where).toBe(true);
    else expect(typeof v, where).toBe(type);
  }
}

const GENE: Shape = { id: 'string', symbol: 'string', name: 'string', chromosome: 'string', chromosomeLocation: 'string', function: 'string', description: 'string', relatedDrugs: 'string[]' };
const DRUG: Shape = { id: 'string', name: 'string', genericNames: 'string[]', tradeNames: 'string[]', drugClasses: 'string[]', indication: 'string', relatedGenes: 'string[]' };
const PAIR: Shape = {
  gene: 'string',
  drug: 'string',
  sources: 'string[]',
  cpicLevel: 'string',
  evidenceLevel: 'string',
  clinicalAnnotationCount: 'integer',
  hasGuideline: 'boolean',
  guidelineUrl: 'string',
};
const GUIDELINE: Shape = {
  id: 'string',
  name: 'string',
  source: 'string',
  genes: 'string[]',
  drugs: 'string[]',
  recommendationLevel: 'string',
  lastUpdated: 'string',
  summary: 'string',
  recommendations: 'array',
  pdfUrl: 'string',
  pmid: 'string',
};
const ALLELE: Shape = { name: 'string', gene: 'string', function: 'string', activityScore: 'number|null', frequencies: 'object', definingVariants: 'string[]', pharmVarId: 'string' };
const VARIANT: Shape = {
  rsid: 'string',
  chromosome: 'string',
  position: 'integer',
  gene: 'string',
  alleles: 'string[]',
  consequence: 'string',
  clinicalSignificance: 'string',
  frequencies: 'object',
  references: 'array',
};
const ANNOTATION: Shape = {
  id: 'string',
  gene: 'string',
  drug: 'string',
  phenotype: 'string',
  evidenceLevel: 'string',
  annotation: 'string',
  pmid: 'string',
  studyType: 'string',
  population: 'string',
  sources: 'string[]',
};
const LABEL: Shape = { id: 'string', drug: 'string', source: 'string', sections: 'object', biomarkers: 'string[]', testingRecommended: 'boolean', labelUrl: 'string', lastUpdated: 'string' };
const PATHWAY: Shape = { id: 'string', name: 'string', description: 'string', diagramUrl: 'string', drugs: 'string[]', genes: 'string[]', steps: 'array' };

const field = (list: unknown, k: string) => (list as J[]).map((x) => x[k]);

for (const target of STORES) {
  describe(`pharmacogenomics API on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    const call = <T = unknown>(path: string) => get<T>(t.app, `${P}${path}`);
    const expectError = async (path: string, status: number, message: RegExp) => {
      const r = await call<J>(path);
      expect(r.status, path).toBe(status);
      expect(r.type).toMatch(/^application\/json/);
      expect(Object.keys(r.body).sort()).toEqual(['error', 'message']);
      expect(r.body.error).toBeTypeOf('string');
      expect(r.body.message, path).toMatch(message);
    };

    beforeAll(async () => {
      s = await target.open();
      t = await pgxApp(s);
      const r = await loadPgx(s, t.generations, PGX_DEMO);
      // Every demo row loads (the demo's README is passed over).
      expect(r.skipped).toBe(0);
    });
    afterAll(async () => {
      await t.close();
      await s.cleanup();
    });

    describe('GET /v1/gene/{gene_symbol}', () => {
      it('returns the gene with its clinical annotations as an array', async () => {
        const r = await call<J>('/gene/CYP2D6');
        expect(r.status).toBe(200);
        expect(r.type).toBe('application/json; charset=utf-8');
        expectShape(r.body, GENE);
        expect(r.body).toMatchObject({ id: 'PA128', symbol: 'CYP2D6', chromosome: '22', chromosomeLocation: '22q13.2' });
        const anns = r.body.clinicalAnnotations as J[];
        expect(Array.isArray(anns)).toBe(true);
        expect(field(anns, 'drug').sort()).toEqual(['codeine', 'tramadol']);
        for (const a of anns) expectShape(a, ANNOTATION);
        expect(r.body.relatedDrugs).toEqual(['codeine', 'tramadol']);
      });

      it('finds a gene by symbol in any case and by accession', async () => {
        expect((await call<J>('/gene/cyp2c19')).body.symbol).toBe('CYP2C19');
        expect((await call<J>('/gene/PA133787052')).body.symbol).toBe('VKORC1');
      });

      it('answers 404 for an unknown gene and 400 for an empty symbol', async () => {
        await expectError('/gene/CYP9Z9', 404, /Gene "CYP9Z9" not found/);
        await expectError('/gene/', 400, /gene_symbol/);
      });
    });

    describe('GET /v1/gene', () => {
      it('lists every gene by symbol, with the count of annotations', async () => {
        const r = await call<J[]>('/gene');
        expect(r.status).toBe(200);
        expect(field(r.body, 'symbol')).toEqual(['CYP2C19', 'CYP2C9', 'CYP2D6', 'DPYD', 'SLCO1B1', 'TPMT', 'VKORC1']);
        for (const g of r.body) {
          expectShape(g, GENE);
          expect(Number.isInteger(g.clinicalAnnotations)).toBe(true);
        }
        expect(r.body.find((g) => g.symbol === 'CYP2C9')?.clinicalAnnotations).toBe(1);
      });

      it('searches symbols, alternate symbols and names by their start, the exact symbol first', async () => {
        expect(field((await call('/gene?q=CYP2C')).body, 'symbol')).toEqual(['CYP2C19', 'CYP2C9']);
        expect(field((await call('/gene?q=cyp2c9')).body, 'symbol')).toEqual(['CYP2C9']);
        expect(field((await call('/gene?q=thiopurine')).body, 'symbol')).toEqual(['TPMT']);
        expect(field((await call('/gene?q=OATP1B1')).body, 'symbol')).toEqual(['SLCO1B1']);
        expect(field((await call('/gene?q=cytochrome%20P450%20family%202%20subfamily%20D')).body, 'symbol')).toEqual(['CYP2D6']);
        expect(field((await call('/gene?q=Dehydro')).body, 'symbol')).toEqual(['DPYD']);
        expect((await call('/gene?q=zzz')).body).toEqual([]);
      });
    });

    describe('GET /v1/chemical/{drug_id} and /v1/chemical', () => {
      it('returns a drug by accession, name or synonym', async () => {
        const r = await call<J>('/chemical/PA451906');
        expect(r.status).toBe(200);
        expectShape(r.body, DRUG);
        expect(r.body).toMatchObject({ name: 'warfarin', tradeNames: ['Coumadin', 'Jantoven'], relatedGenes: ['CYP2C9', 'VKORC1'] });
        expect(r.body.drugClasses).toEqual(['vitamin K antagonist', 'anticoagulant']);
        expect((await call<J>('/chemical/Warfarin')).body.id).toBe('PA451906');
        await expectError('/chemical/PA000001', 404, /Drug "PA000001" not found/);
      });

      it('searches by name or synonym, without regard to case', async () => {
        expect(field((await call('/chemical?name=plavix')).body, 'id')).toEqual(['PA449053']);
        expect(field((await call('/chemical?name=CODEINE')).body, 'name')).toEqual(['codeine']);
        expect((await call('/chemical?name=aspirin')).body).toEqual([]);
        const all = await call<J[]>('/chemical');
        expect(all.body).toHaveLength(9);
        for (const d of all.body) expectShape(d, DRUG);
        expect(field(all.body, 'name')).toEqual([...field(all.body, 'name')].sort());
      });
    });

    describe('GET /v1/geneDrugPair', () => {
      it('lists pairs with sources, levels, counts and guideline', async () => {
        const r = await call<J[]>('/geneDrugPair');
        expect(r.status).toBe(200);
        expect(r.body.length).toBeGreaterThanOrEqual(10);
        for (const p of r.body) expectShape(p, PAIR);
        const codeine = r.body.find((p) => p.gene === 'CYP2D6' && p.drug === 'codeine');
        expect(codeine).toEqual({
          gene: 'CYP2D6',
          drug: 'codeine',
          sources: ['CPIC', 'DPWG', 'FDA', 'Health Canada'],
          cpicLevel: 'A',
          evidenceLevel: '1A',
          clinicalAnnotationCount: 1,
          hasGuideline: true,
          guidelineUrl: 'https://cpicpgx.org/guidelines/guideline-for-codeine-and-cyp2d6/',
        });
        // A guideline annotation without a CPIC address gives PharmGKB's page of it.
        const statin = r.body.find((p) => p.drug === 'simvastatin');
        expect(statin).toMatchObject({ hasGuideline: true, guidelineUrl: 'https://www.pharmgkb.org/guidelineAnnotation/PA990010004' });
      });

      it('filters by gene, drug and CPIC level, together', async () => {
        expect(field((await call('/geneDrugPair?gene=CYP2D6')).body, 'drug')).toEqual(['codeine', 'tramadol']);
        expect(field((await call('/geneDrugPair?drug=warfarin')).body, 'gene')).toEqual(['CYP2C9', 'VKORC1']);
        expect(field((await call('/geneDrugPair?drug=Coumadin&gene=VKORC1')).body, 'gene')).toEqual(['VKORC1']);
        const a = await call<J[]>('/geneDrugPair?cpicLevel=A');
        expect(a.body).toHaveLength(10);
        expect(new Set(field(a.body, 'cpicLevel'))).toEqual(new Set(['A']));
        expect(field((await call('/geneDrugPair?cpicLevel=a&gene=TPMT')).body, 'drug')).toEqual(['azathioprine', 'mercaptopurine']);
        for (const level of ['B', 'C', 'D']) expect((await call(`/geneDrugPair?cpicLevel=${level}`)).body).toEqual([]);
      });

      it('refuses a level outside A–D, and unknown genes and drugs', async () => {
        await expectError('/geneDrugPair?cpicLevel=E', 400, /"cpicLevel".*A, B, C, D/);
        await expectError('/geneDrugPair?gene=NOPE1', 404, /Gene "NOPE1"/);
        await expectError('/geneDrugPair?drug=nodrug', 404, /Drug "nodrug"/);
      });
    });

    describe('GET /v1/guideline and /v1/guideline/{guideline_id}', () => {
      it('lists guidelines, filtered by source, gene and drug', async () => {
        const all = await call<J[]>('/guideline');
        expect(all.body).toHaveLength(7);
        for (const g of all.body) expectShape(g, GUIDELINE);
        expect(field((await call('/guideline?source=CPIC')).body, 'source')).toEqual(Array(6).fill('CPIC'));
        expect(field((await call('/guideline?source=dpwg')).body, 'id')).toEqual(['PA990010006']);
        expect((await call('/guideline?source=FDA')).body).toEqual([]);
        expect(field((await call('/guideline?drug=codeine')).body, 'source').sort()).toEqual(['CPIC', 'DPWG']);
        expect(field((await call('/guideline?gene=VKORC1')).body, 'id')).toEqual(['PA990010003']);
        expect(field((await call('/guideline?gene=CYP2D6&drug=codeine&source=CPIC')).body, 'id')).toEqual(['PA990010001']);
      });

      it('refuses a source outside the enumeration and unknown genes or drugs', async () => {
        await expectError('/guideline?source=WHO', 400, /"source".*CPIC, DPWG, FDA/);
        await expectError('/guideline?gene=NOPE1', 404, /Gene/);
        await expectError('/guideline?drug=nodrug', 404, /Drug/);
      });

      it('returns one guideline with its recommendations', async () => {
        const r = await call<J>('/guideline/PA990010001');
        expect(r.status).toBe(200);
        expectShape(r.body, GUIDELINE);
        expect(r.body).toMatchObject({ source: 'CPIC', genes: ['CYP2D6'], drugs: ['codeine'], recommendationLevel: 'Strong' });
        expect(r.body.summary).toMatch(/^CPIC recommends avoiding codeine/);
        const recs = r.body.recommendations as J[];
        expect(recs).toHaveLength(3);
        expect(recs[0]).toEqual({
          phenotypes: { CYP2D6: 'Ultrarapid Metabolizer' },
          implications: {},
          recommendation: 'Avoid codeine use because of potential for serious toxicity.',
          classification: 'Strong',
          population: '',
        });
        await expectError('/guideline/PA1', 404, /Guideline "PA1" not found/);
      });
    });

    describe('GET /v1/allele and /v1/allele/{allele_name}', () => {
      it('lists the alleles of a gene in star order', async () => {
        const r = await call<J[]>('/allele?gene=CYP2D6');
        expect(r.status).toBe(200);
        expect(field(r.body, 'name')).toEqual(['CYP2D6*1', 'CYP2D6*1x2', 'CYP2D6*2', 'CYP2D6*3', 'CYP2D6*4', 'CYP2D6*5', 'CYP2D6*6', 'CYP2D6*9', 'CYP2D6*10', 'CYP2D6*17', 'CYP2D6*41']);
        for (const a of r.body) expectShape(a, ALLELE);
        expect(new Set(field(r.body, 'function'))).toEqual(new Set(['normal function', 'increased function', 'no function', 'decreased function']));
        // A known gene without allele tables has none; the parameter is required.
        expect((await call('/allele?gene=VKORC1')).body).toEqual([]);
        await expectError('/allele', 400, /Missing required parameter "gene"/);
        await expectError('/allele?gene=', 400, /"gene"/);
        await expectError('/allele?gene=NOPE1', 404, /Gene "NOPE1"/);
      });

      it('returns one allele by star name', async () => {
        const r = await call<J>('/allele/CYP2D6%2A10');
        expect(r.body).toEqual({
          name: 'CYP2D6*10',
          gene: 'CYP2D6',
          function: 'decreased function',
          activityScore: 0.25,
          frequencies: {},
          definingVariants: ['rs1065852', 'rs1135840'],
          pharmVarId: '',
        });
        expect((await call<J>('/allele/cyp2c19*17')).body).toMatchObject({ name: 'CYP2C19*17', function: 'increased function', activityScore: null });
        expect((await call<J>('/allele/*3?gene=CYP2C9')).body).toMatchObject({ name: 'CYP2C9*3', activityScore: 0 });
        expect((await call<J>('/allele/DPYD%20c.1905%2B1G%3EA%20(*2A)')).body).toMatchObject({ gene: 'DPYD', function: 'no function', definingVariants: ['rs3918290'] });
        await expectError('/allele/CYP2D6*999', 404, /Allele "CYP2D6\*999" not found/);
      });
    });

    describe('GET /v1/variant/{rsid} and /v1/variant', () => {
      it('returns a variant with its GRCh38 position and alleles', async () => {
        const r = await call<J>('/variant/rs4244285');
        expect(r.status).toBe(200);
        expectShape(r.body, VARIANT);
        expect(r.body).toMatchObject({ rsid: 'rs4244285', chromosome: '10', position: 94781859, gene: 'CYP2C19', alleles: ['G', 'A'], clinicalSignificance: 'drug response' });
        expect((await call<J>('/variant/PA990040006')).body.rsid).toBe('rs9923231');
        const refs = (await call<J>('/variant/RS9923231')).body.references as J[];
        expect(refs).toEqual([{ type: 'Clinical Annotation', id: '990000004', url: 'https://www.pharmgkb.org/clinicalAnnotation/990000004', pmids: [] }]);
        await expectError('/variant/rs1', 404, /Variant "rs1" not found/);
      });

      it('lists variants by chromosome and position', async () => {
        const all = await call<J[]>('/variant');
        expect(field(all.body, 'chromosome')).toEqual(['1', '6', '10', '10', '10', '10', '12', '16', '22']);
        for (const v of all.body) expectShape(v, VARIANT);
        const ten = await call<J[]>('/variant?chromosome=10');
        expect(field(ten.body, 'position')).toEqual([94761900, 94781859, 94942290, 94981296]);
        expect(field((await call('/variant?chromosome=10&position=94942290')).body, 'rsid')).toEqual(['rs1799853']);
        expect(field((await call('/variant?position=21178615')).body, 'rsid')).toEqual(['rs4149056']);
        expect((await call('/variant?chromosome=x')).body).toEqual([]);
        for (const c of [...Array.from({ length: 22 }, (_, i) => String(i + 1)), 'X', 'Y']) {
          const r = await call<J[]>(`/variant?chromosome=${c}`);
          expect(r.status, c).toBe(200);
          expect(
            r.body.every((v) => v.chromosome === c),
            c,
          ).toBe(true);
        }
        expect((await call('/variant?chromosome=1&position=94942290')).body).toEqual([]);
      });

      it('refuses chromosomes outside 1–22, X, Y and malformed positions', async () => {
        for (const c of ['chr1', '23', 'MT', '0']) await expectError(`/variant?chromosome=${c}`, 400, /"chromosome".*1, 2, .*22, X, Y/);
        for (const p of ['abc', '0', '-5', '1.5', '99999999999']) await expectError(`/variant?position=${p}`, 400, /"position"/);
      });
    });

    describe('GET /v1/clinicalAnnotation', () => {
      it('lists annotations with every field and their sources', async () => {
        const r = await call<J[]>('/clinicalAnnotation');
        expect(r.body).toHaveLength(8);
        for (const a of r.body) expectShape(a, ANNOTATION);
        const codeine = r.body.find((a) => a.drug === 'codeine') as J;
        expect(codeine).toMatchObject({ gene: 'CYP2D6', evidenceLevel: '1A', phenotype: 'Pain', studyType: 'Efficacy;Toxicity' });
        expect(codeine.sources).toEqual(['PharmGKB', 'CPIC', 'DPWG', 'FDA', 'Health Canada']);
        expect((codeine.annotation as string).split('\n').map((l) => l.split(':')[0])).toEqual(['*1', '*1xN', '*4']);
        // The tramadol guideline is not loaded: its source comes from the evidence's title.
        expect(r.body.find((a) => a.drug === 'tramadol')?.sources).toEqual(['PharmGKB', 'CPIC']);
      });

      it('filters by gene, drug, evidence level and phenotype', async () => {
        expect(field((await call('/clinicalAnnotation?gene=CYP2C19')).body, 'id')).toEqual(['990000003']);
        expect(field((await call('/clinicalAnnotation?drug=Plavix')).body, 'id')).toEqual(['990000003']);
        expect(field((await call('/clinicalAnnotation?drug=PA451906')).body, 'gene')).toEqual(['VKORC1', 'CYP2C9']);
        expect(field((await call('/clinicalAnnotation?gene=TPMT&drug=azathioprine')).body, 'id')).toEqual(['990000008']);
        expect((await call('/clinicalAnnotation?gene=CYP2D6&drug=warfarin')).body).toEqual([]);
        expect((await call<J[]>('/clinicalAnnotation?evidenceLevel=1a')).body).toHaveLength(8);
        for (const level of ['1B', '2A', '2B', '3', '4']) expect((await call(`/clinicalAnnotation?evidenceLevel=${level}`)).body).toEqual([]);
        expect(field((await call('/clinicalAnnotation?phenotype=myopathy')).body, 'gene')).toEqual(['SLCO1B1']);
        expect(field((await call('/clinicalAnnotation?phenotype=Dosage')).body, 'drug')).toEqual(['warfarin', 'warfarin']);
        expect((await call('/clinicalAnnotation?phenotype=headache')).body).toEqual([]);
      });

      it('refuses levels outside the scale and unknown genes or drugs', async () => {
        await expectError('/clinicalAnnotation?evidenceLevel=5', 400, /"evidenceLevel".*1A, 1B, 2A, 2B, 3, 4/);
        await expectError('/clinicalAnnotation?gene=NOPE1', 404, /Gene/);
        await expectError('/clinicalAnnotation?drug=nodrug', 404, /Drug/);
      });
    });

    describe('GET /v1/drugLabel', () => {
      it('lists the labels of a drug, filtered by source', async () => {
        const r = await call<J[]>('/drugLabel?drug=codeine');
        expect(field(r.body, 'source')).toEqual(['FDA', 'Health Canada']);
        for (const l of r.body) {
          expectShape(l, LABEL);
          expectShape(l.sections, { testing: 'string', dosing: 'string', warnings: 'string' });
        }
        expect(field((await call('/drugLabel?drug=codeine&source=FDA')).body, 'id')).toEqual(['PA990020001']);
        expect(field((await call('/drugLabel?drug=codeine&source=Health%20Canada')).body, 'id')).toEqual(['PA990020007']);
        expect(field((await call('/drugLabel?drug=codeine&source=HCSC')).body, 'id')).toEqual(['PA990020007']);
        expect(field((await call('/drugLabel?drug=clopidogrel&source=EMA')).body, 'id')).toEqual(['PA990020006']);
        expect((await call('/drugLabel?drug=codeine&source=PMDA')).body).toEqual([]);
        const warfarin = (await call<J[]>('/drugLabel?drug=warfarin')).body[0] as J;
        expect(warfarin).toMatchObject({ biomarkers: ['CYP2C9', 'VKORC1'], testingRecommended: false, labelUrl: 'https://www.pharmgkb.org/labelAnnotation/PA990020003' });
        expect((warfarin.sections as J).dosing).toMatch(/CYP2C9 and VKORC1 genotype/);
        expect((await call<J[]>('/drugLabel?drug=mercaptopurine')).body[0]?.testingRecommended).toBe(true);
      });

      it('requires the drug and refuses sources outside the enumeration', async () => {
        await expectError('/drugLabel', 400, /Missing required parameter "drug"/);
        await expectError('/drugLabel?source=FDA', 400, /"drug"/);
        await expectError('/drugLabel?drug=codeine&source=CPIC', 400, /"source".*FDA, EMA, PMDA, Health Canada/);
        await expectError('/drugLabel?drug=nodrug', 404, /Drug "nodrug"/);
      });
    });

    describe('GET /v1/pathway/{pathway_id} and /v1/pathway', () => {
      it('returns a pathway with its steps', async () => {
        const r = await call<J>('/pathway/PA990030002');
        expect(r.status).toBe(200);
        expectShape(r.body, PATHWAY);
        expect(r.body.name).toBe('Clopidogrel Pathway Pharmacokinetics');
        const steps = r.body.steps as J[];
        expect(steps[0]).toEqual({ step: 1, process: 'clopidogrel → 2-oxo-clopidogrel (Biochemical Reaction)', genes: ['CYP1A2', 'CYP2B6', 'CYP2C19'] });
        expect(field(steps, 'step')).toEqual([1, 2, 3]);
        await expectError('/pathway/PA1', 404, /Pathway "PA1" not found/);
      });

      it('lists pathways by gene and drug', async () => {
        expect(field((await call('/pathway')).body, 'id')).toEqual(['PA990030002', 'PA990030001', 'PA990030003']);
        expect(field((await call('/pathway?gene=CYP2C19')).body, 'id')).toEqual(['PA990030002']);
        expect(field((await call('/pathway?gene=CYP3A4')).body, 'id')).toEqual(['PA990030002', 'PA990030001', 'PA990030003']);
        expect(field((await call('/pathway?drug=codeine&gene=UGT2B7')).body, 'id')).toEqual(['PA990030001']);
        expect((await call('/pathway?drug=simvastatin')).body).toEqual([]);
        await expectError('/pathway?gene=NOPE1', 404, /Gene/);
      });
    });

    describe('the real service’s /v1/data forms', () => {
      it('wraps the same resources in {data, status} with objCls', async () => {
        const g = await call<J>('/data/gene?symbol=CYP2C9');
        expect(g.status).toBe(200);
        expect(g.body.status).toBe('success');
        expect((g.body.data as J[])[0]).toMatchObject({ objCls: 'Gene', id: 'PA126', symbol: 'CYP2C9' });
        expect((await call<J>('/data/gene/PA126')).body.data).toMatchObject({ objCls: 'Gene', symbol: 'CYP2C9' });
        expect((await call<J>('/data/chemical?name=Zocor')).body.data).toMatchObject([{ objCls: 'Chemical', name: 'simvastatin' }]);
        expect((await call<J>('/data/chemical/PA451363')).body.data).toMatchObject({ objCls: 'Chemical', name: 'simvastatin' });
        expect((await call<J>('/data/variant?symbol=rs1057910')).body.data).toMatchObject([{ objCls: 'Variant', position: 94981296 }]);
        expect((await call<J>('/data/variant/PA990040005')).body.data).toMatchObject({ objCls: 'Variant', rsid: 'rs1057910' });
      });

      it('takes the real parameter names for annotations, guidelines, labels and pathways', async () => {
        const ids = async (path: string) => field((await call<J>(path)).body.data, 'id');
        expect(await ids('/data/clinicalAnnotation?location.genes.symbol=CYP2C9&relatedChemicals.name=warfarin')).toEqual(['990000005']);
        expect(await ids('/data/clinicalAnnotation?location.fingerprint=rs9923231')).toEqual(['990000004']);
        expect(await ids('/data/clinicalAnnotation?relatedChemicals.accessionId=PA451363&levelOfEvidence.term=1A')).toEqual(['990000006']);
        expect((await call<J>('/data/clinicalAnnotation/990000006')).body.data).toMatchObject({ objCls: 'Clinical Annotation', gene: 'SLCO1B1' });
        expect(await ids('/data/guidelineAnnotation?source=cpic&relatedGenes.symbol=CYP2C19')).toEqual(['PA990010002']);
        expect((await call<J>('/data/guidelineAnnotation/PA990010002')).body.data).toMatchObject({ objCls: 'Guideline Annotation' });
        expect(await ids('/data/label?source=fda&relatedGenes.symbol=CYP2D6')).toEqual(['PA990020001']);
        expect((await call<J>('/data/label/PA990020006')).body.data).toMatchObject({ objCls: 'Label Annotation', source: 'EMA' });
        expect(await ids('/data/pathway?relatedChemicals.name=warfarin')).toEqual(['PA990030003']);
        expect((await call<J>('/data/pathway/PA990030003')).body.data).toMatchObject({ objCls: 'Pathway' });
      });

      it('answers 404 for a search without results, and 400 for values outside the enumerations', async () => {
        await expectError('/data/label?relatedChemicals.name=simvastatin', 404, /No label annotations found/);
        await expectError('/data/gene?symbol=NOPE1', 404, /Gene "NOPE1"/);
        await expectError('/data/clinicalAnnotation?levelOfEvidence.term=9', 400, /levelOfEvidence.term/);
        await expectError('/data/guidelineAnnotation?source=nope', 400, /"source"/);
      });
    });

    it('answers unknown paths and other methods with the service’s 404 body', async () => {
      await expectError('/genes/CYP2D6', 404, /No such endpoint: GET \/pgx\/v1\/genes\/CYP2D6/);
      const post = await t.app.inject({ method: 'POST', url: `${P}/gene/CYP2D6` });
      expect(post.statusCode).toBe(404);
      expect(post.json()).toEqual({ error: 'Not Found', message: 'No such endpoint: POST /pgx/v1/gene/CYP2D6' });
    });
  });

  describe(`pharmacogenomics API before any load on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    beforeAll(async () => {
      s = await target.open();
      t = await pgxApp(s);
    });
    afterAll(async () => {
      await t.close();
      await s.cleanup();
    });

    it('answers lists with [] and lookups and filters with 404', async () => {
      for (const path of ['/gene', '/chemical', '/geneDrugPair', '/guideline', '/variant', '/clinicalAnnotation', '/pathway']) {
        const r = await get(t.app, `${P}${path}`);
        expect(r.status, path).toBe(200);
        expect(r.body, path).toEqual([]);
      }
      for (const path of [
        '/gene/CYP2D6',
        '/chemical/PA449088',
        '/guideline/PA1',
        '/allele/CYP2D6*1',
        '/variant/rs1',
        '/pathway/PA1',
        '/allele?gene=CYP2D6',
        '/drugLabel?drug=codeine',
        '/clinicalAnnotation?gene=CYP2D6',
      ]) {
        expect((await get(t.app, `${P}${path}`)).status, path).toBe(404);
      }
    });
  });
}
