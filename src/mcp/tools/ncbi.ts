/** NCBI E-utilities (gene, clinvar) and Datasets: search then summarise, as the E-utilities do. */
import { z } from 'zod';
import { ToolError, getJson, type McpContext } from '../context.js';
import { decodeCursor, encodeCursor, pick, type Page } from '../result.js';
import { enc, str, type ToolSpec } from './types.js';

const EUTILS = '/eutils';

/** esearch then esummary: the ids of a page and their summaries. */
async function searchSummaries(ctx: McpContext, db: string, term: string, limit: number, cursor: string | undefined, keys: readonly string[], dataset: string): Promise<Page> {
  const { offset } = decodeCursor(cursor);
  const q = new URLSearchParams({ db, term, retmode: 'json', retmax: String(limit), retstart: String(offset) });
  const s = (await getJson(ctx, `${EUTILS}/esearch.fcgi?${q}`, { record: 'the search', dataset })) as { esearchresult?: { idlist?: string[]; count?: string } };
  const ids = s.esearchresult?.idlist ?? [];
  const total = Number(s.esearchresult?.count ?? ids.length);
  if (!ids.length) return { ids: [], items: [], total, next_cursor: null };
  const r = (await getJson(ctx, `${EUTILS}/esummary.fcgi?db=${db}&retmode=json&id=${ids.join(',')}`, { record: `ids ${ids.join(',')}`, dataset })) as { result?: Record<string, unknown> };
  const items = ids.map((id) => ({ uid: id, ...pick(r.result?.[id], keys) }));
  return { ids, items, total, next_cursor: offset + ids.length < total ? encodeCursor({ offset: offset + ids.length }) : null, resume: (kept) => encodeCursor({ offset: offset + kept }) };
}

const GENE_KEYS = ['name', 'description', 'chromosome', 'maplocation', 'otheraliases', 'organism', 'summary'] as const;
const CLINVAR_KEYS = ['accession', 'title', 'obj_type', 'germline_classification', 'clinical_significance', 'genes', 'variation_set'] as const;

/** ClinVar summaries are big: only the parts an agent cites. */
function clinvarCompact(item: Record<string, unknown>): Record<string, unknown> {
  const g = item.germline_classification as Record<string, unknown> | undefined;
  const genes = item.genes as { symbol?: string }[] | undefined;
  return {
    uid: item.uid,
    accession: item.accession,
    title: item.title,
    type: item.obj_type,
    classification: g?.description ?? (item.clinical_significance as Record<string, unknown> | undefined)?.description,
    review_status: g?.review_status,
    genes: genes?.map((x) => x.symbol),
  };
}

export const ncbiTools: ToolSpec[] = [
  {
    name: 'gene_search',
    title: 'Search NCBI Gene',
    description: 'Find NCBI Gene records by symbol, name or Entrez query (e.g. "BRCA1[gene] AND human[orgn]"). Use when a question names a gene; then gene_get for one gene.',
    service: 'eutils',
    input: {
      query: z.string().min(1).max(500).describe('Entrez query or a gene symbol'),
      organism: z.string().max(100).optional().describe('organism to restrict to, e.g. human'),
      limit: z.number().int().min(1).max(50).default(10),
      cursor: z.string().max(2000).optional(),
    },
    run(ctx, a) {
      const term = str(a.organism) ? `(${a.query as string}) AND ${a.organism as string}[orgn]` : (a.query as string);
      return searchSummaries(ctx, 'gene', term, a.limit as number, str(a.cursor), GENE_KEYS, 'eutils/gene');
    },
  },
  {
    name: 'gene_get',
    title: 'Get a gene (NCBI Datasets)',
    description: 'One gene by NCBI Gene id, as NCBI Datasets reports it: symbol, name, location, synonyms, RefSeq and Ensembl ids. Use once you know the Gene id.',
    // Datasets serves the gene records E-utilities loads: their release is eutils'.
    service: 'eutils',
    input: {
      gene_id: z
        .string()
        .regex(/^\d{1,12}$/, 'gene_id must be a numeric NCBI Gene id, e.g. 672')
        .describe('NCBI Gene id, e.g. 672'),
    },
    async run(ctx, a) {
      const id = a.gene_id as string;
      const j = (await getJson(ctx, `/datasets/v2alpha/gene/id/${enc(id)}`, { record: `gene ${id}`, dataset: 'eutils/gene' })) as { reports?: { gene?: unknown }[] };
      const gene = j.reports?.[0]?.gene;
      if (!gene) return { ids: [], items: [], total: 0 };
      const item = pick(gene, ['gene_id', 'symbol', 'description', 'tax_id', 'taxname', 'type', 'chromosomes', 'synonyms', 'ensembl_gene_ids', 'omim_ids', 'summary']);
      return { ids: [id], items: [item], total: 1 };
    },
  },
  {
    name: 'clinvar_variants',
    title: 'ClinVar variants',
    description: 'ClinVar variants by gene symbol, variation id, or HGVS-like text (e.g. "BRCA1", "c.68_69del"); answers accession, title, classification and review status.',
    service: 'eutils',
    input: {
      gene: z.string().max(50).optional().describe('gene symbol, e.g. BRCA1'),
      id: z
        .string()
        .regex(/^\d{1,12}$/, 'id must be a numeric ClinVar variation id')
        .optional()
        .describe('ClinVar variation id'),
      text: z.string().max(300).optional().describe('HGVS-like or free text'),
      limit: z.number().int().min(1).max(50).default(10),
      cursor: z.string().max(2000).optional(),
    },
    async run(ctx, a) {
      const parts = [str(a.gene) && `${a.gene as string}[gene]`, str(a.id) && `${a.id as string}[uid]`, str(a.text)].filter(Boolean);
      if (!parts.length) throw new ToolError('gene, id or text: give at least one');
      const p = await searchSummaries(ctx, 'clinvar', parts.join(' AND '), a.limit as number, str(a.cursor), CLINVAR_KEYS, 'eutils/clinvar');
      return { ...p, items: p.items.map(clinvarCompact) };
    },
  },
];
