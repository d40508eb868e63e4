/**
 * ClinPGx (PharmGKB): its download addresses (`/v1/download/file/data/<name>`, redirected to its
 * file store). The API asks for at most two requests a second.
 */
import type { BulkSource } from '../plan.js';
import { upstreamUrl } from '../upstreams.js';
import { chooseParts, describeSource } from './common.js';

const FILES: Record<string, string> = {
  genes: 'genes.zip',
  drugs: 'drugs.zip',
  variants: 'variants.zip',
  summaryAnnotations: 'summaryAnnotations.zip',
  relationships: 'relationships.zip',
  drugLabels: 'drugLabels.zip',
  pathways: 'pathways-tsv.zip',
  guidelineAnnotations: 'guidelineAnnotations.json.zip',
};

export const pharmgkb: BulkSource = {
  kind: 'bulk',
  service: 'pgx',
  dataset: 'pharmgkb',
  summary: 'ClinPGx/PharmGKB: v1/download/file/data/ genes, drugs, variants, summaryAnnotations, relationships, drugLabels, pathways-tsv, guidelineAnnotations.json zips',
  accepts: ['parts'],
  upstreams: ['clinpgx'],
  async plan(ctx) {
    const parts = chooseParts(ctx.opts, Object.keys(FILES), Object.keys(FILES));
    ctx.http.pace(500);
    const files = [...parts].map((p) => {
      const name = FILES[p] as string;
      return { url: upstreamUrl(ctx.upstreams, 'clinpgx', `v1/download/file/data/${name}`), path: name };
    });
    return { files, source: describeSource(files) };
  },
};
