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
import { renderTree, x, type XNode } from './tree.js';

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
  return x('Object-id', [/^\d+$/.test(value) ? x('Object-id_id', value) : x('Object-id_str', value)]);
}

function dbtag(db: string, value: string): XNode {
  return x('Dbtag', [x('Dbtag_db', db), x('Dbtag_tag', [objectId(value)])]);
}

function date(yyyymmdd: string): XNode {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(yyyymmdd);
  if (!m) return x('Date', [x('Date_str', 'unknown')]);
  return x('Date', [x('Date_std', [x('Date-std', [x('Date-std_year', m[1] as string), x('Date-std_month', Number(m[2])), x('Date-std_day', Number(m[3]))])])]);
}

function seqId(accVer: string, gi: string): XNode {
  if (/^\d+$/.test(gi)) return x('Seq-id', [x('Seq-id_gi', gi)]);
  const [acc, ver] = accVer.split('.');
  return x('Seq-id', [x('Seq-id_other', [x('Textseq-id', [x('Textseq-id_accession', acc ?? accVer), ver ? x('Textseq-id_version', ver) : undefined])])]);
}

function accessionParts(accVer: string): XNode[] {
  const [acc, ver] = accVer.split('.');
  return [x('Gene-commentary_accession', acc ?? accVer), ...(ver ? [x('Gene-commentary_version', ver)] : [])];
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
      x('Gene-commentary', [
        x('Gene-commentary_type', 8, { value: 'peptide' }),
        x('Gene-commentary_heading', 'Reference'),
        ...accessionParts(r.protAcc),
        x('Gene-commentary_seqs', [x('Seq-loc', [x('Seq-loc_whole', [seqId(r.protAcc, r.protGi)])])]),
      ]);
    if (!r.rnaAcc) return peptide ? [peptide] : [];
    return [
      x('Gene-commentary', [
        x('Gene-commentary_type', r.rnaAcc.startsWith('NR_') || r.rnaAcc.startsWith('XR_') ? 255 : 3, { value: r.rnaAcc.startsWith('NR_') || r.rnaAcc.startsWith('XR_') ? 'other' : 'mRNA' }),
        x('Gene-commentary_heading', 'Reference'),
        ...accessionParts(r.rnaAcc),
        x('Gene-commentary_seqs', [x('Seq-loc', [x('Seq-loc_whole', [seqId(r.rnaAcc, r.rnaGi)])])]),
        peptide && x('Gene-commentary_products', [peptide]),
      ]),
    ];
  });
  return x('Gene-commentary', [
    x('Gene-commentary_type', 1, { value: 'genomic' }),
    pl.assembly && x('Gene-commentary_heading', pl.assembly),
    x('Gene-commentary_label', pl.assembly ? `Chromosome ${chr} ${pl.assembly}` : `Chromosome ${chr}`),
    ...accessionParts(pl.accession),
    x('Gene-commentary_seqs', [
      x('Seq-loc', [
        x('Seq-loc_int', [
          x('Seq-interval', [
            x('Seq-interval_from', pl.start),
            x('Seq-interval_to', pl.end),
            x('Seq-interval_strand', [x('Na-strand', undefined, { value: pl.minus ? 'minus' : 'plus' })]),
            x('Seq-interval_id', [seqId(pl.accession, pl.gi)]),
          ]),
        ]),
      ]),
    ]),
    products.length > 0 && x('Gene-commentary_products', products),
  ]);
}

function refs(pmids: string[]): XNode | undefined {
  const ids = pmids.filter((p) => /^\d+$/.test(p));
  if (!ids.length) return undefined;
  return x('Gene-commentary_refs', ids.map((p) => x('Pub', [x('Pub_pmid', [x('PubMedId', p)])])));
}

const GO_ORDER = ['Function', 'Process', 'Component'];

function geneOntology(v: GeneView): XNode | undefined {
  if (!v.go.length) return undefined;
  const cats = GO_ORDER.filter((c) => v.go.some((g) => g.category === c));
  return x('Gene-commentary', [
    x('Gene-commentary_type', 254, { value: 'comment' }),
    x('Gene-commentary_heading', 'GeneOntology'),
    x(
      'Gene-commentary_comment',
      cats.map((cat) =>
        x('Gene-commentary', [
          x('Gene-commentary_type', 254, { value: 'comment' }),
          x('Gene-commentary_label', cat),
          x(
            'Gene-commentary_comment',
            v.go
              .filter((g) => g.category === cat)
              .map((g) =>
                x('Gene-commentary', [
                  x('Gene-commentary_type', 254, { value: 'comment' }),
                  refs(g.pubmed.split('|')),
                  x('Gene-commentary_source', [
                    x('Other-source', [
                      x('Other-source_src', [dbtag('GO', String(Number(g.goId.slice(3))))]),
                      g.qualifier && x('Other-source_pre-text', g.qualifier),
                      x('Other-source_anchor', g.term),
                      g.evidence && x('Other-source_post-text', `evidence: ${g.evidence}`),
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
  const authority = xrefs(g.dbXrefs).map((r) => AUTHORITIES[r.db]).find(Boolean);
  const prop = (label: string, text: string) => x('Gene-commentary', [x('Gene-commentary_type', 16, { value: 'property' }), x('Gene-commentary_label', label), x('Gene-commentary_text', text)]);
  return x('Gene-commentary', [
    x('Gene-commentary_type', 254, { value: 'comment' }),
    x('Gene-commentary_label', 'Nomenclature'),
    authority && x('Gene-commentary_source', [x('Other-source', [x('Other-source_anchor', authority)])]),
    x('Gene-commentary_properties', [g.nomSymbol && prop('Official Symbol', g.nomSymbol), g.nomName && prop('Official Full Name', g.nomName)]),
  ]);
}

function phenotypes(v: GeneView): XNode | undefined {
  if (!v.conditions.length) return undefined;
  return x('Gene-commentary', [
    x('Gene-commentary_type', 254, { value: 'comment' }),
    x('Gene-commentary_heading', 'Phenotypes'),
    x(
      'Gene-commentary_comment',
      v.conditions.map((c) =>
        x('Gene-commentary', [
          x('Gene-commentary_type', 254, { value: 'comment' }),
          x('Gene-commentary_text', c.diseaseName),
          (c.diseaseMim || c.conceptId) && x('Gene-commentary_source', [x('Other-source', [x('Other-source_src', [c.diseaseMim ? dbtag('MIM', c.diseaseMim) : dbtag('MedGen', c.conceptId)])])]),
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
  return x('Entrezgene', [
    x('Entrezgene_track-info', [
      x('Gene-track', [
        x('Gene-track_geneid', g.geneId),
        x('Gene-track_status', 0, { value: 'live' }),
        x('Gene-track_create-date', [x('Date', [x('Date_str', 'unknown')])]),
        x('Gene-track_update-date', [date(g.modDate)]),
      ]),
    ]),
    x('Entrezgene_type', GENE_TYPE[g.type] ?? 255, { value: GENE_TYPE[g.type] !== undefined ? g.type : 'other' }),
    x('Entrezgene_source', [
      x('BioSource', [
        x('BioSource_genome', mito ? 5 : 1, { value: mito ? 'mitochondrion' : 'genomic' }),
        x('BioSource_origin', 1, { value: 'natural' }),
        x('BioSource_org', [
          x('Org-ref', [
            v.taxon.scientific && x('Org-ref_taxname', v.taxon.scientific),
            v.taxon.common && x('Org-ref_common', v.taxon.common),
            x('Org-ref_db', [dbtag('taxon', String(v.taxon.taxId))]),
          ]),
        ]),
        chromosomes.length > 0 &&
          x(
            'BioSource_subtype',
            chromosomes.map((c) => x('SubSource', [x('SubSource_subtype', 1, { value: 'chromosome' }), x('SubSource_name', c)])),
          ),
      ]),
    ]),
    x('Entrezgene_gene', [
      x('Gene-ref', [
        x('Gene-ref_locus', g.symbol),
        g.description && x('Gene-ref_desc', g.description),
        g.mapLocation && x('Gene-ref_maploc', g.mapLocation),
        tags.length > 0 && x('Gene-ref_db', tags.map((t) => dbtag(t.db, t.value))),
        cellList(g.synonyms).length > 0 && x('Gene-ref_syn', cellList(g.synonyms).map((s) => x('Gene-ref_syn_E', s))),
        g.locusTag && x('Gene-ref_locus-tag', g.locusTag),
      ]),
    ]),
    g.type === 'protein-coding' && designations.length > 0 && x('Entrezgene_prot', [x('Prot-ref', [x('Prot-ref_name', designations.map((d) => x('Prot-ref_name_E', d)))])]),
    g.mapLocation && x('Entrezgene_location', [x('Maps', [x('Maps_display-str', g.mapLocation), x('Maps_method', [x('Maps_method_map-type', undefined, { value: 'cyto' })])])]),
    x('Entrezgene_gene-source', [x('Gene-source', [x('Gene-source_src', 'LocusLink'), x('Gene-source_src-int', g.geneId), x('Gene-source_src-str2', String(g.geneId))])]),
    placements.length > 0 && x('Entrezgene_locus', placements.map((p) => locus(v, p))),
    (nomenclature(v) || geneOntology(v)) && x('Entrezgene_properties', [nomenclature(v), geneOntology(v)]),
    (v.pubmed.length > 0 || v.conditions.length > 0) &&
      x('Entrezgene_comments', [v.pubmed.length > 0 && x('Gene-commentary', [x('Gene-commentary_type', 254, { value: 'comment' }), refs(v.pubmed.map(String))]), phenotypes(v)]),
    tags.length > 0 && x('Entrezgene_unique-keys', tags.map((t) => dbtag(t.db, t.value))),
    x('Entrezgene_xtra-index-terms', [x('Entrezgene_xtra-index-terms_E', `LOC${g.geneId}`)]),
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
