/**
 * efetch db=clinvar: rettype=vcv writes each variation's VariationArchive, as loaded from the VCV
 * release when it was; otherwise one built from its variant_summary lines (identifiers, names,
 * locations, conditions and the aggregate germline classification those lines carry).
 * rettype=rcv writes one ClinVarSet per RCV accession of the variation.
 */
import type { SummaryRow } from '../../ncbi/clinvar/records.js';
import { conditions, hgvsParts, isoDay, vcvAccession } from '../../ncbi/clinvar/values.js';
import type { VariantView } from '../../ncbi/clinvar/view.js';
import { ASSEMBLIES } from './clinvar-docsum.js';
import { element, renderTree, type XNode } from './tree.js';

const HEAD = '<?xml version="1.0" encoding="UTF-8" ?>\n';

function sequenceLocation(r: SummaryRow): XNode {
  const a: Record<string, string> = { Assembly: r.assembly };
  const asm = ASSEMBLIES[r.assembly];
  if (asm) Object.assign(a, { AssemblyAccessionVersion: asm.accession, AssemblyStatus: asm.status });
  Object.assign(a, { Chr: r.chromosome, Accession: r.chromosomeAccession, start: r.start, stop: r.stop, display_start: r.start, display_stop: r.stop });
  if (r.positionVcf) Object.assign(a, { positionVCF: r.positionVcf, referenceAlleleVCF: r.referenceAlleleVcf, alternateAlleleVCF: r.alternateAlleleVcf });
  for (const k of Object.keys(a)) if (!a[k]) delete a[k];
  return element('SequenceLocation', undefined, a);
}

function xrefList(r: SummaryRow): XNode[] {
  const out: XNode[] = [];
  for (const o of r.otherIds
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const k = o.indexOf(':');
    if (k > 0) out.push(element('XRef', undefined, { ID: o.slice(k + 1), DB: o.slice(0, k) }));
  }
  if (/^\d+$/.test(r.rs) && r.rs !== '-1') out.push(element('XRef', undefined, { Type: 'rs', ID: r.rs, DB: 'dbSNP' }));
  return out;
}

function genes(r: SummaryRow): XNode[] {
  return r.geneSymbol
    .split(/[;|]/)
    .map((s) => s.trim())
    .filter((s) => s && s !== '-')
    .map((symbol, i) => {
      const a: Record<string, string> = { Symbol: symbol };
      if (i === 0 && /^\d+$/.test(r.geneId)) a.GeneID = r.geneId;
      if (i === 0 && r.hgncId) a.HGNC_ID = r.hgncId;
      return element('Gene', undefined, a);
    });
}

/** RCV accessions with the condition names of each (the two cells run in parallel). */
function rcvConditions(r: SummaryRow): { rcv: string; names: string[]; ids: string }[] {
  const rcvs = r.rcvs.split('|');
  const names = r.phenotypeList.split('|');
  const ids = r.phenotypeIds.split('|');
  return rcvs.filter(Boolean).map((rcv, i) => ({ rcv, names: (names[i] ?? '').split(';').filter(Boolean), ids: ids[i] ?? '' }));
}

function builtArchive(v: VariantView): XNode {
  const r = v.rows[0] as SummaryRow;
  const last = isoDay(r.lastEvaluated);
  return element(
    'VariationArchive',
    [
      element('RecordStatus', 'current'),
      element('Species', 'Homo sapiens'),
      element('ClassifiedRecord', [
        element(
          'SimpleAllele',
          [
            element('GeneList', genes(r)),
            element('Name', r.name),
            element('VariantType', r.type),
            element('Location', [r.cytogenetic && element('CytogeneticLocation', r.cytogenetic), ...v.rows.filter((row) => ASSEMBLIES[row.assembly]).map(sequenceLocation)]),
            hgvsParts(r.name).proteinShort && element('ProteinChange', hgvsParts(r.name).proteinShort),
            element('XRefList', xrefList(r)),
          ],
          { AlleleID: r.alleleId, VariationID: String(v.variationId) },
        ),
        element(
          'RCVList',
          rcvConditions(r).map((c) =>
            element(
              'RCVAccession',
              [
                element(
                  'ClassifiedConditionList',
                  c.names.map((n) => element('ClassifiedCondition', n)),
                ),
              ],
              { Title: `${r.name} AND ${c.names.join('; ') || 'not provided'}`, Accession: c.rcv },
            ),
          ),
        ),
        element('Classifications', [
          element('GermlineClassification', [element('ReviewStatus', r.reviewStatus), element('Description', r.clinicalSignificance)], {
            ...(last ? { DateLastEvaluated: last } : {}),
            ...(r.numberSubmitters ? { NumberOfSubmitters: r.numberSubmitters } : {}),
          }),
        ]),
      ]),
    ],
    { RecordType: 'classified', VariationID: String(v.variationId), VariationName: r.name, VariationType: r.type, Accession: vcvAccession(v.variationId) },
  );
}

export function vcvSet(views: VariantView[]): string {
  const parts = views.map((v) => v.vcv ?? renderTree(builtArchive(v)).join('\n'));
  return `${HEAD}\n<ClinVarResult-Set>${parts.join('\n')}</ClinVarResult-Set>\n`;
}

export function rcvSet(views: VariantView[]): string {
  const sets: XNode[] = [];
  for (const v of views) {
    const r = v.rows[0] as SummaryRow;
    const conds = conditions(r.phenotypeList, r.phenotypeIds);
    const last = isoDay(r.lastEvaluated);
    for (const c of rcvConditions(r)) {
      const traits = c.names.map((name) => conds.find((k) => k.name === name) ?? { name, xrefs: [] });
      sets.push(
        element('ClinVarSet', [
          element('RecordStatus', 'current'),
          element('Title', `${r.name} AND ${c.names.join('; ') || 'not provided'}`),
          element('ReferenceClinVarAssertion', [
            element('ClinVarAccession', undefined, { Acc: c.rcv, Type: 'RCV' }),
            element('RecordStatus', 'current'),
            element('ClinicalSignificance', [element('ReviewStatus', r.reviewStatus), element('Description', r.clinicalSignificance)], last ? { DateLastEvaluated: last } : undefined),
            element('Assertion', undefined, { Type: 'variation to disease' }),
            element('ObservedIn', [element('Sample', [element('Origin', r.originSimple || 'not provided')])]),
            element(
              'MeasureSet',
              [
                element(
                  'Measure',
                  [
                    element('Name', [element('ElementValue', r.name, { Type: 'Preferred' })]),
                    r.cytogenetic && element('CytogeneticLocation', r.cytogenetic),
                    ...v.rows.filter((row) => ASSEMBLIES[row.assembly]).map(sequenceLocation),
                    ...genes(r).map((gn) =>
                      element(
                        'MeasureRelationship',
                        [
                          element('Symbol', [element('ElementValue', gn.attrs?.Symbol ?? '', { Type: 'Preferred' })]),
                          gn.attrs?.GeneID && element('XRef', undefined, { ID: gn.attrs.GeneID, DB: 'Gene' }),
                        ],
                        {
                          Type: 'variant in gene',
                        },
                      ),
                    ),
                    ...xrefList(r),
                  ],
                  { Type: r.type, ID: r.alleleId },
                ),
              ],
              { Type: 'Variant', ID: String(v.variationId), Acc: vcvAccession(v.variationId) },
            ),
            element(
              'TraitSet',
              traits.map((t) =>
                element('Trait', [element('Name', [element('ElementValue', t.name, { Type: 'Preferred' })]), ...t.xrefs.map((xr) => element('XRef', undefined, { ID: xr.id, DB: xr.db }))], {
                  Type: 'Disease',
                }),
              ),
              { Type: 'Disease' },
            ),
          ]),
        ]),
      );
    }
  }
  const body = sets.map((s) => renderTree(s).join('\n')).join('\n');
  return `${HEAD}<ClinVarResult-Set>\n${body}${body ? '\n' : ''}</ClinVarResult-Set>\n`;
}
