/**
 * PharmGKB beyond the gene record: clinical annotations, guideline annotations, drug-label
 * annotations and gene-drug pairs, for a gene, a drug or both. The service answers each list whole;
 * it is paged here.
 */
import { z } from 'zod';
import { ToolError, getJson, type McpContext } from '../context.js';
import { decodeCursor, offsetPage, type Page } from '../result.js';
import { paging, str, type ToolSpec } from './types.js';

type Obj = Record<string, unknown>;

const BASE = '/pgx/v1';
const DATASET = 'pgx/pharmgkb';
const clip = (v: unknown, n: number) => (typeof v === 'string' && v.length > n ? `${v.slice(0, n)}…` : v);

const gene = z
  .string()
  .regex(/^[A-Za-z0-9-]{1,30}$/, 'gene must be a gene symbol such as CYP2D6')
  .optional()
  .describe('gene symbol, e.g. CYP2D6');
const drug = z.string().min(1).max(200).optional().describe('drug (chemical) name, e.g. codeine');

/** Reads a whole list and answers one page of it, compacted. */
async function listPage(ctx: McpContext, url: string, record: string, a: Obj, compact: (x: Obj) => Obj, idOf: (x: Obj) => string, keep: (x: Obj) => boolean = () => true): Promise<Page> {
  const { offset } = decodeCursor(str(a.cursor));
  const limit = a.limit as number;
  const j = await getJson(ctx, url, { record, dataset: DATASET });
  // The spec's paths answer an array; the real service's /data paths wrap it in `data`.
  const all = ((Array.isArray(j) ? j : ((j as { data?: Obj[] } | undefined)?.data ?? [])) as Obj[]).filter(keep);
  const items = all.slice(offset, offset + limit).map(compact);
  return offsetPage(items, items.map(idOf), offset, offset + items.length < all.length, all.length);
}

function query(pairs: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(pairs)) if (typeof v === 'string' && v !== '') q.set(k, v);
  return q.toString();
}

function needOne(a: Obj, names: string[]): void {
  if (!names.some((n) => str(a[n]))) throw new ToolError(`${names.join(' or ')}: give at least one`);
}

export const pharmgkbTools: ToolSpec[] = [
  {
    name: 'pharmgkb_clinical_annotations',
    title: 'PharmGKB clinical annotations',
    description:
      'PharmGKB clinical annotations of a gene and/or a drug: the variant or star alleles, phenotype, level of evidence (1A-4) and what each genotype means for the drug response. Use for the evidence on how a genotype affects a drug.',
    service: 'pgx',
    input: {
      gene,
      drug,
      evidence_level: z.enum(['1A', '1B', '2A', '2B', '3', '4']).optional().describe('only this level of evidence'),
      ...paging(),
    },
    run(ctx, a) {
      needOne(a, ['gene', 'drug']);
      const url = `${BASE}/clinicalAnnotation?${query({ gene: a.gene, drug: a.drug, evidenceLevel: a.evidence_level })}`;
      return listPage(
        ctx,
        url,
        'the clinical annotations',
        a,
        (x) => ({
          id: x.id,
          gene: x.gene,
          drug: x.drug,
          variant: x.variant,
          phenotype: x.phenotype,
          evidence_level: x.evidenceLevel,
          annotation: clip(x.annotation, 1200),
          sources: x.sources,
          url: x.url,
        }),
        (x) => String(x.id),
      );
    },
  },
  {
    name: 'pharmgkb_guidelines',
    title: 'PharmGKB dosing guidelines',
    description:
      'Dosing-guideline annotations (CPIC, DPWG, ...) naming a gene and/or a drug: source, strength, summary and the recommendation per phenotype. Use for what a guideline recommends for a genotype.',
    service: 'pgx',
    input: { gene, drug, source: z.enum(['CPIC', 'DPWG', 'FDA']).optional().describe('only guidelines of this source'), ...paging(20, 5) },
    run(ctx, a) {
      needOne(a, ['gene', 'drug']);
      return listPage(
        ctx,
        `${BASE}/guideline?${query({ gene: a.gene, drug: a.drug, source: a.source })}`,
        'the guidelines',
        a,
        (x) => ({
          id: x.id,
          name: x.name,
          source: x.source,
          genes: x.genes,
          drugs: x.drugs,
          strength: x.recommendationLevel,
          summary: clip(x.summary, 800),
          recommendations: ((x.recommendations ?? []) as Obj[]).slice(0, 12).map((r) => ({ phenotypes: r.phenotypes, recommendation: clip(r.recommendation, 300), classification: r.classification })),
        }),
        (x) => String(x.id),
      );
    },
  },
  {
    name: 'pharmgkb_drug_labels',
    title: 'PharmGKB drug-label annotations',
    description:
      "Pharmacogenomic drug-label annotations (FDA, EMA, PMDA, Health Canada) of a drug and/or a gene: the testing level and what the label says. Use for what a regulator's label requires or advises about genetic testing.",
    service: 'pgx',
    input: { gene, drug, source: z.enum(['FDA', 'EMA', 'PMDA', 'Health Canada']).optional().describe('only labels of this agency'), ...paging() },
    run(ctx, a) {
      needOne(a, ['gene', 'drug']);
      // The spec's path needs a drug; the real service's /data path also takes a gene.
      const url = str(a.drug) ? `${BASE}/drugLabel?${query({ drug: a.drug, source: a.source })}` : `${BASE}/data/label?${query({ 'relatedGenes.symbol': a.gene, source: a.source })}`;
      // With both, the drug's labels that name the gene as a biomarker.
      const sym = str(a.gene)?.toUpperCase();
      const keep = (x: Obj) => !sym || ((x.biomarkers ?? []) as string[]).some((b) => b.toUpperCase() === sym);
      return listPage(
        ctx,
        url,
        'the drug labels',
        a,
        (x) => ({
          id: x.id,
          name: x.name,
          drug: x.drug,
          source: x.source,
          testing_level: x.testingLevel,
          biomarkers: x.biomarkers,
          sections: Object.fromEntries(Object.entries((x.sections ?? {}) as Obj).map(([k, v]) => [k, clip(v, 600)])),
          url: x.labelUrl,
        }),
        (x) => String(x.id),
        keep,
      );
    },
  },
  {
    name: 'pharmgkb_gene_drug_pairs',
    title: 'PharmGKB gene-drug pairs',
    description:
      'Gene-drug pairs of a gene and/or a drug: sources (CPIC, DPWG, FDA, ...), CPIC level (A-D), PharmGKB top evidence level, annotation count and guideline link. Use to see which drugs a pharmacogene affects, or which genes matter for a drug.',
    service: 'pgx',
    input: { gene, drug, cpic_level: z.enum(['A', 'B', 'C', 'D']).optional().describe('only pairs of this CPIC level'), ...paging() },
    run(ctx, a) {
      needOne(a, ['gene', 'drug']);
      return listPage(
        ctx,
        `${BASE}/geneDrugPair?${query({ gene: a.gene, drug: a.drug, cpicLevel: a.cpic_level })}`,
        'the gene-drug pairs',
        a,
        (x) => ({
          gene: x.gene,
          drug: x.drug,
          sources: x.sources,
          cpic_level: x.cpicLevel,
          evidence_level: x.evidenceLevel,
          clinical_annotations: x.clinicalAnnotationCount,
          has_guideline: x.hasGuideline,
          guideline_url: x.guidelineUrl,
        }),
        (x) => `${String(x.gene)}/${String(x.drug)}`,
      );
    },
  },
];
