/**
 * ClinPGx (PharmGKB): its download addresses (`/v1/download/file/data/<name>`, redirected to its
 * file store), and with the part `api` what only its API serves. The API asks for at most two
 * requests a second.
 */
import type { BulkSource } from '../plan.js';
import { harvestPgxApi } from '../harvest/pgx-api.js';
import { UsageError } from '../errors.js';
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
  summary:
    'ClinPGx/PharmGKB: v1/download/file/data/ genes, drugs, variants, summaryAnnotations, relationships, drugLabels, pathways-tsv, guidelineAnnotations.json zips; with --parts ...,api also what only its API serves (alleles, CPIC pairs, label sections, gene and drug details; hours at 2 requests/s)',
  accepts: ['parts'],
  upstreams: ['clinpgx'],
  async plan(ctx) {
    const parts = chooseParts(ctx.opts, [...Object.keys(FILES), 'api'], Object.keys(FILES));
    // PharmGKB asks for two requests a second; a private upstream may be asked faster.
    ctx.http.pace(Number(process.env.BIOMIRROR_HARVEST_SPACING_MS ?? 500));
    const files = [...parts]
      .filter((p) => p !== 'api')
      .map((p) => {
        const name = FILES[p] as string;
        return { url: upstreamUrl(ctx.upstreams, 'clinpgx', `v1/download/file/data/${name}`), path: name };
      });
    if (!parts.has('api')) return { files, source: describeSource(files) };
    // The load replaces what is served with what it is given: the API's members alone would leave
    // every download-backed record out.
    if (!files.length) throw new UsageError(`the part api adds what only the API serves to the downloads: give it with them (--parts ${Object.keys(FILES).join(',')},api)`);
    const api = `${upstreamUrl(ctx.upstreams, 'clinpgx', 'v1/')} (API, harvested)`;
    return {
      files,
      source: `${describeSource(files)} + ${api}`,
      harvest: (c) => harvestPgxApi({ ...c, upstreams: ctx.upstreams }),
    };
  },
};
