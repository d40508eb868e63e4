/**
 * Synthetic PharmGKB downloads in their own formats (genes.tsv, drugs.tsv, clinical annotations
 * with alleles and evidence, relationships.tsv), for benchmarks and tests. Everything is generated:
 * symbols SYNG<n>, accessions PA98<n>, drugs synthdrug<n>, annotation ids from 980000000.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const LEVELS = ['1A', '1B', '2A', '2B', '3', '4'];
const CATEGORIES = ['Efficacy', 'Toxicity', 'Dosage', 'Metabolism/PK'];

export const geneSymbol = (i: number) => `SYNG${i + 1}`;
export const drugName = (j: number) => `synthdrug${j + 1}`;

function table(header: string[], rows: string[][]): string {
  return [header, ...rows].map((r) => r.join('\t')).join('\n') + '\n';
}

/** Writes the files for `genes` genes (and a tenth as many drugs) into `dir`; returns `dir`. */
export function writePgxDownloads(dir: string, genes: number, opts: { annotationsPerGene?: number } = {}): string {
  mkdirSync(dir, { recursive: true });
  const drugs = Math.max(20, Math.round(genes / 10));
  const perGene = opts.annotationsPerGene ?? 3;

  const geneRows: string[][] = [];
  for (let i = 0; i < genes; i++) {
    geneRows.push([
      `PA98${i + 1}`,
      String(900000 + i),
      '',
      '',
      `synthetic gene ${i + 1}`,
      geneSymbol(i),
      '',
      `"SG${i + 1}"`,
      'No',
      'Yes',
      '',
      'No',
      `chr${(i % 22) + 1}`,
      '',
      '',
      '',
      '',
      `${(i % 22) + 1}q11.${i % 9}`,
      'generated',
      `Generated gene number ${i + 1}, for benchmarks.`,
    ]);
  }
  writeFileSync(
    join(dir, 'genes.tsv'),
    table(
      [
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
        'Cytogenetic Location',
        'Pharmacogenomic Function',
        'Description',
      ],
      geneRows,
    ),
  );

  const drugRows: string[][] = [];
  for (let j = 0; j < drugs; j++) drugRows.push([`PA97${j + 1}`, drugName(j), '', `Synthbrand${j + 1}`, '', 'Drug', '', '', '', 'No', '', 'generated class', 'generated indication']);
  writeFileSync(
    join(dir, 'drugs.tsv'),
    table(
      [
        'PharmGKB Accession Id',
        'Name',
        'Generic Names',
        'Trade Names',
        'Brand Mixtures',
        'Type',
        'Cross-references',
        'SMILES',
        'InChI',
        'Dosing Guideline',
        'External Vocabulary',
        'Drug Classes',
        'Indication',
      ],
      drugRows,
    ),
  );

  const anns: string[][] = [];
  const alleles: string[][] = [];
  const evidence: string[][] = [];
  const rels: string[][] = [];
  let id = 980000000;
  for (let i = 0; i < genes; i++) {
    for (let k = 0; k < perGene; k++) {
      id++;
      const d = drugName((i * 7 + k * 3) % drugs);
      anns.push([
        String(id),
        `rs${90000000 + i * 10 + k}`,
        geneSymbol(i),
        LEVELS[(i + k) % LEVELS.length] as string,
        '',
        '',
        '1.0',
        CATEGORIES[k % CATEGORIES.length] as string,
        '1',
        '1',
        d,
        'generated phenotype',
        '2026-01-01',
        '',
        '',
      ]);
      for (const g of ['AA', 'AG', 'GG']) alleles.push([String(id), g, `Generated text for genotype ${g} of annotation ${id}.`, '']);
      evidence.push([String(id), String(id + 50000000), 'Variant Drug Annotation', '', String(30000000 + (id % 1000000)), 'Generated evidence.', '1.0']);
      rels.push([`PA98${i + 1}`, geneSymbol(i), 'Gene', `PA97${((i * 7 + k * 3) % drugs) + 1}`, d, 'Chemical', 'ClinicalAnnotation', 'associated', 'PK', '', '']);
    }
  }
  writeFileSync(
    join(dir, 'clinical_annotations.tsv'),
    table(
      [
        'Clinical Annotation ID',
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
      ],
      anns,
    ),
  );
  writeFileSync(join(dir, 'clinical_ann_alleles.tsv'), table(['Clinical Annotation ID', 'Genotype/Allele', 'Annotation Text', 'Allele Function'], alleles));
  writeFileSync(join(dir, 'clinical_ann_evidence.tsv'), table(['Clinical Annotation ID', 'Evidence ID', 'Evidence Type', 'Evidence URL', 'PMID', 'Summary', 'Score'], evidence));
  writeFileSync(
    join(dir, 'relationships.tsv'),
    table(['Entity1_id', 'Entity1_name', 'Entity1_type', 'Entity2_id', 'Entity2_name', 'Entity2_type', 'Evidence', 'Association', 'PK', 'PD', 'PMIDs'], rels),
  );
  return dir;
}
