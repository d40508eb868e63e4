/** The pieces of the pharmacogenomics reader and its enumerations, without a database. */
import { describe, expect, it } from 'vitest';
import { compareText, labelSource, levelRank, naturalKey, sortSources } from '../src/services/pgx/enums.js';
import { activityScore, alleleTableGene, isAlleleHeader } from '../src/services/pgx/ingest/alleles.js';
import { guidelineRecord, htmlText } from '../src/services/pgx/ingest/guidelines.js';
import { pathwayOfFile } from '../src/services/pgx/ingest/pathways.js';
import { ROW_TABLES, chromosomeName, chromosomeOfAccession, frequencyList } from '../src/services/pgx/ingest/tables.js';
import { Row, header, isoDate, pmid, splitLine, splitList } from '../src/services/pgx/ingest/text.js';
import { alleleName } from '../src/services/pgx/store/derive/docs.js';

describe('delimited text', () => {
  it('unwraps CSV-style quoted cells but keeps lists of quoted items', () => {
    const cells = splitLine('PA1\t"""ATC:A(x)"", ""ATC:B(y, z)"""\t"ACE1","CD143"\tplain', '\t');
    expect(cells).toEqual(['PA1', '"ATC:A(x)", "ATC:B(y, z)"', '"ACE1","CD143"', 'plain']);
    expect(splitList(cells[1])).toEqual(['ATC:A(x)', 'ATC:B(y, z)']);
    expect(splitList(cells[2])).toEqual(['ACE1', 'CD143']);
    expect(splitList('a; b;;c', ';')).toEqual(['a', 'b', 'c']);
    expect(splitList('')).toEqual([]);
  });

  it('splits comma-separated lines with quotes', () => {
    expect(splitLine('GENE,"drug, with comma","say ""hi""",', ',')).toEqual(['GENE', 'drug, with comma', 'say "hi"', '']);
  });

  it('reads a row by column name without regard to case, the first of several names', () => {
    const h = header('\uFEFFName\tSymbol\tChromosome');
    const r = new Row(h.index, splitLine('alpha\tA1', h.delimiter));
    expect(r.get('symbol')).toBe('A1');
    expect(r.get('Missing', 'NAME')).toBe('alpha');
    expect(r.get('Chromosome')).toBe('');
  });

  it('normalises PMIDs and dates', () => {
    expect(pmid('30924126.0')).toBe('30924126');
    expect(pmid('21435719')).toBe('21435719');
    expect(pmid('n/a')).toBe('');
    expect(isoDate('2021-03-24')).toBe('2021-03-24');
    expect(isoDate('2024-07-08T10:00:00-07:00')).toBe('2024-07-08');
    expect(isoDate('March 2021')).toBe('');
  });
});

describe('PharmGKB tables', () => {
  it('recognises each download by its header', () => {
    const which = (line: string) => ROW_TABLES.find((t) => t.matches(header(line)))?.what;
    expect(which('PharmGKB Accession Id\tNCBI Gene ID\tHGNC ID\tName\tSymbol')).toBe('genes.tsv');
    expect(which('PharmGKB Accession Id\tName\tGeneric Names\tTrade Names')).toMatch(/drugs/);
    expect(which('Summary Annotation ID\tVariant/Haplotypes\tGene\tLevel of Evidence')).toMatch(/annotations/);
    expect(which('Clinical Annotation ID\tGenotype/Allele\tAnnotation Text\tAllele Function')).toMatch(/alleles/);
    expect(which('Clinical Annotation ID\tEvidence ID\tEvidence Type\tEvidence URL')).toMatch(/evidence/);
    expect(which('Entity1_id\tEntity1_name\tEntity1_type\tEntity2_id\tEntity2_name\tEntity2_type\tEvidence\tAssociation')).toBe('relationships.tsv');
    expect(which('PharmGKB ID\tName\tSource\tTesting Level')).toBe('drugLabels.tsv');
    expect(which('Gene,Drug,Guideline,CPIC Level')).toMatch(/CPIC/);
    expect(which('Variant Annotation ID\tVariant/Haplotypes\tGene\tDrug(s)')).toBeUndefined();
  });

  it('names chromosomes as the spec does', () => {
    expect(chromosomeName('chr10')).toBe('10');
    expect(chromosomeName('chrX')).toBe('X');
    expect(chromosomeName('chrM')).toBe('MT');
    expect(chromosomeOfAccession('NC_000010.11')).toBe('10');
    expect(chromosomeOfAccession('NC_000023.11')).toBe('X');
    expect(chromosomeOfAccession('NC_000024.10')).toBe('Y');
    expect(chromosomeOfAccession('NC_012920.1')).toBe('MT');
    expect(chromosomeOfAccession('NG_007972.1')).toBe('');
  });

  it('reads the added frequency column', () => {
    expect(frequencyList('European:0.15; East Asian:0.3; Latino: 0.1')).toEqual({ European: 0.15, 'East Asian': 0.3, Latino: 0.1 });
    expect(frequencyList('African American/Afro-Caribbean:0.2;bad;x:y')).toEqual({ 'African American/Afro-Caribbean': 0.2 });
  });

  it('takes only gene–chemical relationships, once', () => {
    const t = ROW_TABLES.find((x) => x.what === 'relationships.tsv');
    const h = header('Entity1_id\tEntity1_name\tEntity1_type\tEntity2_id\tEntity2_name\tEntity2_type\tEvidence\tAssociation');
    const row = (line: string) => t?.convert(new Row(h.index, splitLine(line, '\t')));
    expect(row('PA1\tG\tGene\tPA2\td\tChemical\tx\tassociated')).toMatchObject({ kind: 'relationship', key: 'PA1\tPA2' });
    expect(row('PA2\td\tChemical\tPA1\tG\tGene\tx\tassociated')).toBeNull();
    expect(row('PA3\tH*1\tHaplotype\tPA2\td\tChemical\tx\tassociated')).toBeNull();
  });
});

describe('CPIC allele tables', () => {
  it('recognises the tables and their gene', () => {
    expect(isAlleleHeader(header('Allele/cDNA/rsID\tActivity Value (Optional)'))).toBe(true);
    expect(isAlleleHeader(header('Allele\tEuropean\tEast Asian'))).toBe(true);
    expect(isAlleleHeader(header('Gene\tAllele'))).toBe(false);
    expect(alleleTableGene('CYP2D6_allele_functionality_reference.tsv', undefined)).toBe('CYP2D6');
    expect(alleleTableGene('HLA-B_frequency_table.tsv', undefined)).toBe('HLA-B');
    expect(alleleTableGene('functionality.tsv', 'TPMT Allele Functionality Table')).toBe('TPMT');
    expect(alleleTableGene('table.tsv', undefined)).toBeUndefined();
  });

  it('reads activity values, with ≥ as its number and no number as null', () => {
    expect(activityScore('0.25')).toBe(0.25);
    expect(activityScore('1')).toBe(1);
    expect(activityScore('≥3.0')).toBe(3);
    expect(activityScore('n/a')).toBeNull();
    expect(activityScore('')).toBeNull();
  });

  it('names star alleles with their gene', () => {
    expect(alleleName('CYP2D6', '*4')).toBe('CYP2D6*4');
    expect(alleleName('VKORC1', 'rs9923231')).toBe('VKORC1 rs9923231');
  });
});

describe('guideline documents', () => {
  it('turns markdown HTML into plain text', () => {
    expect(htmlText({ html: '<p>A &amp; B&#39;s <em>x</em></p><ul><li>one</li><li>two&nbsp;</li></ul>' })).toBe("A & B's x\none\ntwo");
    expect(htmlText(undefined)).toBe('');
  });

  it('accepts a document or a bare guideline object, and says why others are refused', () => {
    expect(guidelineRecord({ guideline: { id: 'PA1', name: 'n', source: 'CPIC' } })).toMatchObject({ kind: 'guideline', key: 'PA1' });
    expect(guidelineRecord({ objCls: 'Guideline Annotation', id: 'PA2' })).toMatchObject({ key: 'PA2' });
    expect(guidelineRecord([])).toBe('not a JSON object');
    expect(guidelineRecord({ x: 1 })).toBe('no "guideline" object');
    expect(guidelineRecord({ guideline: { id: 7 } })).toBe('malformed guideline id "7"');
  });
});

describe('pathway files', () => {
  it('take their accession and name from the file name', () => {
    expect(pathwayOfFile('PA146123006-Codeine_and_Morphine_Pathway_Pharmacokinetics.tsv')).toEqual({ id: 'PA146123006', name: 'Codeine and Morphine Pathway Pharmacokinetics' });
    expect(pathwayOfFile('pathways.tsv')).toBeUndefined();
  });
});

describe('orders and names', () => {
  it('orders evidence levels, sources, text and alleles as documented', () => {
    expect(['4', '1B', '3', '2A', '1A', '2B', 'X'].sort((a, b) => levelRank(a) - levelRank(b))).toEqual(['1A', '1B', '2A', '2B', '3', '4', 'X']);
    expect(sortSources(['FDA', 'Other', 'DPWG', 'CPIC', 'FDA', 'Health Canada'])).toEqual(['CPIC', 'DPWG', 'FDA', 'Health Canada', 'Other']);
    expect(['b', 'A', 'a', 'B'].sort(compareText)).toEqual(['A', 'a', 'B', 'b']);
    expect(['*10', '*2', '*1x2', '*1'].sort((a, b) => compareText(naturalKey(a), naturalKey(b)))).toEqual(['*1', '*1x2', '*2', '*10']);
    expect(labelSource('HCSC')).toBe('Health Canada');
    expect(labelSource('FDA')).toBe('FDA');
  });
});
