/** The searchable fields of db=gene: sub-field codes of the index and the tags that select them. */
import type { Database, FieldDef, Resolved, ResolveContext } from '../search/fields.js';

export const G = {
  GENE: 1,
  PREF: 2,
  TID: 3,
  CHR: 4,
  DESC: 5,
  DESIG: 6,
  MIM: 7,
  PROP: 8,
  ACCN: 9,
  GO_BP_ID: 11,
  GO_BP_NAME: 12,
  GO_MF_ID: 13,
  GO_MF_NAME: 14,
  GO_CC_ID: 15,
  GO_CC_NAME: 16,
  DIS_KW: 17,
  DIS_TEXT: 18,
  MAP: 19,
} as const;

const kw = (code: number) => ({ code, kind: 'keyword' as const });
const tx = (code: number) => ({ code, kind: 'text' as const });

/** Organism names resolve to taxonomy ids (the taxon and those under it), shown by scientific name. */
async function organism(phrase: string, ctx: ResolveContext): Promise<Resolved | undefined> {
  const t = await ctx.taxon(phrase);
  if (!t) return undefined;
  return {
    node: { k: 'atom', fields: [G.TID], terms: t.taxIds.map(String), prefix: false },
    translation: `"${t.scientific}"[Organism]`,
  };
}

async function taxId(phrase: string): Promise<Resolved | undefined> {
  const m = /^(?:txid)?(\d+)$/i.exec(phrase.trim());
  if (!m) return undefined;
  return { node: { k: 'atom', fields: [G.TID], terms: [m[1] as string], prefix: false }, translation: `${m[1]}[Taxonomy ID]` };
}

const FIELDS: FieldDef[] = [
  { name: 'ALL', fullName: 'All Fields', description: 'All terms from all searchable fields', tags: ['all', 'all fields'], subs: [] },
  { name: 'UID', fullName: 'UID', description: 'Unique number assigned to a gene record', tags: ['uid'], subs: [], uid: true, numerical: true, singleToken: true },
  { name: 'GENE', fullName: 'Gene Name', description: 'Symbol or alias of the gene', tags: ['gene', 'gene name', 'sym', 'symbol'], subs: [kw(G.GENE)], singleToken: true },
  { name: 'PREF', fullName: 'Preferred Symbol', description: 'The official or preferred symbol of the gene', tags: ['pref', 'preferred symbol'], subs: [kw(G.PREF)], singleToken: true },
  {
    name: 'ORGN',
    fullName: 'Organism',
    description: 'Scientific or common name of the organism, or txid followed by its taxonomy id',
    tags: ['organism', 'orgn'],
    subs: [kw(G.TID)],
    explode: true,
    resolve: organism,
  },
  { name: 'TID', fullName: 'Taxonomy ID', description: 'Taxonomy id of the organism', tags: ['taxid', 'tid', 'taxonomy id'], subs: [kw(G.TID)], resolve: taxId, numerical: true, singleToken: true },
  { name: 'CHR', fullName: 'Chromosome', description: 'Chromosome of the gene', tags: ['chromosome', 'chr'], subs: [kw(G.CHR)], singleToken: true },
  { name: 'MV', fullName: 'Map Location', description: 'Cytogenetic map location', tags: ['map location', 'map', 'mv'], subs: [kw(G.MAP)], singleToken: true },
  { name: 'GFN', fullName: 'Gene Full Name', description: 'Full name of the gene', tags: ['gene full name', 'gfn', 'title', 'titl'], subs: [tx(G.DESC)] },
  { name: 'WORD', fullName: 'Text Word', description: 'Words of the gene name, nomenclature name and other designations', tags: ['text word', 'word', 'tw'], subs: [tx(G.DESC), tx(G.DESIG)] },
  {
    name: 'DIS',
    fullName: 'Disease/Phenotype',
    description: 'Diseases and phenotypes associated with the gene',
    tags: ['disease', 'dis', 'disease/phenotype', 'phenotype'],
    subs: [kw(G.DIS_KW), tx(G.DIS_TEXT)],
  },
  {
    name: 'GO',
    fullName: 'Gene Ontology',
    description: 'Gene Ontology terms or identifiers of any category',
    tags: ['go', 'gene ontology'],
    subs: [kw(G.GO_BP_ID), tx(G.GO_BP_NAME), kw(G.GO_MF_ID), tx(G.GO_MF_NAME), kw(G.GO_CC_ID), tx(G.GO_CC_NAME)],
  },
  { name: 'BPRO', fullName: 'Biological Process', description: 'Gene Ontology biological process', tags: ['biological process', 'process'], subs: [kw(G.GO_BP_ID), tx(G.GO_BP_NAME)] },
  { name: 'MFUN', fullName: 'Molecular Function', description: 'Gene Ontology molecular function', tags: ['molecular function', 'function'], subs: [kw(G.GO_MF_ID), tx(G.GO_MF_NAME)] },
  { name: 'CCMP', fullName: 'Cellular Component', description: 'Gene Ontology cellular component', tags: ['cellular component', 'component'], subs: [kw(G.GO_CC_ID), tx(G.GO_CC_NAME)] },
  { name: 'MIM', fullName: 'MIM ID', description: 'OMIM number of the gene', tags: ['mim', 'mim id'], subs: [kw(G.MIM)], numerical: true, singleToken: true },
  { name: 'ACCN', fullName: 'Accession', description: 'RefSeq RNA and protein accessions of the gene', tags: ['accession', 'accn'], subs: [kw(G.ACCN)], singleToken: true },
  { name: 'PROP', fullName: 'Properties', description: 'Properties such as "genetype protein coding" and alive', tags: ['properties', 'prop', 'filter', 'filt'], subs: [kw(G.PROP)] },
];

export const GENE_DB: Database = { name: 'gene', fields: FIELDS };

/** The GO sub-fields of a gene2go category. */
export const GO_CATEGORY: Record<string, { id: number; name: number }> = {
  Process: { id: G.GO_BP_ID, name: G.GO_BP_NAME },
  Function: { id: G.GO_MF_ID, name: G.GO_MF_NAME },
  Component: { id: G.GO_CC_ID, name: G.GO_CC_NAME },
};
