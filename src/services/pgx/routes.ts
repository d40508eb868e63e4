/**
 * The HTTP surface, as two tables of operations: the spec's paths (bare resources and arrays) and
 * the real service's `/v1/data/...` forms (the same resources with `objCls`, in its
 * `{"data": ..., "status": "success"}` envelope; a search without results is a 404 there).
 */
import type { FastifyInstance } from 'fastify';
import { jsonGet } from '../../core/http/direct.js';
import type { Query } from '../../core/http/params.js';
import type { ServiceContext } from '../types.js';
import { pgxErrors } from './errors.js';
import * as h from './handlers.js';
import { data, spec } from './params.js';

const JSON_TYPE = 'application/json; charset=utf-8';

type Params = Record<string, string>;
interface Operation {
  path: string;
  run(ctx: ServiceContext, params: Params, query: Query): Promise<string | string[]>;
}

const SPEC: Operation[] = [
  { path: '/v1/gene/:gene_symbol', run: (c, p) => h.getGene(c, path(p, 'gene_symbol')) },
  { path: '/v1/gene', run: (c, _p, q) => h.searchGenes(c, spec.geneSearch(q)) },
  { path: '/v1/chemical/:drug_id', run: (c, p) => h.getChemical(c, path(p, 'drug_id')) },
  { path: '/v1/chemical', run: (c, _p, q) => h.searchChemicals(c, spec.chemicalSearch(q)) },
  { path: '/v1/geneDrugPair', run: (c, _p, q) => h.geneDrugPairs(c, spec.pairs(q)) },
  { path: '/v1/guideline', run: (c, _p, q) => h.guidelines(c, spec.guidelines(q)) },
  { path: '/v1/guideline/:guideline_id', run: (c, p) => h.getGuideline(c, path(p, 'guideline_id')) },
  { path: '/v1/allele', run: (c, _p, q) => h.alleles(c, spec.alleles(q)) },
  { path: '/v1/allele/:allele_name', run: (c, p, q) => h.getAllele(c, path(p, 'allele_name'), spec.alleleLookup(q).gene) },
  { path: '/v1/variant/:rsid', run: (c, p) => h.getVariant(c, path(p, 'rsid')) },
  { path: '/v1/variant', run: (c, _p, q) => h.variants(c, spec.variants(q)) },
  { path: '/v1/clinicalAnnotation', run: (c, _p, q) => h.annotations(c, spec.annotations(q)) },
  { path: '/v1/clinicalAnnotation/:id', run: (c, p) => h.getAnnotation(c, path(p, 'id')) },
  { path: '/v1/drugLabel', run: (c, _p, q) => h.drugLabels(c, spec.labels(q)) },
  { path: '/v1/drugLabel/:id', run: (c, p) => h.getLabel(c, path(p, 'id')) },
  { path: '/v1/pathway/:pathway_id', run: (c, p) => h.getPathway(c, path(p, 'pathway_id')) },
  { path: '/v1/pathway', run: (c, _p, q) => h.pathways(c, spec.pathways(q)) },
];

/** The real service's object classes, one per resource path. */
const DATA: (Operation & { objCls: string; what: string })[] = [
  {
    path: '/v1/data/gene',
    objCls: 'Gene',
    what: 'genes',
    run: async (c, _p, q) => {
      const s = data.gene(q).q;
      return s === undefined ? h.searchGenes(c, {}) : [await h.getGene(c, s)];
    },
  },
  { path: '/v1/data/gene/:id', objCls: 'Gene', what: 'gene', run: (c, p) => h.getGene(c, path(p, 'id')) },
  { path: '/v1/data/chemical', objCls: 'Chemical', what: 'chemicals', run: (c, _p, q) => h.searchChemicals(c, data.chemical(q)) },
  { path: '/v1/data/chemical/:id', objCls: 'Chemical', what: 'chemical', run: (c, p) => h.getChemical(c, path(p, 'id')) },
  {
    path: '/v1/data/variant',
    objCls: 'Variant',
    what: 'variants',
    run: async (c, _p, q) => {
      const rsid = data.variant(q).rsid;
      return rsid === undefined ? h.variants(c, {}) : [await h.getVariant(c, rsid)];
    },
  },
  { path: '/v1/data/variant/:id', objCls: 'Variant', what: 'variant', run: (c, p) => h.getVariant(c, path(p, 'id')) },
  { path: '/v1/data/clinicalAnnotation', objCls: 'Clinical Annotation', what: 'clinical annotations', run: (c, _p, q) => h.annotations(c, data.annotations(q)) },
  { path: '/v1/data/clinicalAnnotation/:id', objCls: 'Clinical Annotation', what: 'clinical annotation', run: (c, p) => h.getAnnotation(c, path(p, 'id')) },
  { path: '/v1/data/guidelineAnnotation', objCls: 'Guideline Annotation', what: 'guideline annotations', run: (c, _p, q) => h.guidelines(c, data.guidelines(q)) },
  { path: '/v1/data/guidelineAnnotation/:id', objCls: 'Guideline Annotation', what: 'guideline annotation', run: (c, p) => h.getGuideline(c, path(p, 'id')) },
  { path: '/v1/data/label', objCls: 'Label Annotation', what: 'label annotations', run: (c, _p, q) => h.drugLabels(c, data.labels(q)) },
  { path: '/v1/data/label/:id', objCls: 'Label Annotation', what: 'label annotation', run: (c, p) => h.getLabel(c, path(p, 'id')) },
  { path: '/v1/data/pathway', objCls: 'Pathway', what: 'pathways', run: (c, _p, q) => h.pathways(c, data.pathways(q)) },
  { path: '/v1/data/pathway/:id', objCls: 'Pathway', what: 'pathway', run: (c, p) => h.getPathway(c, path(p, 'id')) },
];

/** A path parameter; an empty one (`/v1/gene/`) is a missing required parameter. */
function path(p: Params, name: string): string {
  const v = (p[name] ?? '').trim();
  if (!v) throw pgxErrors.missingParameter(name);
  return v;
}

const asArray = (docs: string[]) => `[${docs.join(',')}]`;

/** A stored document with the real service's class name as its first member. */
const withClass = (objCls: string, doc: string) => `{"objCls":${JSON.stringify(objCls)},${doc.slice(1)}`;

export function registerRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  for (const op of SPEC) {
    jsonGet(app, op.path, JSON_TYPE, async (r) => {
      const out = await op.run(ctx, r.params, r.query);
      return Array.isArray(out) ? asArray(out) : out;
    });
  }
  for (const op of DATA) {
    jsonGet(app, op.path, JSON_TYPE, async (r) => {
      const out = await op.run(ctx, r.params, r.query);
      if (Array.isArray(out) && out.length === 0) throw pgxErrors.noResults(op.what);
      const body = Array.isArray(out) ? asArray(out.map((d) => withClass(op.objCls, d))) : withClass(op.objCls, out);
      return `{"data":${body},"status":"success"}`;
    });
  }
}
