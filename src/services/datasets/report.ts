/**
 * A gene as the Datasets interface reports it: the spec's fields (gene_id, symbol, description,
 * tax_name, taxid, chromosomes, type, synonyms, nomenclature_authority, genomic_ranges with 1-based
 * integer ranges, transcripts), and beside them the real v2 names the spec does not use (tax_id,
 * taxname, common_name, orientation, omim_ids, ensembl_gene_ids, transcript_count, protein_count).
 */
import type { GeneView } from '../ncbi/gene/view.js';
import { cellList } from '../ncbi/text.js';
import { primaryPlacements, products } from '../ncbi/gene/placement.js';
import { xrefs } from '../ncbi/gene/xrefs.js';

const TYPE: Record<string, string> = {
  'protein-coding': 'PROTEIN_CODING',
  pseudo: 'PSEUDO',
  tRNA: 'tRNA',
  rRNA: 'rRNA',
  snRNA: 'snRNA',
  scRNA: 'scRNA',
  snoRNA: 'snoRNA',
  miscRNA: 'miscRNA',
  ncRNA: 'ncRNA',
  transposon: 'TRANSPOSON',
  'biological-region': 'BIOLOGICAL_REGION',
  other: 'OTHER',
  unknown: 'UNKNOWN',
};

/** Nomenclature authorities by their dbXrefs name, as Datasets names them. */
const AUTHORITY_DBS = ['HGNC', 'MGI', 'RGD', 'ZFIN', 'FLYBASE', 'WormBase', 'SGD', 'TAIR'];

export function geneReport(v: GeneView): Record<string, unknown> {
  const g = v.gene;
  const refs = xrefs(g.dbXrefs);
  const authority = refs.find((r) => AUTHORITY_DBS.includes(r.db));
  const places = primaryPlacements(v);
  const prods = products(v);
  const transcripts = prods.filter((p) => p.rna);
  const out: Record<string, unknown> = {
    gene_id: String(g.geneId),
    symbol: g.symbol,
    description: g.description,
    tax_id: String(v.taxon.taxId),
    taxid: v.taxon.taxId,
    taxname: v.taxon.scientific,
    tax_name: v.taxon.scientific,
  };
  if (v.taxon.common) out.common_name = v.taxon.common;
  out.type = TYPE[g.type] ?? 'OTHER';
  if (places[0]) out.orientation = places[0].minus ? 'minus' : 'plus';
  out.chromosomes = cellList(g.chromosome);
  out.nomenclature_authority = authority ? { authority: authority.db, identifier: authority.value.includes(':') ? authority.value : `${authority.db}:${authority.value}` } : {};
  const omim = refs.filter((r) => r.db === 'MIM').map((r) => r.value);
  if (omim.length) out.omim_ids = omim;
  const ensembl = refs.filter((r) => r.db === 'Ensembl').map((r) => r.value);
  if (ensembl.length) out.ensembl_gene_ids = ensembl;
  out.synonyms = cellList(g.synonyms);
  // Ranges are 1-based here; gene2refseq gives them 0-based.
  out.genomic_ranges = places.map((p) => ({
    accession_version: p.accession,
    range: [{ begin: p.start + 1, end: p.end + 1, orientation: p.minus ? 'minus' : 'plus' }],
  }));
  // `length` (bases) only where the RefSeq release catalog was loaded: gene2refseq does not carry it.
  out.transcripts = transcripts.map((t) => ({
    accession_version: t.rna,
    ...(t.rnaLength ? { length: t.rnaLength } : {}),
    ...(t.protein ? { protein: { accession_version: t.protein } } : {}),
  }));
  out.transcript_count = transcripts.length;
  out.protein_count = new Set(prods.map((p) => p.protein).filter(Boolean)).size;
  return out;
}
