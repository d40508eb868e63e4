/**
 * The row-per-record downloads, told apart by their header (file names vary between releases:
 * `clinical_annotations.tsv` became `summary_annotations.tsv`, `drugs.tsv` sits beside
 * `chemicals.tsv`). Each converter turns a row into a record, or says why the row cannot be loaded.
 *
 * Columns the PharmGKB files do not have but the spec's resources need are read when present,
 * under the names listed in docs/compatibility.md (e.g. `Cytogenetic Location` in genes.tsv).
 */
import { record, type PgxRecord } from '../records.js';
import { has, isoDate, pmid, splitList, type Header, type Row } from './text.js';

export interface RowTable {
  /** What the file is, for messages. */
  what: string;
  matches(h: Header): boolean;
  /** A record, a reason to skip the row, or null for a row that is not used (not an error). */
  convert(row: Row): PgxRecord | string | null;
}

/** `chr10` → `10`, as the spec's chromosome values are written. */
export function chromosomeName(cell: string): string {
  return cell.replace(/^chr/i, '').toUpperCase().replace(/^M$/, 'MT');
}

/** RefSeq chromosome accessions (NC_000001 … NC_000024, NC_012920) to chromosome names. */
export function chromosomeOfAccession(acc: string): string {
  const m = /^NC_0000(\d\d)\.\d+$/.exec(acc);
  if (m) {
    const n = Number(m[1]);
    if (n >= 1 && n <= 22) return String(n);
    if (n === 23) return 'X';
    if (n === 24) return 'Y';
  }
  return /^NC_012920\.\d+$/.test(acc) ? 'MT' : '';
}

/** Reference and alternate bases from the HGVS synonyms of a variant at its own location. */
function allelesFromSynonyms(synonyms: string[], acc: string, position: number | null): string[] {
  if (!acc || position === null) return [];
  let ref = '';
  const alts: string[] = [];
  const prefix = `${acc}:g.${position}`;
  for (const s of synonyms) {
    if (!s.startsWith(prefix)) continue;
    const m = /^([ACGT]+)>([ACGT]+)$/.exec(s.slice(prefix.length));
    if (!m) continue;
    ref = m[1] as string;
    if (!alts.includes(m[2] as string)) alts.push(m[2] as string);
  }
  return ref ? [ref, ...alts.sort()] : [];
}

/** `Population:0.12; Other population:0.3` (an added column; see docs/compatibility.md). */
export function frequencyList(cell: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of splitList(cell, ';')) {
    const at = part.lastIndexOf(':');
    if (at <= 0) continue;
    const value = Number(part.slice(at + 1));
    if (Number.isFinite(value)) out[part.slice(0, at).trim()] = value;
  }
  return out;
}

const PA_ID = /^PA\d+$/;

const genes: RowTable = {
  what: 'genes.tsv',
  matches: (h) => has(h, 'PharmGKB Accession Id', 'Symbol', 'Name') && (has(h, 'NCBI Gene ID') || has(h, 'Entrez Id')),
  convert(r) {
    const id = r.get('PharmGKB Accession Id');
    const symbol = r.get('Symbol');
    if (!PA_ID.test(id)) return `malformed PharmGKB accession "${id}"`;
    if (!symbol) return 'no gene symbol';
    return record('gene', id, {
      id,
      symbol,
      name: r.get('Name'),
      chromosome: chromosomeName(r.get('Chromosome')),
      chromosomeLocation: r.get('Cytogenetic Location', 'Chromosome Location'),
      function: r.get('Pharmacogenomic Function', 'Function'),
      description: r.get('Description', 'Summary'),
      alternateSymbols: splitList(r.get('Alternate Symbols')),
      alternateNames: splitList(r.get('Alternate Names')),
    });
  },
};

const chemicals: RowTable = {
  what: 'drugs.tsv / chemicals.tsv',
  matches: (h) => has(h, 'PharmGKB Accession Id', 'Name', 'Generic Names', 'Trade Names'),
  convert(r) {
    const id = r.get('PharmGKB Accession Id');
    const name = r.get('Name');
    if (!PA_ID.test(id)) return `malformed PharmGKB accession "${id}"`;
    if (!name) return 'no name';
    return record('chemical', id, {
      id,
      name,
      genericNames: splitList(r.get('Generic Names')),
      tradeNames: splitList(r.get('Trade Names')),
      drugClasses: splitList(r.get('Drug Classes'), ';'),
      indication: r.get('Indication'),
    });
  },
};

const variants: RowTable = {
  what: 'variants.tsv',
  matches: (h) => has(h, 'Variant ID', 'Variant Name', 'Location'),
  convert(r) {
    const id = r.get('Variant ID');
    const rsid = r.get('Variant Name');
    if (!id) return 'no variant id';
    if (!rsid) return 'no variant name';
    const [acc = '', pos = ''] = r.get('Location').split(':');
    const start = /^(\d+)/.exec(pos)?.[1];
    const position = start ? Number(start) : null;
    const synonyms = splitList(r.get('Synonyms'));
    return record('variant', id, {
      id,
      rsid,
      chromosome: chromosomeOfAccession(acc),
      position,
      genes: splitList(r.get('Gene Symbols')),
      alleles: allelesFromSynonyms(synonyms, acc, position),
      consequence: r.get('Consequence'),
      clinicalSignificance: r.get('Clinical Significance'),
      frequencies: frequencyList(r.get('Frequencies')),
    });
  },
};

const ANNOTATION_ID = ['Clinical Annotation ID', 'Summary Annotation ID'];
const annotationHeader = (h: Header) => ANNOTATION_ID.some((c) => has(h, c));

const annotations: RowTable = {
  what: 'clinical_annotations.tsv / summary_annotations.tsv',
  matches: (h) => annotationHeader(h) && has(h, 'Level of Evidence', 'Variant/Haplotypes'),
  convert(r) {
    const id = r.get(...ANNOTATION_ID);
    if (!/^\d+$/.test(id)) return `malformed annotation id "${id}"`;
    const level = r.get('Level of Evidence');
    return record('annotation', id, {
      id,
      variant: r.get('Variant/Haplotypes'),
      genes: splitList(r.get('Gene'), ';'),
      evidenceLevel: level,
      phenotypeCategories: splitList(r.get('Phenotype Category'), ';'),
      drugs: splitList(r.get('Drug(s)'), ';'),
      phenotypes: splitList(r.get('Phenotype(s)'), ';'),
      lastUpdated: isoDate(r.get('Latest History Date (YYYY-MM-DD)')),
      url: r.get('URL'),
      population: r.get('Specialty Population'),
    });
  },
};

const annotationAlleles: RowTable = {
  what: 'clinical_ann_alleles.tsv / summary_ann_alleles.tsv',
  matches: (h) => annotationHeader(h) && has(h, 'Genotype/Allele', 'Annotation Text'),
  convert(r) {
    const annotation = r.get(...ANNOTATION_ID);
    const genotype = r.get('Genotype/Allele');
    if (!/^\d+$/.test(annotation)) return `malformed annotation id "${annotation}"`;
    if (!genotype) return 'no genotype or allele';
    return record('annotationAllele', `${annotation}\t${genotype}`, {
      annotation,
      genotype,
      text: r.get('Annotation Text'),
      function: r.get('Allele Function'),
    });
  },
};

const evidence: RowTable = {
  what: 'clinical_ann_evidence.tsv / summary_ann_evidence.tsv',
  matches: (h) => annotationHeader(h) && has(h, 'Evidence ID', 'Evidence Type'),
  convert(r) {
    const annotation = r.get(...ANNOTATION_ID);
    const id = r.get('Evidence ID');
    if (!/^\d+$/.test(annotation)) return `malformed annotation id "${annotation}"`;
    if (!id) return 'no evidence id';
    return record('evidence', `${annotation}\t${id}`, {
      annotation,
      id,
      type: r.get('Evidence Type'),
      url: r.get('Evidence URL'),
      pmid: pmid(r.get('PMID')),
      summary: r.get('Summary'),
    });
  },
};

const relationships: RowTable = {
  what: 'relationships.tsv',
  matches: (h) => has(h, 'Entity1_id', 'Entity1_type', 'Entity2_id', 'Entity2_type', 'Association'),
  convert(r) {
    const sides = [1, 2].map((n) => ({ id: r.get(`Entity${n}_id`), name: r.get(`Entity${n}_name`), type: r.get(`Entity${n}_type`) }));
    const gene = sides.find((s) => s.type === 'Gene');
    const chem = sides.find((s) => s.type === 'Chemical');
    // Only gene–chemical pairs feed the served resources; the file lists each pair both ways.
    if (!gene || !chem || sides[0] !== gene) return null;
    if (!gene.name || !chem.name) return 'no entity name';
    return record('relationship', `${gene.id}\t${chem.id}`, {
      geneId: gene.id,
      gene: gene.name,
      chemicalId: chem.id,
      chemical: chem.name,
      association: r.get('Association'),
    });
  },
};

const labels: RowTable = {
  what: 'drugLabels.tsv',
  matches: (h) => has(h, 'PharmGKB ID', 'Source', 'Testing Level') && !has(h, 'Label IDs'),
  convert(r) {
    const id = r.get('PharmGKB ID');
    if (!PA_ID.test(id)) return `malformed PharmGKB id "${id}"`;
    const source = r.get('Source');
    if (!source) return 'no source';
    const testingLevel = r.get('Testing Level');
    const dosing = r.get('Has Dosing Info');
    return record('label', id, {
      id,
      name: r.get('Name'),
      source,
      testingLevel,
      hasDosingInfo: dosing !== '',
      drugs: splitList(r.get('Chemicals'), ';'),
      genes: splitList(r.get('Genes'), ';'),
      variants: splitList(r.get('Variants/Haplotypes'), ';'),
      lastUpdated: isoDate(r.get('Latest History Date (YYYY-MM-DD)')),
      sections: {
        testing: r.get('Testing Section') || testingLevel,
        dosing: r.get('Dosing Section') || dosing,
        warnings: r.get('Warnings Section'),
      },
    });
  },
};

const cpicPairs: RowTable = {
  what: 'CPIC gene–drug pairs',
  matches: (h) => has(h, 'Gene', 'Drug', 'CPIC Level'),
  convert(r) {
    const gene = r.get('Gene');
    const drug = r.get('Drug');
    if (!gene || !drug) return 'no gene or drug';
    return record('cpicPair', `${gene.toLowerCase()}\t${drug.toLowerCase()}`, {
      gene,
      drug,
      cpicLevel: r.get('CPIC Level'),
      guidelineUrl: r.get('Guideline', 'Guideline URL'),
      pharmgkbLevel: r.get('PharmGKB Level of Evidence', 'ClinPGx Level of Evidence'),
    });
  },
};

// Order matters where headers overlap: the annotation files share their id column.
export const ROW_TABLES: readonly RowTable[] = [genes, chemicals, variants, annotationAlleles, evidence, annotations, relationships, labels, cpicPairs];
