import { describe, expect, it } from 'vitest';
import { parseEffect, parsePlatform, parsePvalue, parseTraits, perSnp, isoDate } from '../src/services/gwas/catalog/parse.js';
import { kindOf } from '../src/services/gwas/catalog/ingest.js';
import { chromosomeNumber, efoId } from '../src/services/gwas/sumstats/ingest.js';
import { fromNegLog10, parseP, pText, ZERO_PLOG } from '../src/services/gwas/sumstats/pvalue.js';
import { slice, type Segment, type Study } from '../src/services/gwas/sumstats/reader.js';

describe('summary-statistics p-values', () => {
  it('reads decimals and e-notation into the same mantissa and exponent', () => {
    for (const text of ['0.00005', '5E-05', '5e-5', '5.0e-5', '50e-6', '.00005']) {
      expect(parseP(text), text).toMatchObject({ mantissa: 5, exponent: -5 });
    }
    expect(parseP('0.2826')).toMatchObject({ mantissa: 2.826, exponent: -1 });
    expect(parseP('1')).toMatchObject({ mantissa: 1, exponent: 0, plog: 0 });
  });

  it('keeps values far below the smallest double, in order', () => {
    const a = parseP('3.2e-350');
    const b = parseP('1e-349');
    expect(a).toMatchObject({ mantissa: 3.2, exponent: -350 });
    expect(a!.plog).toBeLessThan(b!.plog);
    expect(Number.isFinite(a!.plog)).toBe(true);
  });

  it('gives a bound and a stored value written differently the same key', () => {
    expect(parseP('5e-8')!.plog).toBe(parseP('0.00000005')!.plog);
    expect(parseP('5E-08')!.plog).toBe(parseP('5e-8')!.plog);
  });

  it('orders zero below everything and refuses what is not a p-value', () => {
    expect(parseP('0')!.plog).toBe(ZERO_PLOG);
    expect(parseP('0.0e0')!.plog).toBe(ZERO_PLOG);
    for (const bad of ['', 'NA', 'abc', '1.5', '-0.1', '2e0', '1e-3x']) expect(parseP(bad), bad).toBeUndefined();
  });

  it('reads -log10 p-values', () => {
    expect(fromNegLog10('3')).toMatchObject({ mantissa: 1, exponent: -3 });
    expect(fromNegLog10('1.30103')!.exponent).toBe(-2);
    expect(fromNegLog10('-1')).toBeUndefined();
    expect(fromNegLog10('NA')).toBeUndefined();
  });

  it('writes them as the service does', () => {
    expect(pText(2.826, -1)).toBe('2.826e-1');
    expect(pText(5, -8)).toBe('5e-8');
    expect(pText(0, 0)).toBe('0.0');
  });
});

describe('GWAS-SSF values', () => {
  it('numbers chromosomes as the standard does', () => {
    expect(chromosomeNumber('1')).toBe(1);
    expect(chromosomeNumber('X')).toBe(23);
    expect(chromosomeNumber('chrY')).toBe(24);
    expect(chromosomeNumber('MT')).toBe(25);
    expect(chromosomeNumber('26')).toBeUndefined();
    expect(chromosomeNumber('0')).toBeUndefined();
    expect(chromosomeNumber('foo')).toBeUndefined();
  });

  it('writes EFO ids with an underscore whatever form they come in', () => {
    expect(efoId('EFO:0000305')).toBe('EFO_0000305');
    expect(efoId('http://www.ebi.ac.uk/efo/EFO_0000305')).toBe('EFO_0000305');
    expect(efoId('EFO_0000305')).toBe('EFO_0000305');
  });
});

describe('pages over segments', () => {
  const study = (sid: number): Study => ({ sid, acc: `GCST${sid}`, first: 0, last: 0, n: 0, traits: [], chromosomes: [] });
  const segs: Segment[] = [
    { study: study(1), from: 10, to: 15 },
    { study: study(2), from: 100, to: 103 },
    { study: study(3), from: 7, to: 17 },
  ];

  it('cuts a page across study boundaries', () => {
    expect(slice(segs, 3, 5).map((s) => [s.study.sid, s.from, s.to])).toEqual([
      [1, 13, 15],
      [2, 100, 103],
    ]);
    expect(slice(segs, 8, 4).map((s) => [s.study.sid, s.from, s.to])).toEqual([[3, 7, 11]]);
  });

  it('gives nothing past the end', () => {
    expect(slice(segs, 18, 5)).toEqual([]);
  });
});

describe('catalog download cells', () => {
  it('splits multi-SNP cells keeping unknown parts in place', () => {
    expect(perSnp('rs1 x rs2')).toEqual(['rs1', 'rs2']);
    expect(perSnp('rs1; rs2; rs3')).toEqual(['rs1', 'rs2', 'rs3']);
    expect(perSnp('NR x 3')).toEqual(['NR', '3']);
    expect(perSnp('')).toEqual([]);
  });

  it('reads p-values with the mantissa and exponent the catalog stores', () => {
    expect(parsePvalue('4E-7')).toEqual({ pvalue: 4e-7, mantissa: 4, exponent: -7 });
    expect(parsePvalue('3E-1315')).toEqual({ pvalue: 0, mantissa: 3, exponent: -1315 });
    expect(parsePvalue('0.002')).toEqual({ pvalue: 0.002, mantissa: 2, exponent: -3 });
    expect(parsePvalue('')).toEqual({ pvalue: null, mantissa: null, exponent: null });
  });

  it('tells odds ratios from betas by the CI text', () => {
    expect(parseEffect('1.22', '[1.10-1.35]')).toMatchObject({ orPerCopyNum: 1.22, betaNum: null, range: '[1.10-1.35]' });
    expect(parseEffect('0.30', '[0.20-0.40] unit increase')).toMatchObject({
      orPerCopyNum: null,
      betaNum: 0.3,
      betaUnit: 'unit',
      betaDirection: 'increase',
      range: '[0.20-0.40]',
    });
    expect(parseEffect('', '')).toMatchObject({ orPerCopyNum: null, range: null });
  });

  it('reads the platform cell', () => {
    expect(parsePlatform('Affymetrix, Illumina [~2,500,000] (imputed)')).toEqual({
      manufacturers: ['Affymetrix', 'Illumina'],
      snpCount: 2500000,
      qualifier: '~',
      imputed: true,
      pooled: false,
    });
    expect(parsePlatform('NR [NR]')).toMatchObject({ manufacturers: [], snpCount: null });
  });

  it('pairs trait labels with URIs only when they line up', () => {
    expect(parseTraits('a, b', 'http://x/EFO_1, http://x/EFO_2').map((t) => [t.label, t.shortForm])).toEqual([
      ['a', 'EFO_1'],
      ['b', 'EFO_2'],
    ]);
    expect(parseTraits('smoking status, measurement', 'http://x/EFO_1').map((t) => t.label)).toEqual(['smoking status, measurement']);
    expect(parseTraits('a, b, c', 'http://x/EFO_1, http://x/EFO_2').map((t) => t.label)).toEqual(['EFO_1', 'EFO_2']);
  });

  it('reads dates in both forms the downloads have used', () => {
    expect(isoDate('2009-05-10')).toBe('2009-05-10');
    expect(isoDate('5/10/2009')).toBe('2009-05-10');
    expect(isoDate('NR')).toBeNull();
  });

  it('recognises each download by its header', () => {
    expect(kindOf(['DATE ADDED TO CATALOG', 'PUBMEDID', 'STRONGEST SNP-RISK ALLELE', 'SNPS', 'STUDY ACCESSION'])).toBe('association');
    expect(kindOf(['STUDY ACCESSION', 'PUBMED ID', 'DISEASE/TRAIT', 'ASSOCIATION COUNT'])).toBe('study');
    expect(kindOf(['STUDY ACCESSION', 'STAGE', 'BROAD ANCESTRAL CATEGORY'])).toBe('ancestry');
    expect(kindOf(['chromosome', 'base_pair_location'])).toBeUndefined();
  });
});
