/** ClinicalTrials.gov: the registry's bulk download, every study as one JSON file in a zip. */
import type { BulkSource } from '../plan.js';
import { upstreamUrl } from '../upstreams.js';

export const studies: BulkSource = {
  kind: 'bulk',
  service: 'clinicaltrials',
  dataset: 'studies',
  summary: 'ClinicalTrials.gov: api/v2/studies/download?format=json.zip (every study, one JSON file each)',
  accepts: [],
  upstreams: ['ctgov'],
  async plan(ctx) {
    const url = upstreamUrl(ctx.upstreams, 'ctgov', 'api/v2/studies/download?format=json.zip');
    // The archive is made when asked for: it carries no validators, so an interrupted download starts again.
    return { files: [{ url, path: 'ctg-studies.json.zip' }], source: url };
  },
};
