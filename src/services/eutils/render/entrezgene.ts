/**
 * efetch db=gene as Entrezgene XML (NCBI_Entrezgene.dtd): nomenclature, organism, locations and
 * their transcripts and proteins, GO annotations, phenotypes, publications and cross-references,
 * as far as the loaded bulk files carry them.
 */
import type { GeneView } from '../../ncbi/gene/view.js';
import { cellList } from '../../ncbi/text.js';
import { DOCTYPE } from '../xml.js';
import { chromosomeOf, primaryPlacements, type Placement } from '../../ncbi/gene/placement.js';
import { xrefs } from '../../ncbi/gene/xrefs.js';
import { asnText } from './asn1.js';
import { element, renderTree, type XNode } from './tree.js';

const GENE_TYPE: Record<string, number> = {
  unknown: 0,
  tRNA: 1,
  rRNA: 2,
  snRNA: 3,
  scRNA: 4,
  snoRNA: 5,
  'protein-coding': 6,
  pseudo: 7,
  transposon: 8,
  miscRNA: 9,
  ncRNA: 10,
  'biological-region': 11,
  other: 255,
};

/** Nomenclature authorities by the dbXrefs prefix that names their identifier. */
export const AUTHORITIES: Record<string, string> = {
  HGNC: 'HUGO Gene Nomenclature Committee',
  MGI: 'Mouse Genome Informatics',
  RGD: 'Rat Genome Database',
  ZFIN: 'Zebrafish Information Network',
  FLYBASE: 'FlyBase',
  WormBase: 'WormBase',
  SGD: 'Saccharomyces Genome Database',
  TAIR: 'The Arabidopsis Information Resource',
};

function objectId(value: string): XNode {
  return element('Object-id', [/^\d+$/.test(value) ? element('Object-id_id', value) : element('Object-id_str', value)]);
}

function dbtag(db: string, value: string): XNode {
  return element('Dbtag', [element('Dbtag_db', db), element('Dbtag_tag', [objectId(value)])]);
}

function date(yyyymmdd: string): XNode {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(yyyymmdd);
  if (!m) return element('Date', [element('Date_str', 'unknown')]);
  return element('Date', [element('Date_std', [element('Date-std', [element('Date-std_year', m[1] as string), element('Date-std_month', Number(m[2])), element('Date-std_day', Number(m[3]))])])]);
}

function seqId(accVer: string, gi: string): XNode {
  if (/^\d+$/.test(gi)) return element('Seq-id', [element('Seq-id_gi', gi)]);
  const [acc, ver] = accVer.split('.');
  return element('Seq-id', [element('Seq-id_other', [element('Textseq-id', [element('Textseq-id_accession', acc ?? accVer), ver ? element('Textseq-id_version', ver) : undefined])])]);
}

function accessionParts(accVer: string): XNode[] {
  const [acc, ver] = accVer.split('.');
  return [element('Gene-commentary_accession', acc ?? accVer), ...(ver ? [element('Gene-commentary_version', ver)] : [])];
}

function locus(v: GeneView, pl: Placement): XNode {
  const chr = chromosomeOf(v, pl.accession);
  const rnas = v.refseq.filter((r) => r.genAcc === pl.accession && (r.rnaAcc || r.protAcc));
  const seen = new Set<string>();
  const products = rnas.flatMap((r) => {
    const key = `${r.rnaAcc}|${r.protAcc}`;
    if (seen.has(key)) return [];
    seen.add(key);
    const peptide =
      r.protAcc &&
      element('Gene-commentary', [
        element('Gene-commentary_type', 8, { value: 'peptide' }),
        element('Gene-commentary_heading', 'Reference'),
        ...accessionParts(r.protAcc),
        element('Gene-commentary_seqs', [element('Seq-loc', [element('Seq-loc_whole', [seqId(r.protAcc, r.protGi)])])]),
      ]);
    if (!r.rnaAcc) return peptide ? [peptide] : [];
    return [
      element('Gene-commentary', [
        element('Gene-commentary_type', r.rnaAcc.startsWith('NR_') || r.rnaAcc.startsWith('XR_') ? 255 : 3, { value: r.rnaAcc.startsWith('NR_') || r.rnaAcc.startsWith('XR_') ? 'other' : 'mRNA' }),
        element('Gene-commentary_heading', 'Reference'),
        ...accessionParts(r.rnaAcc),
        element('Gene-commentary_seqs', [element('Seq-loc', [element('Seq-loc_whole', [seqId(r.rnaAcc, r.rnaGi)])])]),
        peptide && element('Gene-commentary_products', [peptide]),
      ]),
    ];
  });
  return element('Gene-commentary', [
    element('Gene-commentary_type', 1, { value: 'genomic' }),
    pl.assembly && element('Gene-commentary_heading', pl.assembly),
    element('Gene-commentary_label', pl.assembly ? `Chromosome ${chr} ${pl.assembly}` : `Chromosome ${chr}`),
    ...accessionParts(pl.accession),
    element('Gene-commentary_seqs', [
      element('Seq-loc', [
        element('Seq-loc_int', [
          element('Seq-interval', [
            element('Seq-interval_from', pl.start),
            element('Seq-interval_to', pl.end),
            element('Seq-interval_strand', [element('Na-strand', undefined, { value: pl.minus ? 'minus' : 'plus' })]),
            element('Seq-interval_id', [seqId(pl.accession, pl.gi)]),
          ]),
        ]),
      ]),
    ]),
    products.length > 0 && element('Gene-commentary_products', products),
  ]);
}

function refs(pmids: string[]): XNode | undefined {
  const ids = pmids.filter((p) => /^\d+$/.test(p));
  if (!ids.length) return undefined;
  return element(
    'Gene-commentary_refs',
    ids.map((p) => element('Pub', [element('Pub_pmid', [element('PubMedId', p)])])),
  );
}

const GO_ORDER = ['Function', 'Process', 'Component'];

function geneOntology(v: GeneView): XNode | undefined {
  if (!v.go.length) return undefined;
  const cats = GO_ORDER.filter((c) => v.go.some((g) => g.category === c));
  return element('Gene-commentary', [
    element('Gene-commentary_type', 254, { value: 'comment' }),
    element('Gene-commentary_heading', 'GeneOntology'),
    element(
      'Gene-commentary_comment',
      cats.map((cat) =>
        element('Gene-commentary', [
          element('Gene-commentary_type', 254, { value: 'comment' }),
          element('Gene-commentary_label', cat),
          element(
            'Gene-commentary_comment',
            v.go
              .filter((g) => g.category === cat)
              .map((g) =>
                element('Gene-commentary', [
                  element('Gene-commentary_type', 254, { value: 'comment' }),
                  refs(g.pubmed.split('|')),
                  element('Gene-commentary_source', [
                    element('Other-source', [
                      element('Other-source_src', [dbtag('GO', String(Number(g.goId.slice(3))))]),
                      g.qualifier && element('Other-source_pre-text', g.qualifier),
                      element('Other-source_anchor', g.term),
                      g.evidence && element('Other-source_post-text', `evidence: ${g.evidence}`),
                    ]),
                  ]),
                ]),
              ),
          ),
        ]),
      ),
    ),
  ]);
}

function nomenclature(v: GeneView): XNode | undefined {
  const g = v.gene;
  if (!g.nomSymbol && !g.nomName) return undefined;
  const authority = xrefs(g.dbXrefs)
    .map((r) => AUTHORITIES[r.db])
    .find(Boolean);
  const prop = (label: string, text: string) =>
    element('Gene-commentary', [element('Gene-commentary_type', 16, { value: 'property' }), element('Gene-commentary_label', label), element('Gene-commentary_text', text)]);
  return element('Gene-commentary', [
    element('Gene-commentary_type', 254, { value: 'comment' }),
    element('Gene-commentary_label', 'Nomenclature'),
    authority && element('Gene-commentary_source', [element('Other-source', [element('Other-source_anchor', authority)])]),
    element('Gene-commentary_properties', [g.nomSymbol && prop('Official Symbol', g.nomSymbol), g.nomName && prop('Official Full Name', g.nomName)]),
  ]);
}

function phenotypes(v: GeneView): XNode | undefined {
  if (!v.conditions.length) return undefined;
  return element('Gene-commentary', [
    element('Gene-commentary_type', 254, { value: 'comment' }),
    element('Gene-commentary_heading', 'Phenotypes'),
    element(
      'Gene-commentary_comment',
      v.conditions.map((c) =>
        element('Gene-commentary', [
          element('Gene-commentary_type', 254, { value: 'comment' }),
          element('Gene-commentary_text', c.diseaseName),
          (c.diseaseMim || c.conceptId) &&
            element('Gene-commentary_source', [element('Other-source', [element('Other-source_src', [c.diseaseMim ? dbtag('MIM', c.diseaseMim) : dbtag('MedGen', c.conceptId)])])]),
        ]),
      ),
    ),
  ]);
}

export function entrezgene(v: GeneView): XNode {
  const g = v.gene;
  const chromosomes = cellList(g.chromosome);
  const mito = chromosomes.includes('MT');
  const tags = xrefs(g.dbXrefs);
  const designations = cellList(g.otherDesignations);
  const placements = primaryPlacements(v);
  return element('Entrezgene', [
    element('Entrezgene_track-info', [
      element('Gene-track', [
        element('Gene-track_geneid', g.geneId),
        element('Gene-track_status', 0, { value: 'live' }),
        element('Gene-track_create-date', [element('Date', [element('Date_str', 'unknown')])]),
        element('Gene-track_update-date', [date(g.modDate)]),
      ]),
    ]),
    element('Entrezgene_type', GENE_TYPE[g.type] ?? 255, { value: GENE_TYPE[g.type] !== undefined ? g.type : 'other' }),
    element('Entrezgene_source', [
      element('BioSource', [
        element('BioSource_genome', mito ? 5 : 1, { value: mito ? 'mitochondrion' : 'genomic' }),
        element('BioSource_origin', 1, { value: 'natural' }),
        element('BioSource_org', [
          element('Org-ref', [
            v.taxon.scientific && element('Org-ref_taxname', v.taxon.scientific),
            v.taxon.common && element('Org-ref_common', v.taxon.common),
            element('Org-ref_db', [dbtag('taxon', String(v.taxon.taxId))]),
          ]),
        ]),
        chromosomes.length > 0 &&
          element(
            'BioSource_subtype',
            chromosomes.map((c) => element('SubSource', [element('SubSource_subtype', 1, { value: 'chromosome' }), element('SubSource_name', c)])),
          ),
      ]),
    ]),
    element('Entrezgene_gene', [
      element('Gene-ref', [
        element('Gene-ref_locus', g.symbol),
        g.description && element('Gene-ref_desc', g.description),
        g.mapLocation && element('Gene-ref_maploc', g.mapLocation),
        tags.length > 0 &&
          element(
            'Gene-ref_db',
            tags.map((t) => dbtag(t.db, t.value)),
          ),
        cellList(g.synonyms).length > 0 &&
          element(
            'Gene-ref_syn',
            cellList(g.synonyms).map((s) => element('Gene-ref_syn_E', s)),
          ),
        g.locusTag && element('Gene-ref_locus-tag', g.locusTag),
      ]),
    ]),
    g.type === 'protein-coding' &&
      designations.length > 0 &&
      element('Entrezgene_prot', [
        element('Prot-ref', [
          element(
            'Prot-ref_name',
            designations.map((d) => element('Prot-ref_name_E', d)),
          ),
        ]),
      ]),
    g.mapLocation &&
      element('Entrezgene_location', [element('Maps', [element('Maps_display-str', g.mapLocation), element('Maps_method', [element('Maps_method_map-type', undefined, { value: 'cyto' })])])]),
    element('Entrezgene_gene-source', [element('Gene-source', [element('Gene-source_src', 'LocusLink'), element('Gene-source_src-int', g.geneId), element('Gene-source_src-str2', String(g.geneId))])]),
    placements.length > 0 &&
      element(
        'Entrezgene_locus',
        placements.map((p) => locus(v, p)),
      ),
    (nomenclature(v) || geneOntology(v)) && element('Entrezgene_properties', [nomenclature(v), geneOntology(v)]),
    (v.pubmed.length > 0 || v.conditions.length > 0) &&
      element('Entrezgene_comments', [v.pubmed.length > 0 && element('Gene-commentary', [element('Gene-commentary_type', 254, { value: 'comment' }), refs(v.pubmed.map(String))]), phenotypes(v)]),
    tags.length > 0 &&
      element(
        'Entrezgene_unique-keys',
        tags.map((t) => dbtag(t.db, t.value)),
      ),
    element('Entrezgene_xtra-index-terms', [element('Entrezgene_xtra-index-terms_E', `LOC${g.geneId}`)]),
  ]);
}

export function entrezgeneSet(views: GeneView[]): string {
  const lines = ['<?xml version="1.0" ?>', DOCTYPE.entrezgene, '<Entrezgene-Set>'];
  for (const v of views) renderTree(entrezgene(v), 0, lines);
  lines.push('</Entrezgene-Set>');
  return lines.join('\n') + '\n';
}

/** The records as ASN.1 value notation, one `Entrezgene ::=` per gene, as efetch retmode=asn.1. */
export function entrezgeneAsn(views: GeneView[]): string {
  return views.map((v) => asnText(entrezgene(v))).join('');
}
