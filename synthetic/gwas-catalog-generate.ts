/**
 * A generated GWAS Catalog release for the benchmark: the studies, ancestry, associations and
 * trait-mappings TSVs in the downloads' column layout. Everything is generated: accessions from
 * GCST99100001 up, EFO-like terms EFO_9900001 up and rsIDs from rs900000000 up (numbers none of the
 * registries has issued), genes `GEN<n>`, seeded p-values and effects. SNPs are shared by studies
 * (each SNP is in two associations on average), traits and genes by many. Beside them an
 * `efo.obo` in EFO's OBO form: under each parent category three levels of groups (EFO_97xxxxx: a
 * group of 64 traits, of 16, of 4) above the traits, and filler terms to the size of a real EFO
 * release (EFO_96xxxxx, some with two parents), all under one root.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { rng } from './gwas-generate.js';

export interface CatalogShape {
  studies: number;
  /** Associations per study. */
  perStudy: number;
  traits: number;
  genes: number;
  seed?: number;
  /** Filler terms of the generated efo.obo (a real release has tens of thousands of terms); 0: no efo.obo. */
  efoFiller?: number;
}

export interface GeneratedCatalog {
  accessions: (i: number) => string;
  trait: (i: number) => { label: string; shortForm: string };
  rsid: (i: number) => string;
  gene: (i: number) => string;
  snps: number;
  parents: string[];
  /** The top groups of the generated EFO (64 traits each, three levels above them): what show_child_trait widens. */
  groups: { label: string; shortForm: string }[];
}

const STUDY_COLS = [
  'DATE ADDED TO CATALOG',
  'PUBMED ID',
  'FIRST AUTHOR',
  'DATE',
  'JOURNAL',
  'LINK',
  'STUDY',
  'DISEASE/TRAIT',
  'INITIAL SAMPLE SIZE',
  'REPLICATION SAMPLE SIZE',
  'PLATFORM [SNPS PASSING QC]',
  'ASSOCIATION COUNT',
  'MAPPED_TRAIT',
  'MAPPED_TRAIT_URI',
  'STUDY ACCESSION',
  'GENOTYPING TECHNOLOGY',
  'SUMMARY STATS LOCATION',
  'SUBMISSION DATE',
  'STATISTICAL MODEL',
  'BACKGROUND TRAIT',
  'MAPPED BACKGROUND TRAIT',
  'MAPPED BACKGROUND TRAIT URI',
  'COHORT',
  'FULL SUMMARY STATISTICS',
];
const ANCESTRY_COLS = [
  'STUDY ACCESSION',
  'PUBMED ID',
  'FIRST AUTHOR',
  'DATE',
  'INITIAL SAMPLE DESCRIPTION',
  'REPLICATION SAMPLE DESCRIPTION',
  'STAGE',
  'NUMBER OF INDIVIDUALS',
  'BROAD ANCESTRAL CATEGORY',
  'COUNTRY OF ORIGIN',
  'COUNTRY OF RECRUITMENT',
  'ADDITIONAL ANCESTRY DESCRIPTION',
  'ANCESTRY DESCRIPTOR',
  'FOUNDER/GENETICALLY ISOLATED POPULATION',
  'NUMBER OF CASES',
  'NUMBER OF CONTROLS',
  'SAMPLE DESCRIPTION',
];
const ASSOC_COLS = [
  'DATE ADDED TO CATALOG',
  'PUBMEDID',
  'FIRST AUTHOR',
  'DATE',
  'JOURNAL',
  'LINK',
  'STUDY',
  'DISEASE/TRAIT',
  'INITIAL SAMPLE SIZE',
  'REPLICATION SAMPLE SIZE',
  'REGION',
  'CHR_ID',
  'CHR_POS',
  'REPORTED GENE(S)',
  'MAPPED_GENE',
  'UPSTREAM_GENE_ID',
  'DOWNSTREAM_GENE_ID',
  'SNP_GENE_IDS',
  'UPSTREAM_GENE_DISTANCE',
  'DOWNSTREAM_GENE_DISTANCE',
  'STRONGEST SNP-RISK ALLELE',
  'SNPS',
  'MERGED',
  'SNP_ID_CURRENT',
  'CONTEXT',
  'INTERGENIC',
  'RISK ALLELE FREQUENCY',
  'P-VALUE',
  'PVALUE_MLOG',
  'P-VALUE (TEXT)',
  'OR or BETA',
  '95% CI (TEXT)',
  'PLATFORM [SNPS PASSING QC]',
  'CNV',
  'MAPPED_TRAIT',
  'MAPPED_TRAIT_URI',
  'STUDY ACCESSION',
  'GENOTYPING TECHNOLOGY',
];
const PARENTS = ['Cardiovascular disease', 'Metabolic disorder', 'Body measurement', 'Immune system disorder', 'Neurological disorder', 'Cancer', 'Other measurement'];
const GROUPS = ['European', 'East Asian', 'African American or Afro-Caribbean', 'Hispanic or Latin American', 'South Asian'];
const COHORTS = ['UKB', 'FinnGen', 'MVP', 'BBJ', 'HUNT'];

async function write(out: WriteStream, line: string): Promise<void> {
  if (!out.write(`${line}\n`)) await once(out, 'drain');
}

async function close(out: WriteStream): Promise<void> {
  out.end();
  await once(out, 'finish');
}

export async function writeCatalogRelease(dir: string, shape: CatalogShape): Promise<GeneratedCatalog> {
  const r = rng(shape.seed ?? 11);
  const snps = Math.max(1, Math.floor((shape.studies * shape.perStudy) / 2));
  const g: GeneratedCatalog = {
    accessions: (i) => `GCST${99_100_001 + i}`,
    trait: (i) => ({ label: `generated trait ${i}`, shortForm: `EFO_${9_900_001 + i}` }),
    rsid: (i) => `rs${900_000_000 + i}`,
    gene: (i) => `GEN${i}`,
    snps,
    parents: PARENTS.map((_p, i) => `EFO_${9_800_001 + i}`),
    groups: [],
  };
  const uri = (sf: string) => `http://www.ebi.ac.uk/efo/${sf}`;
  if ((shape.efoFiller ?? 60_000) > 0) g.groups = await writeEfo(join(dir, 'efo.obo'), g, shape.traits, shape.efoFiller ?? 60_000, rng((shape.seed ?? 11) + 1));

  const traits = createWriteStream(join(dir, 'gwas-catalog-trait-mappings_generated.tsv'));
  await write(traits, ['Disease trait', 'EFO term', 'EFO URI', 'Parent term', 'Parent URI'].join('\t'));
  for (let i = 0; i < shape.traits; i++) {
    const t = g.trait(i);
    const p = i % PARENTS.length;
    await write(traits, [`Generated trait ${i}`, t.label, uri(t.shortForm), PARENTS[p], uri(g.parents[p] as string)].join('\t'));
  }
  await close(traits);

  const studies = createWriteStream(join(dir, 'gwas-catalog-studies_generated.tsv'));
  const ancestry = createWriteStream(join(dir, 'gwas-catalog-ancestry_generated.tsv'));
  const assocs = createWriteStream(join(dir, 'gwas-catalog-associations_ontology-annotated_generated.tsv'));
  await write(studies, STUDY_COLS.join('\t'));
  await write(ancestry, ANCESTRY_COLS.join('\t'));
  await write(assocs, ASSOC_COLS.join('\t'));
  let snp = 0;
  for (let s = 0; s < shape.studies; s++) {
    const acc = g.accessions(s);
    const t = g.trait(s % shape.traits);
    const pubmed = String(90_000_000 + Math.floor(s / 3));
    const n = 1000 + Math.floor(r() * 500_000);
    const cohort = COHORTS[s % COHORTS.length] as string;
    const group = GROUPS[s % GROUPS.length] as string;
    const row: Record<string, string> = {
      'DATE ADDED TO CATALOG': '2026-01-01',
      'PUBMED ID': pubmed,
      'FIRST AUTHOR': `Author ${s % 997}`,
      DATE: '2025-06-01',
      JOURNAL: 'Generated J',
      LINK: `www.ncbi.nlm.nih.gov/pubmed/${pubmed}`,
      STUDY: `Generated study ${s}`,
      'DISEASE/TRAIT': `Generated trait ${s % shape.traits}`,
      'INITIAL SAMPLE SIZE': `${n} ${group} ancestry individuals`,
      'REPLICATION SAMPLE SIZE': 'NA',
      'PLATFORM [SNPS PASSING QC]': 'Illumina [1,000,000] (imputed)',
      'ASSOCIATION COUNT': String(shape.perStudy),
      MAPPED_TRAIT: t.label,
      MAPPED_TRAIT_URI: uri(t.shortForm),
      'STUDY ACCESSION': acc,
      'GENOTYPING TECHNOLOGY': 'Genome-wide genotyping array',
      'SUMMARY STATS LOCATION': 'NA',
      COHORT: cohort,
      'FULL SUMMARY STATISTICS': s % 4 === 0 ? 'yes' : 'no',
    };
    await write(studies, STUDY_COLS.map((c) => row[c] ?? '').join('\t'));
    await write(ancestry, [acc, pubmed, `Author ${s % 997}`, '2025-06-01', row['INITIAL SAMPLE SIZE'], 'NA', 'initial', String(n), group, '', 'U.K.', '', '', '', '', '', ''].join('\t'));
    for (let a = 0; a < shape.perStudy; a++) {
      const k = snp++ % snps;
      const chrom = String(1 + (k % 22));
      const pos = String(1_000_000 + k * 100);
      const mantissa = 1 + Math.floor(r() * 9);
      const exponent = 5 + Math.floor(r() * 60);
      const allele = 'ACGT'[Math.floor(r() * 4)] as string;
      const gene = g.gene(k % shape.genes);
      const assoc: Record<string, string> = {
        ...row,
        PUBMEDID: pubmed,
        REGION: `${chrom}q1`,
        CHR_ID: chrom,
        CHR_POS: pos,
        'REPORTED GENE(S)': gene,
        MAPPED_GENE: gene,
        SNP_GENE_IDS: `ENSG9${String(k % shape.genes).padStart(10, '0')}`,
        'STRONGEST SNP-RISK ALLELE': `${g.rsid(k)}-${allele}`,
        SNPS: g.rsid(k),
        MERGED: '0',
        CONTEXT: 'intron_variant',
        INTERGENIC: '0',
        'RISK ALLELE FREQUENCY': r().toFixed(3),
        'P-VALUE': `${mantissa}E-${exponent}`,
        PVALUE_MLOG: String(exponent - Math.log10(mantissa)),
        'OR or BETA': (1 + r()).toFixed(2),
        '95% CI (TEXT)': '[1.01-1.50]',
        CNV: 'N',
      };
      await write(assocs, ASSOC_COLS.map((c) => assoc[c] ?? '').join('\t'));
    }
  }
  await Promise.all([close(studies), close(ancestry), close(assocs)]);
  return g;
}

const GROUP_SIZES = [64, 16, 4];

/**
 * The generated EFO: root, the parent categories under it, under each category groups of 64, 16
 * and 4 of its traits (the traits the trait mappings file under it), then the traits; and filler
 * terms in a tree of eight children each below the root, one in ten with a second parent.
 */
async function writeEfo(path: string, g: GeneratedCatalog, traits: number, filler: number, r: () => number): Promise<{ label: string; shortForm: string }[]> {
  const out = createWriteStream(path);
  const term = (id: string, name: string, parents: string[]) => write(out, `[Term]\nid: ${id.replace('_', ':')}\nname: ${name}\n${parents.map((p) => `is_a: ${p.replace('_', ':')}\n`).join('')}`);
  await write(out, 'format-version: 1.2\nontology: efo\n! Generated for the benchmark: no term here is a real EFO term.\n');
  const root = 'EFO_9700000';
  await term(root, 'generated root', []);
  for (const [i, p] of g.parents.entries()) await term(p, (PARENTS[i] as string).toLowerCase(), [root]);
  // Group ids: category, level and number in one (EFO_97 c l nnnn).
  const groupId = (c: number, level: number, n: number) => `EFO_97${c}${level}${String(n).padStart(4, '0')}`;
  const top: { label: string; shortForm: string }[] = [];
  for (let c = 0; c < g.parents.length; c++) {
    const count = Math.ceil(traits / PARENTS.length);
    for (const [level, size] of GROUP_SIZES.entries()) {
      for (let n = 0; n * size < count; n++) {
        const id = groupId(c, level, n);
        const label = `generated group ${c}.${level}.${n}`;
        const parent = level === 0 ? (g.parents[c] as string) : groupId(c, level - 1, Math.floor((n * size) / (GROUP_SIZES[level - 1] as number)));
        await term(id, label, [parent]);
        if (level === 0) top.push({ label, shortForm: id });
      }
    }
  }
  for (let i = 0; i < traits; i++) {
    const t = g.trait(i);
    const c = i % PARENTS.length;
    await term(t.shortForm, t.label, [groupId(c, GROUP_SIZES.length - 1, Math.floor(Math.floor(i / PARENTS.length) / (GROUP_SIZES.at(-1) as number)))]);
  }
  const fillerId = (n: number) => `EFO_96${String(n).padStart(5, '0')}`;
  for (let n = 0; n < filler; n++) {
    const parents = n < 8 ? [root] : [fillerId(Math.floor(n / 8) - 1)];
    if (n >= 80 && r() < 0.1) parents.push(fillerId(Math.floor(r() * (n / 8 - 1))));
    await term(fillerId(n), `generated filler term ${n}`, [...new Set(parents)]);
  }
  await close(out);
  return top;
}
