/**
 * Loading PharmGKB's downloads as published (zips of TSV and JSON, the newer summary-annotation
 * names, CPIC's tables), what is refused and reported, and atomic reloads, on each database.
 * The fixtures are synthetic (genes GENEA…, drugs drugone…), written in the files' own formats.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { drugName, geneSymbol, writePgxDownloads } from '../synthetic/pgx-generate.js';
import { ZipWriter } from '../synthetic/zip.js';
import type { SkipPlace } from '../src/core/ingest/dataset.js';
import { FormatError } from '../src/core/ingest/errors.js';
import type { TestApp } from './helpers/app.js';
import { get, loadPgx, P, pgxApp, tsv, writeTree } from './helpers/pgx.js';
import { STORES, tempDir, type OpenedStore } from './helpers/stores.js';

type J = Record<string, unknown>;

const GENES_H = [
  'PharmGKB Accession Id',
  'NCBI Gene ID',
  'HGNC ID',
  'Ensembl Id',
  'Name',
  'Symbol',
  'Alternate Names',
  'Alternate Symbols',
  'Is VIP',
  'Has Variant Annotation',
  'Cross-references',
  'Has CPIC Dosing Guideline',
  'Chromosome',
  'Chromosomal Start - GRCh37',
  'Chromosomal Stop - GRCh37',
  'Chromosomal Start - GRCh38',
  'Chromosomal Stop - GRCh38',
];
const gene = (id: string, symbol: string, name: string, chr: string, alt = '') => [id, '1', '', '', name, symbol, '', alt, 'No', 'No', '"NCBI Gene:1","HGNC:HGNC:1"', 'No', chr, '', '', '', ''];
const DRUGS_H = ['PharmGKB Accession Id', 'Name', 'Generic Names', 'Trade Names', 'Brand Mixtures', 'Type', 'Cross-references', 'SMILES', 'InChI', 'Dosing Guideline', 'External Vocabulary'];
const drug = (id: string, name: string, trade = '') => [id, name, '', trade, '', 'Drug', '', '', '', 'No', `"""ATC:X01(${name})"", ""ATC:X02(${name}, combinations)"""`];
const ANN_H = [
  'Summary Annotation ID',
  'Variant/Haplotypes',
  'Gene',
  'Level of Evidence',
  'Level Override',
  'Level Modifiers',
  'Score',
  'Phenotype Category',
  'PMID Count',
  'Evidence Count',
  'Drug(s)',
  'Phenotype(s)',
  'Latest History Date (YYYY-MM-DD)',
  'URL',
  'Specialty Population',
];
const ann = (id: string, variant: string, gene: string, level: string, drugs: string, phenos = '', pop = '') => [
  id,
  variant,
  gene,
  level,
  '',
  '',
  '1.0',
  'Toxicity',
  '1',
  '1',
  drugs,
  phenos,
  '2024-05-06',
  `https://www.pharmgkb.org/clinicalAnnotation/${id}`,
  pop,
];

/** A complete set of downloads as zips, plus CPIC's tables as text files. */
async function publishedDownloads(dir: string): Promise<string> {
  const zip = async (name: string, entries: Record<string, string>) => {
    const w = new ZipWriter(join(dir, name));
    for (const [n, text] of Object.entries(entries)) await w.add(n, text);
    await w.close();
  };
  await zip('genes.zip', {
    'genes.tsv': tsv(GENES_H, [
      gene('PA900001', 'GENEA', 'first test gene', 'chr7', '"GA1","GA-ALT"'),
      gene('PA900002', 'GENEB', 'second test gene', 'chrX'),
      gene('PA900003', 'GENEC', 'third test gene', 'chr1'),
      gene('bad-id', 'GENEZ', 'malformed accession', 'chr2'),
      gene('PA900004', '', 'no symbol', 'chr2'),
    ]),
    'LICENSE.txt': 'licence text',
    'CREATED_2025-02-03.txt': 'created',
  });
  await zip('drugs.zip', { 'drugs.tsv': tsv(DRUGS_H, [drug('PA910001', 'drugone', 'Onebrand'), drug('PA910002', 'drugtwo'), drug('PA910003', 'drugthree')]) });
  // chemicals.tsv repeats drugs.tsv and adds one: the repeats are reported as duplicates.
  await zip('chemicals.zip', { 'chemicals.tsv': tsv(DRUGS_H, [drug('PA910001', 'drugone', 'Onebrand'), drug('PA910004', 'drugfour')]) });
  await zip('variants.zip', {
    'variants.tsv': tsv(
      [
        'Variant ID',
        'Variant Name',
        'Gene IDs',
        'Gene Symbols',
        'Location',
        'Variant Annotation count',
        'Clinical Annotation count',
        'Level 1/2 Clinical Annotation count',
        'Guideline Annotation count',
        'Label Annotation count',
        'Synonyms',
      ],
      [
        ['PA920001', 'rs100', 'PA900001', 'GENEA', 'NC_000007.14:1000', '1', '1', '1', '0', '0', 'NC_000007.14:g.1000A>G, NC_000007.14:g.1000A>T, NC_000007.13:g.900A>G, rs100'],
        ['PA920002', 'rs200', 'PA900001,PA900002', 'GENEA,GENEB', 'NC_000023.11:500_502', '1', '0', '0', '0', '0', 'NC_000023.11:g.500_502del'],
        ['PA920003', 'rs300', '', '', '', '0', '0', '0', '0', '0', ''],
      ],
    ),
  });
  await zip('summaryAnnotations.zip', {
    'summary_annotations.tsv': tsv(ANN_H, [
      ann('1000000001', 'rs100', 'GENEA', '3', 'drugone', 'Neutropenia'),
      ann('1000000002', 'GENEA*1, GENEA*2', 'GENEA', '1B', 'drugone;drugtwo', 'Hepatitis C, Chronic;Neutropenia', 'Pediatric'),
      ann('1000000003', 'rs100', 'GENEA;GENEB', '2A', 'Onebrand'),
      ann('1000000004', 'rs200', 'GENEB', '4', 'drugtwo'),
      ann('x1', 'rs1', 'GENEA', '1A', 'drugone'),
    ]),
    'summary_ann_alleles.tsv': tsv(
      ['Summary Annotation ID', 'Genotype/Allele', 'Annotation Text', 'Allele Function'],
      [
        ['1000000001', 'GG', 'Genotype GG text.', ''],
        ['1000000001', 'AA', 'Genotype AA text.', ''],
        ['1000000002', '*10', 'Star ten text.', 'Decreased function'],
        ['1000000002', '*2', 'Star two text.', 'No function'],
      ],
    ),
    'summary_ann_evidence.tsv': tsv(
      ['Summary Annotation ID', 'Evidence ID', 'Evidence Type', 'Evidence URL', 'PMID', 'Summary', 'Score'],
      [
        ['1000000001', '2000000002', 'Variant Drug Annotation', 'https://www.pharmgkb.org/variantAnnotation/2000000002', '22222222.0', 'Allele G is associated.', '1.0'],
        ['1000000001', '2000000001', 'Variant Phenotype Annotation', 'https://www.pharmgkb.org/variantAnnotation/2000000001', '11111111', 'Allele A is associated.', '1.0'],
        ['1000000002', 'PA930001', 'Guideline Annotation', 'https://www.pharmgkb.org/guidelineAnnotation/PA930001', '', 'Annotation of CPIC Guideline for drugone and GENEA', '100'],
        ['1000000002', 'PA940009', 'Label Annotation', 'https://www.pharmgkb.org/labelAnnotation/PA940009', '', 'Annotation of HCSC Label for drugtwo and GENEA', '100'],
      ],
    ),
    'summary_ann_history.tsv': tsv(['Summary Annotation ID', 'Date (YYYY-MM-DD)', 'Type', 'Comment'], [['1000000001', '2024-05-06', 'Update', 'x']]),
  });
  await zip('relationships.zip', {
    'relationships.tsv': tsv(
      ['Entity1_id', 'Entity1_name', 'Entity1_type', 'Entity2_id', 'Entity2_name', 'Entity2_type', 'Evidence', 'Association', 'PK', 'PD', 'PMIDs'],
      [
        ['PA900003', 'GENEC', 'Gene', 'PA910003', 'drugthree', 'Chemical', 'VariantAnnotation', 'associated', '', 'PD', '1;2'],
        ['PA910003', 'drugthree', 'Chemical', 'PA900003', 'GENEC', 'Gene', 'VariantAnnotation', 'associated', '', 'PD', '1;2'],
        ['PA900002', 'GENEB', 'Gene', 'PA910004', 'drugfour', 'Chemical', 'VariantAnnotation', 'not associated', '', '', ''],
        ['PA920001', 'rs100', 'Variant', 'PA910001', 'drugone', 'Chemical', 'VariantAnnotation', 'associated', '', '', ''],
      ],
    ),
  });
  await zip('drugLabels.zip', {
    'drugLabels.tsv': tsv(
      [
        'PharmGKB ID',
        'Name',
        'Source',
        'Biomarker Flag',
        'Testing Level',
        'Has Prescribing Info',
        'Has Dosing Info',
        'Has Alternate Drug',
        'Has Other Prescribing Guidance',
        'Cancer Genome',
        'Prescribing',
        'Chemicals',
        'Genes',
        'Variants/Haplotypes',
        'Latest History Date (YYYY-MM-DD)',
      ],
      [
        [
          'PA940001',
          'Annotation of FDA Label for drugone and GENEA',
          'FDA',
          'On FDA Biomarker List',
          'Testing Required',
          'Prescribing Info',
          'Dosing Info',
          '',
          '',
          '',
          '',
          'drugone',
          'GENEA',
          'GENEA*2',
          '2023-01-02',
        ],
        ['PA940009', 'Annotation of HCSC Label for drugtwo and GENEA', 'HCSC', '', 'Informative PGx', '', '', '', '', '', '', 'drugtwo', 'GENEA', '', '2022-03-04'],
        ['PA940010', 'Annotation of PMDA Label for drugtwo', 'PMDA', '', 'Actionable PGx', '', '', '', '', '', '', 'drugtwo', '', '', ''],
      ],
    ),
    'drugLabels.byGene.tsv': tsv(['Gene ID', 'Gene Symbol', 'Label IDs', 'Label Names'], [['PA900001', 'GENEA', 'PA940001', 'x']]),
  });
  await zip('pathways-tsv.zip', {
    'PA950001-Drugone_Pathway_Pharmacokinetics.tsv': tsv(
      ['From', 'To', 'Reaction Type', 'Controller', 'Control Type', 'Cell Type', 'PubMed Id', 'Genes', 'Drugs', 'Diseases'],
      [
        ['drugone', 'metabolite one', 'Biochemical Reaction', 'GENEA', 'Catalysis', '', '', '"GENEA","GENEB"', 'drugone', ''],
        ['metabolite one', '', 'Transport', 'GENEC', 'Catalysis', '', '', 'GENEC', '', ''],
      ],
    ),
  });
  const guideline = {
    citations: [{ crossReferences: [{ resource: 'PubMed', resourceId: '33333333' }] }],
    guideline: {
      objCls: 'Guideline Annotation',
      id: 'PA930001',
      name: 'Annotation of CPIC Guideline for drugone and GENEA',
      source: 'CPIC',
      // Named otherwise than in drugs.tsv: the accession decides.
      relatedChemicals: [{ objCls: 'Chemical', id: 'PA910001', name: 'Drug One' }],
      relatedGenes: [{ objCls: 'Gene', id: 'PA900001', symbol: 'GENEA' }],
      summaryMarkdown: { html: '<p>First &amp; second</p><p>line <b>two</b></p>' },
      literature: [{ title: 'Paper', crossReferences: [{ resource: 'PubMed', resourceId: '44444444' }] }],
      history: [
        { date: '2021-01-01T00:00:00-08:00', type: 'Create' },
        { date: '2024-07-08T10:00:00-07:00', type: 'Update' },
      ],
      crossReferences: [{ resource: 'URL', resourceId: 'https://example.org/guideline.pdf', _url: 'https://example.org/guideline.pdf' }],
    },
    recommendations: [
      {
        lookupKey: { GENEA: 'Poor Metabolizer' },
        implications: { GENEA: '<p>Less active.</p>' },
        text: { html: '<p>Use another drug.</p>' },
        classification: { term: 'Moderate' },
        population: { term: 'adults' },
      },
      { phenotypes: { GENEA: 'Normal Metabolizer' }, recommendation: 'Use as labelled.', classification: 'Strong' },
    ],
  };
  await zip('guidelineAnnotations.json.zip', {
    'PA930001.json': JSON.stringify(guideline),
    'PA930002.json': JSON.stringify({
      guideline: { objCls: 'Guideline Annotation', id: 'PA930002', name: 'DPWG one', source: 'DPWG', relatedGenes: [{ symbol: 'GENEB' }], relatedChemicals: [{ name: 'drugtwo' }] },
    }),
    'broken.json': '{"guideline": ',
    'other.json': JSON.stringify({ something: 'else' }),
  });
  // Another JSON download (an array of pathway objects) is passed over without reports.
  await zip('pathways.json.zip', { 'pathways.json': JSON.stringify([{ objCls: 'Pathway', id: 'PA950001', name: 'x' }]) });
  writeTree(dir, {
    'cpic/cpic_gene-drug_pairs.csv': [
      'Gene,Drug,Guideline,CPIC Level,CPIC Level Status,PharmGKB Level of Evidence,PGx on FDA Label,CPIC Publications (PMID)',
      'GENEA,drugone,https://example.org/cpic/genea-drugone,A,Final,1A,Testing Required,',
      'GENEB,drugtwo,,B,Provisional,4,,',
      'GENEC,drugthree,,C,Final,,,',
      'GENEB,"drugfour",,D,Final,,,',
    ].join('\n'),
    'alleles/GENEA_allele_functionality_reference.tsv': tsv(
      ['Allele/cDNA/rsID', 'Activity Value (Optional)', 'Allele Biochemical Functional Status (Optional)', 'Allele Clinical Functional Status (Required)', 'PharmVar ID', 'Defining Variants'],
      [
        ['*1', '1.0', '', 'Normal function', 'PV00001', ''],
        ['*2', '0', '', 'No function', 'PV00002', 'rs100'],
        ['*10', '0.25', '', 'Decreased function', '', 'rs100, rs200'],
        ['*1x≥3', '≥3.0', '', 'Increased function', '', ''],
        ['', '1', '', 'Normal function', '', ''],
      ],
    ).replace(/^/, 'GENEA Allele Functionality Table\n'),
    'alleles/GENEA_frequency_table.tsv': tsv(
      ['Allele', 'European', 'East Asian', 'Sub-Saharan African'],
      [
        ['*1', '0.5', '0.4', ''],
        ['*2', '0.2', '0.01', 'n/a'],
      ],
    ),
    'README.md': 'not data',
  });
  return dir;
}

for (const target of STORES) {
  describe(`pharmacogenomics ingest on ${target.name}`, () => {
    let s: OpenedStore;
    let t: TestApp;
    beforeEach(async () => {
      s = await target.open();
      t = await pgxApp(s);
    });
    afterEach(async () => {
      await t.close();
      await s.cleanup();
    });
    const call = <T = J>(path: string) => get<T>(t.app, `${P}${path}`);

    it('loads the published zips and CPIC tables, reporting what it refuses', async () => {
      const skipped: [SkipPlace, string][] = [];
      const r = await loadPgx(s, t.generations, await publishedDownloads(tempDir()), { onSkip: (p, why) => skipped.push([p, why]), batchSize: 7 });
      expect(r.release).toBe('2025-02-03');
      const reasons = skipped.map(([p, why]) => `${String(p.file).split('/').pop()} ${p.position}: ${why.replace(/^(invalid JSON).*/, '$1')}`);
      // Files are read in name order: chemicals.zip comes before drugs.zip, whose repeat is refused.
      expect(reasons.sort()).toEqual([
        'GENEA_allele_functionality_reference.tsv line 7: allele table: no allele name',
        'drugs.zip!drugs.tsv line 2: duplicate: a record with the same identifier was already loaded from an earlier place',
        'genes.zip!genes.tsv line 5: genes.tsv: malformed PharmGKB accession "bad-id"',
        'genes.zip!genes.tsv line 6: genes.tsv: no gene symbol',
        'guidelineAnnotations.json.zip!broken.json file: invalid JSON',
        'guidelineAnnotations.json.zip!other.json file: no "guideline" object',
        'summaryAnnotations.zip!summary_annotations.tsv line 6: clinical_annotations.tsv / summary_annotations.tsv: malformed annotation id "x1"',
      ]);

      const genea = (await call('/gene/GENEA')).body;
      expect(genea).toMatchObject({ id: 'PA900001', chromosome: '7', chromosomeLocation: '', function: '', description: '' });
      expect((await call('/gene/GENEB')).body.chromosome).toBe('X');
      expect((await call<J[]>('/gene?q=ga-alt')).body.map((g) => g.symbol)).toEqual(['GENEA']);
      expect((await call('/chemical/PA910004')).body.name).toBe('drugfour');
      expect((await call<J[]>('/chemical?name=onebrand')).body.map((d) => d.id)).toEqual(['PA910001']);
    });

    it('derives annotations, pairs and related entities across the files', async () => {
      await loadPgx(s, t.generations, await publishedDownloads(tempDir()));
      const anns = (await call<J[]>('/clinicalAnnotation')).body;
      // Best evidence first.
      expect(anns.map((a) => a.evidenceLevel)).toEqual(['1B', '2A', '3', '4']);
      const first = anns[0] as J;
      expect(first).toMatchObject({
        id: '1000000002',
        drug: 'drugone;drugtwo',
        phenotype: 'Hepatitis C, Chronic;Neutropenia',
        studyType: 'Toxicity',
        population: 'Pediatric',
        annotation: '*2: Star two text.\n*10: Star ten text.',
        sources: ['PharmGKB', 'CPIC', 'Health Canada'],
      });
      // The trade name in the annotation file resolves to the drug's name.
      expect(anns[1]).toMatchObject({ gene: 'GENEA;GENEB', drug: 'drugone' });
      // PMIDs written as floats are whole numbers; the evidence with the lowest id comes first.
      expect(anns[2]).toMatchObject({ id: '1000000001', pmid: '11111111' });
      expect((await call<J[]>('/clinicalAnnotation?evidenceLevel=2A')).body.map((a) => a.id)).toEqual(['1000000003']);
      expect((await call<J[]>('/clinicalAnnotation?phenotype=hepatitis%20c,%20chronic')).body.map((a) => a.id)).toEqual(['1000000002']);
      expect((await call<J[]>('/clinicalAnnotation?gene=GENEB&drug=Onebrand')).body.map((a) => a.id)).toEqual(['1000000003']);

      const pairs = (await call<J[]>('/geneDrugPair')).body;
      const pair = (g: string, d: string) => pairs.find((p) => p.gene === g && p.drug === d);
      expect(pair('GENEA', 'drugone')).toEqual({
        gene: 'GENEA',
        drug: 'drugone',
        sources: ['CPIC', 'FDA'],
        cpicLevel: 'A',
        evidenceLevel: '1B',
        clinicalAnnotationCount: 3,
        hasGuideline: true,
        guidelineUrl: 'https://example.org/cpic/genea-drugone',
      });
      expect(pair('GENEB', 'drugtwo')).toMatchObject({
        sources: ['DPWG'],
        cpicLevel: 'B',
        evidenceLevel: '4',
        hasGuideline: true,
        guidelineUrl: 'https://www.pharmgkb.org/guidelineAnnotation/PA930002',
      });
      expect(pair('GENEC', 'drugthree')).toMatchObject({ sources: [], cpicLevel: 'C', evidenceLevel: '', clinicalAnnotationCount: 0, hasGuideline: false, guidelineUrl: '' });
      for (const [level, want] of [
        ['B', 'drugtwo'],
        ['C', 'drugthree'],
        ['D', 'drugfour'],
      ]) {
        expect((await call<J[]>(`/geneDrugPair?cpicLevel=${level}`)).body.map((p) => p.drug)).toEqual([want]);
      }
      // Related drugs: pairs and "associated" relationships, not "not associated" ones.
      expect((await call('/gene/GENEC')).body.relatedDrugs).toEqual(['drugthree']);
      expect((await call('/gene/GENEB')).body.relatedDrugs).toEqual(['drugfour', 'drugone', 'drugtwo']);
      expect((await call('/chemical/PA910001')).body.relatedGenes).toEqual(['GENEA', 'GENEB']);
    });

    it('reads variants, labels, pathways, guidelines and merged allele tables', async () => {
      await loadPgx(s, t.generations, await publishedDownloads(tempDir()));
      expect((await call('/variant/rs100')).body).toMatchObject({ chromosome: '7', position: 1000, gene: 'GENEA', alleles: ['A', 'G', 'T'] });
      expect((await call('/variant/rs200')).body).toMatchObject({ chromosome: 'X', position: 500, gene: 'GENEA,GENEB', alleles: [] });
      expect((await call('/variant/rs300')).body).toMatchObject({ chromosome: '', position: null });
      const refs = (await call('/variant/rs100')).body.references as J[];
      expect(refs.map((x) => x.id)).toEqual(['1000000003', '1000000001']);
      expect(refs[1]).toEqual({ type: 'Clinical Annotation', id: '1000000001', url: 'https://www.pharmgkb.org/clinicalAnnotation/1000000001', pmids: ['11111111', '22222222'] });

      const labels = (await call<J[]>('/drugLabel?drug=drugtwo')).body;
      expect(labels.map((l) => l.source)).toEqual(['Health Canada', 'PMDA']);
      expect((await call<J[]>('/drugLabel?drug=drugone')).body[0]).toMatchObject({
        testingRecommended: true,
        biomarkers: ['GENEA', 'GENEA*2'],
        lastUpdated: '2023-01-02',
        sections: { testing: 'Testing Required', dosing: 'Dosing Info', warnings: '' },
      });

      expect((await call('/pathway/PA950001')).body).toEqual({
        id: 'PA950001',
        name: 'Drugone Pathway Pharmacokinetics',
        description: '',
        diagramUrl: 'https://www.pharmgkb.org/pathway/PA950001',
        drugs: ['drugone'],
        genes: ['GENEA', 'GENEB', 'GENEC'],
        steps: [
          { step: 1, process: 'drugone → metabolite one (Biochemical Reaction)', genes: ['GENEA', 'GENEB'] },
          { step: 2, process: 'metabolite one (Transport)', genes: ['GENEC'] },
        ],
      });

      expect((await call('/guideline/PA930001')).body).toEqual({
        id: 'PA930001',
        name: 'Annotation of CPIC Guideline for drugone and GENEA',
        source: 'CPIC',
        genes: ['GENEA'],
        drugs: ['drugone'],
        recommendationLevel: 'Strong',
        lastUpdated: '2024-07-08',
        summary: 'First & second\nline two',
        recommendations: [
          { phenotypes: { GENEA: 'Poor Metabolizer' }, implications: { GENEA: 'Less active.' }, recommendation: 'Use another drug.', classification: 'Moderate', population: 'adults' },
          { phenotypes: { GENEA: 'Normal Metabolizer' }, implications: {}, recommendation: 'Use as labelled.', classification: 'Strong', population: '' },
        ],
        pdfUrl: 'https://example.org/guideline.pdf',
        pmid: '44444444',
      });

      const alleles = (await call<J[]>('/allele?gene=GENEA')).body;
      expect(alleles.map((a) => a.name)).toEqual(['GENEA*1', 'GENEA*1x≥3', 'GENEA*2', 'GENEA*10']);
      expect(alleles[0]).toEqual({
        name: 'GENEA*1',
        gene: 'GENEA',
        function: 'normal function',
        activityScore: 1,
        frequencies: { European: 0.5, 'East Asian': 0.4 },
        definingVariants: [],
        pharmVarId: 'PV00001',
      });
      expect(alleles[1]).toMatchObject({ activityScore: 3, function: 'increased function', frequencies: {} });
      expect(alleles[2]).toMatchObject({ frequencies: { European: 0.2, 'East Asian': 0.01 }, definingVariants: ['rs100'] });
    });

    it('reads unpacked and gzipped files, and the older clinical-annotation names', async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'genes.tsv.gz'), gzipSync(tsv(GENES_H, [gene('PA900001', 'GENEA', 'first', 'chr22')])));
      writeTree(dir, {
        'drugs.tsv': tsv(DRUGS_H, [drug('PA910001', 'drugone')]),
        'clinical_annotations.tsv': tsv(['Clinical Annotation ID', ...ANN_H.slice(1)], [ann('1000000009', 'rs9', 'GENEA', '2B', 'drugone')]),
        'clinical_ann_alleles.tsv': tsv(['Clinical Annotation ID', 'Genotype/Allele', 'Annotation Text', 'Allele Function'], [['1000000009', 'CT', 'CT text.', '']]),
      });
      const r = await loadPgx(s, t.generations, dir);
      expect(r.records).toBe(4);
      expect((await call('/gene/GENEA')).body.chromosome).toBe('22');
      expect((await call<J[]>('/clinicalAnnotation?gene=GENEA')).body).toMatchObject([{ id: '1000000009', evidenceLevel: '2B', annotation: 'CT: CT text.' }]);
    });

    it('refuses input that holds no PharmGKB table, leaving the data served before', async () => {
      const good = writeTree(tempDir(), { 'genes.tsv': tsv(GENES_H, [gene('PA900001', 'GENEA', 'first', 'chr1')]) });
      await loadPgx(s, t.generations, good);
      const none = writeTree(tempDir(), { 'notes.tsv': 'a\tb\n1\t2\n', 'README.txt': 'hello' });
      await expect(loadPgx(s, t.generations, none)).rejects.toThrow(FormatError);
      await expect(loadPgx(s, t.generations, join(none, 'notes.tsv'))).rejects.toThrow(/not one of the PharmGKB downloads/);
      await expect(loadPgx(s, t.generations, join(none, 'missing'))).rejects.toThrow(/no such file or folder/);
      // Only rows that cannot be loaded: no records, so nothing switches either.
      const bad = writeTree(tempDir(), { 'genes.tsv': tsv(GENES_H, [gene('x', 'GENEQ', 'bad', 'chr1')]) });
      await expect(loadPgx(s, t.generations, bad)).rejects.toThrow(/no pharmgkb records found \(1 skipped\)/);
      expect((await call('/gene/GENEA')).status).toBe(200);
    });

    it('loads hundreds of generated genes in small batches into the same lists on every database', async () => {
      // 2,100 annotations and 6,300 allele texts: the derivation walks them over several pages.
      const dir = writePgxDownloads(join(tempDir(), 'gen'), 700);
      const r = await loadPgx(s, t.generations, dir, { batchSize: 64 });
      // Per gene: a gene row, three annotations with three genotypes, one piece of evidence and one relationship each.
      expect(r.records).toBe(700 * (1 + 3 * (1 + 3 + 1 + 1)) + 70);
      const genes = (await call<J[]>('/gene')).body;
      expect(genes).toHaveLength(700);
      const symbols = genes.map((g) => g.symbol as string);
      expect(symbols.slice(0, 4)).toEqual(['SYNG1', 'SYNG10', 'SYNG100', 'SYNG101']);
      expect(symbols).toEqual([...symbols].sort());
      expect(genes.every((g) => g.clinicalAnnotations === 3)).toBe(true);
      const anns = (await call<J[]>('/clinicalAnnotation')).body;
      expect(anns).toHaveLength(2100);
      // Each annotation carries its own allele texts and evidence, wherever the pages broke.
      for (const a of anns) {
        expect(a.annotation).toBe(['AA', 'AG', 'GG'].map((g) => `${g}: Generated text for genotype ${g} of annotation ${String(a.id)}.`).join('\n'));
        expect(a.pmid).toBe(String(30000000 + (Number(a.id) % 1000000)));
      }
      const full = (await call(`/gene/${geneSymbol(699)}`)).body.clinicalAnnotations as J[];
      expect(full.map((a) => a.id)).toEqual(['980002098', '980002099', '980002100'].sort((x, y) => anns.findIndex((a) => a.id === x) - anns.findIndex((a) => a.id === y)));
      const ranks = anns.map((a) => ['1A', '1B', '2A', '2B', '3', '4'].indexOf(a.evidenceLevel as string));
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
      // Level 2B is (gene + k) mod 6 = 3 for k < 3: genes whose index mod 6 is 1, 2 or 3.
      expect((await call<J[]>('/clinicalAnnotation?evidenceLevel=2B')).body).toHaveLength(351);
      expect((await call<J[]>(`/gene?q=${geneSymbol(69)}`)).body.map((g) => g.symbol)).toEqual(['SYNG70', 'SYNG700']);
      expect((await call<J[]>(`/geneDrugPair?gene=${geneSymbol(0)}`)).body.map((p) => p.drug)).toEqual([drugName(0), drugName(3), drugName(6)]);
    });

    it('switches to a new load at once, replacing the old data', async () => {
      await loadPgx(s, t.generations, writeTree(tempDir(), { 'genes.tsv': tsv(GENES_H, [gene('PA900001', 'GENEA', 'first', 'chr1')]) }));
      const second = await loadPgx(s, t.generations, writeTree(tempDir(), { 'genes.tsv': tsv(GENES_H, [gene('PA900002', 'GENEB', 'second', 'chr2')]) }));
      expect(second.records).toBe(1);
      expect((await call('/gene/GENEA')).status).toBe(404);
      expect((await call('/gene/GENEB')).status).toBe(200);
    });
  });
}
