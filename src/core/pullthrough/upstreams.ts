/**
 * The real hosts behind the services, and how each is treated: its request rate, which POSTs are
 * queries, what is never forwarded and what is forwarded but not kept. A service is known here only
 * by the public URLs its module declares (`publicUrls`); this table is keyed by their host names.
 * (Each service module could declare its own entry instead; until then it is one table, here.)
 */
import type { ErrorCatalogue } from '../http/errors.js';
import type { PullHints } from './hints.js';

/** What pull-through needs of a service module (ServiceModule has all of it). */
export interface PulledService {
  id: string;
  title: string;
  mount: string;
  baseUrls: Readonly<Record<string, string>>;
  publicUrls?: Readonly<Record<string, string>>;
  datasets: readonly { name: string }[];
  /** For a service with no datasets of its own: the id of the service whose loads it serves. */
  dataOf?: string;
  errors: ErrorCatalogue;
  /** What the service says of its requests and answers: the datasets they read, its 200 misses. */
  pullThrough?: PullHints;
}

export interface HostPolicy {
  /** Requests per second, and per minute where the host also caps that. */
  perSecond: number;
  perMinute?: number;
  /** With the user's API key (NCBI): the higher rate. */
  perSecondWithKey?: number;
  /** How the user's NCBI identity travels: query (or form) parameters, or the `api-key` header. */
  identity?: 'ncbi-params' | 'ncbi-header';
  /** POSTs that only ask (searches, GraphQL, E-utilities): the rest of the POSTs are never forwarded. */
  queryPosts?: RegExp;
  /** Where several public URLs share one base path: the paths this host answers. */
  paths?: RegExp;
  /** Paths (below the service) never forwarded nor kept: sign-in, OAuth, accounts. */
  privatePaths?: RegExp;
  /** Paths forwarded but never kept: answers that name server-side state that expires. */
  volatilePaths?: RegExp;
}

/** Every other host: 5 requests per second. */
export const DEFAULT_POLICY: HostPolicy = { perSecond: 5 };

export const HOSTS: Readonly<Record<string, HostPolicy>> = {
  // NCBI: 3 requests/s without an API key, 10 with one. EPost only makes a WebEnv (history server).
  'eutils.ncbi.nlm.nih.gov': { perSecond: 3, perSecondWithKey: 10, identity: 'ncbi-params', queryPosts: /\.fcgi$/, volatilePaths: /epost\.fcgi$/ },
  'api.ncbi.nlm.nih.gov': { perSecond: 5, perSecondWithKey: 10, identity: 'ncbi-header' },
  // PUG REST: at most 5 requests/s and 400/min. A ListKey names a result PubChem keeps for a while.
  'pubchem.ncbi.nlm.nih.gov': { perSecond: 5, perMinute: 400, volatilePaths: /\/listkey\//i },
  'api.pharmgkb.org': { perSecond: 2 },
  // About 50 requests per minute per IP.
  'clinicaltrials.gov': { perSecond: 1, perMinute: 50 },
  'search.rcsb.org': { perSecond: 5, queryPosts: /^\/rcsbsearch\/v2\/query$/ },
  'data.rcsb.org': { perSecond: 5, queryPosts: /^\/graphql$/ },
  'www.biorxiv.org': { perSecond: 5, paths: /^\/content\// },
  // Its own accounts, sign-in and OAuth are this server's, never the upstream's.
  'www.protocols.io': { perSecond: 5, privatePaths: /^\/(api\/v\d+\/)?(oauth|account|login|logout|signin|sign-in|session)(\/|$)/i },
};

/** Query parameters that name server-side state that expires: such answers are not kept. */
export const VOLATILE_PARAMS = new Set(['usehistory', 'webenv', 'query_key', 'pagetoken', 'page_token', 'listkey']);

export function policyOf(host: string): HostPolicy {
  return HOSTS[host] ?? DEFAULT_POLICY;
}

/** Milliseconds between two requests to a host: even spacing under every cap it has. */
export function intervalMs(policy: HostPolicy, withKey: boolean, rates?: Record<string, number>, host?: string): number {
  const set = host !== undefined ? rates?.[host] : undefined;
  const perSecond = set ?? (withKey && policy.perSecondWithKey ? policy.perSecondWithKey : policy.perSecond);
  const perMinute = set === undefined ? policy.perMinute : undefined;
  return Math.max(1000 / perSecond, perMinute ? 60_000 / perMinute : 0);
}

export interface Target {
  /** The real service's URL for this request (without a query): the key is built from it. */
  publicUrl: URL;
  /** The real host's name: its policy, queue and the provenance of the answer. */
  host: string;
}

/**
 * The real URL a path of a service stands for: the longest base path that holds it, mapped to its
 * public URL. A path that already repeats the public URL's own path (E-utilities is also served
 * below `/entrez/eutils`) is not repeated twice.
 */
export function publicTarget(service: PulledService, within: string): Target | undefined {
  const pub = service.publicUrls;
  if (!pub) return undefined;
  const entries = Object.entries(service.baseUrls)
    .filter(([k, base]) => pub[k] !== undefined && (base === '' || within === base || within.startsWith(`${base}/`)))
    .sort((a, b) => b[1].length - a[1].length);
  let chosen: { base: string; url: URL } | undefined;
  for (const [k, base] of entries) {
    const url = new URL(pub[k] as string);
    const rest = within.slice(base.length) || '/';
    const paths = policyOf(url.host).paths;
    if (paths && !paths.test(rest)) continue;
    // A host that answers only some paths is the better match for them; otherwise the longest base.
    if (paths || !chosen) chosen = { base, url };
    if (paths) break;
  }
  if (!chosen) return undefined;
  const rest = within.slice(chosen.base.length);
  const own = chosen.url.pathname.replace(/\/$/, '');
  const path = own && (rest === own || rest.startsWith(`${own}/`)) ? rest : `${own}${rest}`;
  return { publicUrl: new URL(`${chosen.url.origin}${path || '/'}`), host: chosen.url.host };
}
