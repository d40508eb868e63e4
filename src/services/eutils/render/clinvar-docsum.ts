/** The db=clinvar document summary (esummary version 2.0), in the official DTD's order. */
import type { SummaryRow } from '../../ncbi/clinvar/records.js';
import { conditions, docsumDate, hgvsParts, spdi, vcvAccession } from '../../ncbi/clinvar/values.js';
import type { VariantView } from '../../ncbi/clinvar/view.js';
import { listField, objectField, textField, type SNode, type SValue } from '../schema.js';

const XREF = (name: string) => objectField(name, [textField('db_source'), textField('db_id')]);
const CLASSIFICATION = (name: string) =>
  objectField(name, [
    textField('description'),
    textField('last_evaluated'),
    textField('review_status'),
    textField('fda_recognized_database'),
    listField('trait_set', objectField('trait', [listField('trait_xrefs', XREF('trait_xref')), textField('trait_name')])),
  ]);

export const CLINVAR_DOCSUM: readonly SNode[] = [
  textField('obj_type'),
  textField('accession'),
  textField('accession_version'),
  textField('title'),
  listField(
    'variation_set',
    objectField('variation', [
      textField('measure_id'),
      listField('variation_xrefs', XREF('variation_xref')),
      textField('variation_name'),
      textField('cdna_change'),
      listField('aliases', textField('string')),
      listField(
        'variation_loc',
        objectField(
          'assembly_set',
          [
            'status',
            'assembly_name',
            'chr',
            'band',
            'start',
            'stop',
            'inner_start',
            'inner_stop',
            'outer_start',
            'outer_stop',
            'display_start',
            'display_stop',
            'assembly_acc_ver',
            'annotation_release',
            'alt',
            'ref',
          ].map(textField),
        ),
      ),
      listField('allele_freq_set', objectField('allele_freq', [textField('source'), textField('value'), textField('minor_allele')])),
      textField('variant_type'),
      textField('canonical_spdi'),
    ]),
  ),
  objectField('supporting_submissions', [listField('scv', textField('string')), listField('rcv', textField('string'))]),
  CLASSIFICATION('germline_classification'),
  CLASSIFICATION('clinical_impact_classification'),
  CLASSIFICATION('oncogenicity_classification'),
  textField('record_status'),
  textField('gene_sort'),
  textField('chr_sort'),
  textField('location_sort'),
  textField('variation_set_name'),
  textField('variation_set_id'),
  listField('genes', objectField('gene', [textField('symbol'), textField('GeneID'), textField('strand'), textField('source')])),
  listField('molecular_consequence_list', textField('string')),
  textField('protein_change'),
  textField('fda_recognized_database'),
];

/** Facts of the assemblies ClinVar places variants on. */
export const ASSEMBLIES: Record<string, { accession: string; status: string }> = {
  GRCh38: { accession: 'GCF_000001405.38', status: 'current' },
  GRCh37: { accession: 'GCF_000001405.25', status: 'previous' },
};

const split = (v: string, sep: string | RegExp) =>
  v
    .split(sep)
    .map((s) => s.trim())
    .filter((s) => s && s !== '-');

function otherXrefs(r: SummaryRow): { db_source: string; db_id: string }[] {
  const out: { db_source: string; db_id: string }[] = [];
  if (/^\d+$/.test(r.rs) && r.rs !== '-1') out.push({ db_source: 'dbSNP', db_id: r.rs });
  for (const x of split(r.otherIds, ',')) {
    const k = x.indexOf(':');
    if (k > 0) out.push({ db_source: x.slice(0, k), db_id: x.slice(k + 1) });
  }
  return out;
}

/** Values the VCV record adds when the release XML was loaded. */
function fromVcv(xml: string | undefined): { version: string; consequences: string[]; geneSource: Map<string, { strand: string; source: string }>; status: string } {
  const out = { version: '', consequences: [] as string[], geneSource: new Map<string, { strand: string; source: string }>(), status: '' };
  if (!xml) return out;
  const head = /<VariationArchive\b[^>]*>/.exec(xml)?.[0] ?? '';
  out.version = /\bVersion="(\d+)"/.exec(head)?.[1] ?? '';
  out.status = /<RecordStatus>([^<]*)<\/RecordStatus>/.exec(xml)?.[1] ?? '';
  for (const m of xml.matchAll(/<MolecularConsequence\b[^>]*\bType="([^"]+)"/g)) if (!out.consequences.includes(m[1] as string)) out.consequences.push(m[1] as string);
  for (const m of xml.matchAll(/<Gene\b([^>]*)>/g)) {
    const attrs = m[1] as string;
    const sym = /\bSymbol="([^"]+)"/.exec(attrs)?.[1];
    if (sym) out.geneSource.set(sym, { strand: '', source: /\bSource="([^"]+)"/.exec(attrs)?.[1] ?? '' });
  }
  for (const m of xml.matchAll(/<Gene\b[^>]*\bSymbol="([^"]+)"[^>]*>[\s\S]*?<SequenceLocation\b[^>]*\bStrand="([^"]+)"/g)) {
    const g = out.geneSource.get(m[1] as string);
    if (g && !g.strand) g.strand = m[2] as string;
  }
  return out;
}

export function clinvarDocsum(v: VariantView): Record<string, SValue> {
  const rows = v.rows;
  const first = rows[0] as SummaryRow;
  const grch38 = rows.find((r) => r.assembly === 'GRCh38');
  const h = hgvsParts(first.name);
  const vcv = fromVcv(v.vcv);
  const accession = vcvAccession(v.variationId);
  const loc = rows
    .filter((r) => ASSEMBLIES[r.assembly])
    .sort((a, b) => (a.assembly === 'GRCh38' ? -1 : b.assembly === 'GRCh38' ? 1 : 0))
    .map((r) => ({
      status: ASSEMBLIES[r.assembly]?.status,
      assembly_name: r.assembly,
      chr: r.chromosome,
      band: r.cytogenetic,
      start: r.start,
      stop: r.stop,
      inner_start: '',
      inner_stop: '',
      outer_start: '',
      outer_stop: '',
      display_start: r.start,
      display_stop: r.stop,
      assembly_acc_ver: ASSEMBLIES[r.assembly]?.accession,
      annotation_release: '',
      alt: r.alternateAlleleVcf || r.alternateAllele,
      ref: r.referenceAlleleVcf || r.referenceAllele,
    }));
  const traits = conditions(first.phenotypeList, first.phenotypeIds).map((c) => ({
    trait_xrefs: c.xrefs.map((x) => ({ db_source: x.db, db_id: x.id })),
    trait_name: c.name,
  }));
  const symbols = split(first.geneSymbol, /[;|]/);
  const classification = (description: string, date: string, review: string, withTraits: boolean) => ({
    description,
    last_evaluated: docsumDate(date),
    review_status: review,
    fda_recognized_database: '',
    trait_set: withTraits && description ? traits : [],
  });
  const chr = first.chromosome;
  return {
    obj_type: first.type,
    accession,
    accession_version: vcv.version ? `${accession}.${vcv.version}` : '',
    title: first.name,
    variation_set: [
      {
        measure_id: first.alleleId,
        variation_xrefs: otherXrefs(first),
        variation_name: first.name,
        cdna_change: h.cdna,
        aliases: [],
        variation_loc: loc,
        allele_freq_set: [],
        variant_type: first.type,
        canonical_spdi: grch38 ? spdi(grch38.chromosomeAccession, grch38.positionVcf, grch38.referenceAlleleVcf, grch38.alternateAlleleVcf) : '',
      },
    ],
    supporting_submissions: { scv: split(first.scvsGermline, '|'), rcv: split(first.rcvs, '|') },
    germline_classification: classification(first.clinicalSignificance, first.lastEvaluated, first.reviewStatus, true),
    clinical_impact_classification: classification(first.somaticClinicalImpact, first.somaticClinicalImpactLastEvaluated, first.reviewStatusClinicalImpact, false),
    oncogenicity_classification: classification(first.oncogenicity, first.oncogenicityLastEvaluated, first.reviewStatusOncogenicity, false),
    record_status: vcv.status === 'current' ? '' : vcv.status,
    gene_sort: symbols[0] ?? '',
    chr_sort: /^\d+$/.test(chr) ? chr.padStart(2, '0') : chr,
    location_sort: grch38 && /^\d+$/.test(grch38.start) ? grch38.start.padStart(20, '0') : '',
    variation_set_name: '',
    variation_set_id: '',
    genes: symbols.map((symbol, i) => ({
      symbol,
      GeneID: i === 0 && /^\d+$/.test(first.geneId) ? first.geneId : '',
      strand: vcv.geneSource.get(symbol)?.strand ?? '',
      source: vcv.geneSource.get(symbol)?.source ?? '',
    })),
    molecular_consequence_list: vcv.consequences,
    protein_change: h.proteinShort,
    fda_recognized_database: '',
  };
}
