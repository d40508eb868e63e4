/**
 * Datasets gene reports, free of HTTP: by GeneIDs, by symbols within a taxon, and the POST form of
 * both. Reads the gene data the E-utilities service loaded.
 */
import { decodeToken, encodeToken, paramsDigest } from '../../core/http/tokens.js';
import { geneTableSet } from '../ncbi/datasets.js';
import { G } from '../ncbi/gene/fields.js';
import { findTaxon, loadGenes } from '../ncbi/gene/view.js';
import { Searcher, indexTables } from '../ncbi/search/index.js';
import { normalize } from '../ncbi/text.js';
import type { ServiceContext } from '../types.js';
import { datasetsErrors } from './errors.js';
import { geneReport } from './report.js';

export type Content = 'COMPLETE' | 'IDS_ONLY' | 'COUNTS_ONLY';

export interface PageInput {
  pageSize: number;
  pageToken: string | undefined;
  content: Content;
}

export type GeneQuery = { kind: 'ids'; ids: string[] } | { kind: 'symbols'; symbols: string[]; taxon: string };

const MAX_IDS = 1000;

/** Each requested GeneID checked: a positive whole number. */
export function checkIds(raw: readonly unknown[]): string[] {
  if (raw.length === 0) throw datasetsErrors.invalidGeneId('');
  if (raw.length > MAX_IDS) throw datasetsErrors.invalidParameter('gene_ids', `${raw.length} ids`, `at most ${MAX_IDS} per request`);
  return raw.map((v) => {
    const s = String(v).trim();
    if (!/^\d{1,10}$/.test(s) || Number(s) === 0) throw datasetsErrors.invalidGeneId(s);
    return String(Number(s));
  });
}

interface Match {
  geneId: number;
  query: string;
}

async function matches(ctx: ServiceContext, q: GeneQuery): Promise<{ found: Match[]; missing: string[] }> {
  const t = await geneTableSet(ctx);
  if (q.kind === 'ids') {
    if (!t) return { found: [], missing: q.ids };
    const have = await new Searcher(ctx.db, indexTables(t)).existing(q.ids.map(Number));
    return { found: q.ids.filter((id) => have.has(Number(id))).map((id) => ({ geneId: Number(id), query: id })), missing: q.ids.filter((id) => !have.has(Number(id))) };
  }
  const taxon = await findTaxon(ctx.db, t, q.taxon);
  if (!taxon) throw datasetsErrors.invalidTaxon(q.taxon);
  if (!t) return { found: [], missing: q.symbols };
  const s = new Searcher(ctx.db, indexTables(t));
  const found: Match[] = [];
  const missing: string[] = [];
  for (const symbol of q.symbols) {
    const ids = await s.page(
      {
        k: 'and',
        c: [
          { k: 'atom', fields: [G.PREF], terms: [normalize(symbol)], prefix: false },
          { k: 'atom', fields: [G.TID], terms: taxon.taxIds.map(String), prefix: false },
        ],
      },
      0,
      MAX_IDS,
    );
    if (ids.length) for (const id of ids) found.push({ geneId: id, query: symbol });
    else missing.push(symbol);
  }
  return { found, missing };
}

function describe(q: GeneQuery): string {
  return q.kind === 'ids' ? `gene id(s) ${q.ids.join(', ')}` : `symbol(s) ${q.symbols.join(', ')} in taxon ${q.taxon}`;
}

/** The report page: the spec's `genes` and the real service's `reports`, with `total_count`. */
export async function geneReports(ctx: ServiceContext, q: GeneQuery, page: PageInput): Promise<Record<string, unknown>> {
  const digest = paramsDigest({ q });
  let offset = 0;
  if (page.pageToken) {
    const tok = decodeToken(page.pageToken) as { o?: unknown; d?: unknown } | undefined;
    if (!tok || typeof tok.o !== 'number' || tok.d !== digest) throw datasetsErrors.badPageToken();
    offset = tok.o;
  }
  const { found, missing } = await matches(ctx, q);
  if (!found.length) throw datasetsErrors.notFound(describe(q));
  const out: Record<string, unknown> = {};
  if (page.content !== 'COUNTS_ONLY') {
    const slice = found.slice(offset, offset + page.pageSize);
    const t = await geneTableSet(ctx);
    const views = t
      ? await loadGenes(
          ctx.db,
          t,
          slice.map((m) => m.geneId),
        )
      : new Map();
    const entries = slice.flatMap((m) => {
      const v = views.get(m.geneId);
      if (!v) return [];
      const gene = page.content === 'IDS_ONLY' ? { gene_id: String(m.geneId) } : geneReport(v);
      return [{ gene, query: [m.query] }];
    });
    out.genes = entries;
    out.reports = entries;
  }
  if (missing.length) {
    const what = q.kind === 'ids' ? 'gene ids' : 'symbols';
    out.messages = [{ error: { reason: `${missing.length} of the requested ${what} not found`, message: `Not found: ${missing.join(', ')}`, invalid_identifiers: missing } }];
  }
  out.total_count = found.length;
  if (page.content !== 'COUNTS_ONLY' && offset + page.pageSize < found.length) out.next_page_token = encodeToken({ o: offset + page.pageSize, d: digest });
  return out;
}
