/**
 * The Datasets gene endpoints under the spec's `v2alpha` segment (and `v2`, whose gene paths are the
 * same, and v2 also under the `/dataset_report` names that replace them), also below `/datasets` as on
 * the real host: GET by ids, GET by symbols and taxon, POST with `gene_ids` (the spec's /gene/id and the
 * real service's /gene). Query parameters: page_size (default 20, at most 1000), page_token,
 * returned_content.
 */
import type { FastifyInstance } from 'fastify';
import { jsonGet } from '../../core/http/direct.js';
import { first } from '../../core/http/params.js';
import type { ServiceContext } from '../types.js';
import { datasetsErrors } from './errors.js';
import { checkIds, geneReports, type Content, type GeneQuery, type PageInput } from './handlers.js';

// What Fastify sends a serialised value with.
const JSON_UTF8 = 'application/json; charset=utf-8';

const CONTENTS: readonly Content[] = ['COMPLETE', 'IDS_ONLY', 'COUNTS_ONLY'];

function pageOf(get: (name: string) => unknown): PageInput {
  const size = get('page_size');
  let pageSize = 20;
  if (size !== undefined && size !== '') {
    const n = Number(size);
    if (!Number.isInteger(n) || n < 1 || n > 1000) throw datasetsErrors.invalidParameter('page_size', String(size), 'a whole number from 1 to 1000 (default 20)');
    pageSize = n;
  }
  const content = get('returned_content');
  if (content !== undefined && !CONTENTS.includes(String(content) as Content)) {
    throw datasetsErrors.invalidParameter('returned_content', String(content), `one of ${CONTENTS.join(', ')}`);
  }
  const token = get('page_token');
  return { pageSize, pageToken: token ? String(token) : undefined, content: (content as Content | undefined) ?? 'COMPLETE' };
}

function splitPath(v: string): string[] {
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function bodyQuery(body: unknown): { q: GeneQuery; get: (name: string) => unknown } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw datasetsErrors.invalidBody('expected a JSON object such as {"gene_ids": [672, 7157]}');
  const b = body as Record<string, unknown>;
  const get = (name: string) => b[name];
  if (b.gene_ids !== undefined) {
    if (!Array.isArray(b.gene_ids)) throw datasetsErrors.invalidBody('gene_ids must be an array of gene ids');
    return { q: { kind: 'ids', ids: checkIds(b.gene_ids) }, get };
  }
  const sft = b.symbols_for_taxon as { symbols?: unknown; taxon?: unknown } | undefined;
  if (sft && typeof sft === 'object') {
    if (!Array.isArray(sft.symbols) || !sft.symbols.length || sft.symbols.some((s) => typeof s !== 'string' || !s.trim())) {
      throw datasetsErrors.invalidBody('symbols_for_taxon.symbols must be a non-empty array of gene symbols');
    }
    if (typeof sft.taxon !== 'string' || !sft.taxon.trim()) throw datasetsErrors.invalidBody('symbols_for_taxon.taxon must be a taxonomy id or name');
    return { q: { kind: 'symbols', symbols: sft.symbols as string[], taxon: sft.taxon }, get };
  }
  throw datasetsErrors.invalidBody('give gene_ids (an array of gene ids) or symbols_for_taxon ({"symbols": [...], "taxon": "..."})');
}

export function registerRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  // On a port of its own the real service's full path works too (a client swaps only the host).
  for (const base of ['/v2alpha', '/v2', '/datasets/v2alpha', '/datasets/v2']) {
    // v2 deprecates the bare paths for `/dataset_report` ones with the same answer; both are served.
    const reports = base.endsWith('/v2') ? ['', '/dataset_report'] : [''];
    for (const tail of reports) {
      jsonGet(app, `${base}/gene/id/:gene_ids${tail}`, JSON_UTF8, async (r) => {
        const q = r.query;
        return geneReports(
          ctx,
          { kind: 'ids', ids: checkIds(splitPath(r.params.gene_ids as string)) },
          pageOf((n) => first(q, n)),
        );
      });
      jsonGet(app, `${base}/gene/symbol/:symbols/taxon/:taxon${tail}`, JSON_UTF8, async (r) => {
        const q = r.query;
        const symbols = splitPath(r.params.symbols as string);
        if (!symbols.length) throw datasetsErrors.invalidParameter('symbols', r.params.symbols as string, 'one or more gene symbols, comma-separated');
        return geneReports(
          ctx,
          { kind: 'symbols', symbols, taxon: r.params.taxon as string },
          pageOf((n) => first(q, n)),
        );
      });
    }
    const posts = base.endsWith('/v2') ? [`${base}/gene/id`, `${base}/gene`, `${base}/gene/dataset_report`] : [`${base}/gene/id`, `${base}/gene`];
    for (const path of posts) {
      app.post(path, async (req) => {
        const { q, get } = bodyQuery(req.body);
        return geneReports(ctx, q, pageOf(get));
      });
    }
  }
}
