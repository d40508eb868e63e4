/** The searchable fields of db=clinvar. */
import type { Database, FieldDef } from '../search/fields.js';

export const C = {
  GENE: 1,
  GENEID: 2,
  CLNSIG: 3,
  DIS_KW: 4,
  DIS_TEXT: 5,
  VARNAME_KW: 6,
  VARNAME_TEXT: 7,
  CHR: 8,
  ASSEMBLY: 9,
  TYPE: 10,
  REVSTAT: 11,
  ORIGIN: 12,
  RS: 13,
  ACCN: 14,
  CYTO: 15,
} as const;

const kw = (code: number) => ({ code, kind: 'keyword' as const });
const tx = (code: number) => ({ code, kind: 'text' as const });

const FIELDS: FieldDef[] = [
  { name: 'ALL', fullName: 'All Fields', description: 'All terms from all searchable fields', tags: ['all', 'all fields'], subs: [] },
  { name: 'UID', fullName: 'UID', description: 'Unique number assigned to a variation record (its VariationID)', tags: ['uid'], subs: [], uid: true, numerical: true, singleToken: true },
  { name: 'GENE', fullName: 'Gene Name', description: 'Symbol of a gene the variation is in or near', tags: ['gene', 'gene name', 'sym', 'symbol'], subs: [kw(C.GENE)], singleToken: true },
  { name: 'GENEID', fullName: 'Gene ID', description: 'GeneID of a gene the variation is in or near', tags: ['geneid', 'gene id'], subs: [kw(C.GENEID)], numerical: true, singleToken: true },
  {
    name: 'CLNSIG',
    fullName: 'Clinical Significance',
    description: 'Germline classification, e.g. pathogenic, likely benign, uncertain significance',
    tags: ['clnsig', 'clinical significance', 'germline classification'],
    subs: [kw(C.CLNSIG)],
  },
  {
    name: 'DIS',
    fullName: 'Disease/Phenotype',
    description: 'Conditions the variation was classified for',
    tags: ['disorder', 'dis', 'disease', 'disease/phenotype'],
    subs: [kw(C.DIS_KW), tx(C.DIS_TEXT)],
  },
  {
    name: 'VARNAME',
    fullName: 'Variant name',
    description: 'Preferred name of the variation and its HGVS expressions',
    tags: ['variant name', 'varname', 'vn'],
    subs: [kw(C.VARNAME_KW), tx(C.VARNAME_TEXT)],
  },
  { name: 'CHR', fullName: 'Chromosome', description: 'Chromosome of the variation', tags: ['chr', 'chromosome'], subs: [kw(C.CHR)], singleToken: true },
  { name: 'ASSEMBLY', fullName: 'Assembly', description: 'Genome assembly the variation is placed on: GRCh37 or GRCh38', tags: ['assembly'], subs: [kw(C.ASSEMBLY)], singleToken: true },
  { name: 'TYPE', fullName: 'Type of variation', description: 'Variant type, e.g. single nucleotide variant, deletion', tags: ['type', 'variant type', 'type of variation'], subs: [kw(C.TYPE)] },
  { name: 'REVSTAT', fullName: 'Review status', description: 'Review status of the germline classification', tags: ['review status', 'revstat'], subs: [kw(C.REVSTAT)] },
  { name: 'ORIGIN', fullName: 'Origin', description: 'Allele origin: germline, somatic, de novo...', tags: ['origin', 'allele origin'], subs: [kw(C.ORIGIN)] },
  { name: 'RS', fullName: 'dbSNP ID', description: 'dbSNP rs number', tags: ['rs', 'dbsnp id'], subs: [kw(C.RS)], singleToken: true },
  { name: 'ACCN', fullName: 'Accession', description: 'VCV and RCV accessions', tags: ['accession', 'accn'], subs: [kw(C.ACCN)], singleToken: true },
  { name: 'CYTO', fullName: 'Cytogenetic band', description: 'Cytogenetic location', tags: ['cytogenetic band', 'cyto'], subs: [kw(C.CYTO)], singleToken: true },
];

export const CLINVAR_DB: Database = { name: 'clinvar', fields: FIELDS };
