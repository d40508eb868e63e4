/**
 * What pull-through needs to know of E-utilities: each request reads the dataset its `db` names
 * (ELink also `dbfrom`'s), and ESummary and EFetch answer unknown UIDs with 200, not 404: an
 * ESummary whose every UID has an `error`, an EFetch with only an `ERROR`. ESearch's zero hits and
 * ELink's empty link sets are answers of the loaded data, not misses.
 */
import { param, type PullHints, type PulledRequest } from '../../core/pullthrough/hints.js';
import { CLINVAR_DATASET, GENE_DATASET } from '../ncbi/datasets.js';

// A Map, not an object: `db=constructor` must name nothing.
const DATASET_OF: ReadonlyMap<string, string> = new Map([
  ['gene', GENE_DATASET],
  ['clinvar', CLINVAR_DATASET],
]);

const toolOf = (req: PulledRequest) => /\/(\w+)\.fcgi$/.exec(req.path)?.[1]?.toLowerCase();

/** The UIDs an `id` parameter names, as the answers write them; none for a history (WebEnv) request. */
function requestedUids(req: PulledRequest): string[] {
  const ids = req.params.filter(([k]) => k.toLowerCase() === 'id').flatMap(([, v]) => v.split(/[,\s]+/));
  return [...new Set(ids.filter((t) => /^\d{1,10}$/.test(t)).map((t) => String(Number(t))))];
}

/** ESummary JSON: none of the UIDs asked for has a document summary without `error`. */
function jsonSummaryMissing(uids: string[], body: string): boolean {
  if (!body.includes('"error"')) return false;
  let result: unknown;
  try {
    result = (JSON.parse(body) as { result?: unknown }).result;
  } catch {
    return false;
  }
  // Without `result` it is an error of the request itself (too many UIDs), not a miss.
  if (result === null || typeof result !== 'object') return false;
  const docs = result as Record<string, unknown>;
  return uids.every((u) => {
    const d = docs[u];
    return d === null || typeof d !== 'object' || 'error' in d;
  });
}

/** ESummary XML: document summaries, each of them only an `<error>`. */
function xmlSummaryMissing(body: string): boolean {
  const docs = body.split('<DocumentSummary ').slice(1);
  return docs.length > 0 && !body.includes('<DocSum>') && docs.every((d) => /^[^>]*>\s*<error>/.test(d));
}

export const eutilsPullThrough: PullHints = {
  needs(req) {
    const names = toolOf(req) === 'elink' ? [param(req, 'dbfrom'), param(req, 'db')] : [param(req, 'db')];
    const datasets = names.flatMap((n) => DATASET_OF.get(n?.trim().toLowerCase() ?? '') ?? []);
    return datasets.length ? [...new Set(datasets)] : undefined;
  },
  miss(req, answer) {
    const tool = toolOf(req);
    const uids = requestedUids(req);
    if (!uids.length) return false;
    if (tool === 'esummary') return /json/i.test(answer.contentType) ? jsonSummaryMissing(uids, answer.body) : xmlSummaryMissing(answer.body);
    // EFetch writes only the records it has: a lone ERROR means none of them is here.
    if (tool === 'efetch') return /<eFetchResult>\s*<ERROR>/.test(answer.body);
    return false;
  },
};
