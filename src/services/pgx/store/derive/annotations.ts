/**
 * Clinical annotations from the annotation table with its allele texts and evidence: one document
 * each, the filter links, and what genes, variants and gene–drug pairs take from them.
 */
import type { SqlValue } from '../../../../core/store/db.js';
import { compareText, labelSource, levelRank, naturalKey, sortSources } from '../../enums.js';
import type { AnnotationAlleleRow, AnnotationRow, EvidenceRow, GuidelineRow, LabelRow } from '../../records.js';
import { SITE, type ClinicalAnnotation, type VariantReference } from '../../resources.js';
import { ranked, type Links, type LoadIndex } from './context.js';

export interface AnnotationOutput {
  rows: SqlValue[][];
  /** Each gene's annotations (by lower-cased symbol), in list order. */
  byGene: Map<string, ClinicalAnnotation[]>;
  /** References of each variant (by lower-cased rsid). */
  referencesByVariant: Map<string, VariantReference[]>;
  /** Gene × drug of every annotation, for the gene–drug pairs. */
  pairs: { gene: string; drug: string; level: string }[];
}

function group<T>(rows: T[], key: (r: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const list = out.get(key(r)) ?? [];
    list.push(r);
    out.set(key(r), list);
  }
  return out;
}

/** The body behind a guideline or label piece of evidence: the loaded one's, else its title's. */
function evidenceSource(e: EvidenceRow, guidelines: Map<string, GuidelineRow>, labels: Map<string, LabelRow>): string | undefined {
  if (!/guideline|label/i.test(e.type)) return undefined;
  const known = guidelines.get(e.id)?.source ?? labels.get(e.id)?.source;
  const named = /Annotation of (\S+) (?:Guideline|Label)/i.exec(e.summary)?.[1];
  const source = known ?? named;
  return source ? labelSource(source) : undefined;
}

export function deriveAnnotations(
  index: LoadIndex,
  links: Links,
  input: {
    annotations: AnnotationRow[];
    alleles: AnnotationAlleleRow[];
    evidence: EvidenceRow[];
    guidelines: GuidelineRow[];
    labels: LabelRow[];
  },
): AnnotationOutput {
  // Genotypes in natural order (`*2` before `*17`); evidence by id, so `pmid` is the same on every load.
  const alleles = group(
    [...input.alleles].sort((a, b) => compareText(naturalKey(a.genotype), naturalKey(b.genotype))),
    (a) => a.annotation,
  );
  const evidence = group(
    [...input.evidence].sort((a, b) => compareText(a.id, b.id)),
    (e) => e.annotation,
  );
  const guidelines = new Map(input.guidelines.map((g) => [g.id, g]));
  const labels = new Map(input.labels.map((l) => [l.id, l]));
  const out: AnnotationOutput = { rows: [], byGene: new Map(), referencesByVariant: new Map(), pairs: [] };

  const order = ranked(input.annotations, (a, b) => levelRank(a.evidenceLevel) - levelRank(b.evidenceLevel) || Number(a.id) - Number(b.id));
  for (const { item: a, ord } of order) {
    const genes = a.genes.map((g) => index.geneSymbol(g));
    const drugs = a.drugs.map((d) => index.drugName(d));
    const ev = evidence.get(a.id) ?? [];
    const sources = ev.map((e) => evidenceSource(e, guidelines, labels)).filter((s): s is string => s !== undefined);
    const url = a.url || `${SITE}/clinicalAnnotation/${a.id}`;
    const doc: ClinicalAnnotation = {
      id: a.id,
      gene: genes.join(';'),
      drug: drugs.join(';'),
      phenotype: a.phenotypes.join(';'),
      evidenceLevel: a.evidenceLevel,
      annotation: (alleles.get(a.id) ?? []).map((x) => `${x.genotype}: ${x.text}`).join('\n'),
      pmid: ev.find((e) => e.pmid)?.pmid ?? '',
      studyType: a.phenotypeCategories.join(';'),
      population: a.population,
      sources: ['PharmGKB', ...sortSources(sources)],
      variant: a.variant,
      url,
    };
    out.rows.push([a.id, a.evidenceLevel, ord, JSON.stringify(doc)]);

    links.add('a', 'gene', genes, a.id);
    links.add('a', 'drug', drugs, a.id);
    links.add('a', 'phenotype', [...a.phenotypes, ...a.phenotypeCategories], a.id);
    // A haplotype list (`G6PD A-, G6PD B`) is found by the whole and by each member.
    const variants = [a.variant, ...a.variant.split(/,\s*/)];
    links.add('a', 'variant', variants, a.id);

    for (const g of genes) {
      const list = out.byGene.get(g.toLowerCase()) ?? [];
      list.push(doc);
      out.byGene.set(g.toLowerCase(), list);
      for (const d of drugs) out.pairs.push({ gene: g, drug: d, level: a.evidenceLevel });
    }
    const ref: VariantReference = {
      type: 'Clinical Annotation',
      id: a.id,
      url,
      pmids: [...new Set(ev.map((e) => e.pmid).filter((p) => p))].sort(compareText),
    };
    for (const v of new Set(variants.map((x) => x.trim().toLowerCase()).filter((x) => /^rs\d+$/.test(x)))) {
      const list = out.referencesByVariant.get(v) ?? [];
      list.push(ref);
      out.referencesByVariant.set(v, list);
    }
  }
  return out;
}
