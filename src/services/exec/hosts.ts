/**
 * The public hosts an existing skill calls, and where biomirror serves each: a request for
 * https://<host><path> becomes <mount><path> on biomirror (after `strip`, where the public path
 * repeats a prefix the mount already stands for). A host whose mount no service of this build
 * serves is refused with a reason, as is every other host.
 */
import { unsafePathReason } from '../../core/http/paths.js';

export interface HostRoute {
  host: string;
  mount: string;
  /** Only paths under this prefix are mirrored; it is replaced by the mount. */
  strip?: string;
}

export const MIRRORED_HOSTS: readonly HostRoute[] = [
  { host: 'eutils.ncbi.nlm.nih.gov', mount: '/eutils' },
  { host: 'api.ncbi.nlm.nih.gov', mount: '/datasets', strip: '/datasets' },
  { host: 'pubchem.ncbi.nlm.nih.gov', mount: '/pubchem' },
  { host: 'clinicaltrials.gov', mount: '/clinicaltrials' },
  { host: 'www.clinicaltrials.gov', mount: '/clinicaltrials' },
  { host: 'api.biorxiv.org', mount: '/biorxiv' },
  { host: 'www.biorxiv.org', mount: '/biorxiv' },
  { host: 'www.ebi.ac.uk', mount: '/gwas', strip: '/gwas' },
  { host: 'api.pharmgkb.org', mount: '/pgx' },
  { host: 'api.clinpgx.org', mount: '/pgx' },
  { host: 'www.protocols.io', mount: '/protocols' },
  { host: 'protocols.io', mount: '/protocols' },
  { host: 'data.rcsb.org', mount: '/rcsb/data' },
  { host: 'search.rcsb.org', mount: '/rcsb/search' },
  { host: 'files.rcsb.org', mount: '/rcsb/files' },
  { host: 'www.rcsb.org', mount: '/rcsb/www' },
  { host: 'alphafold.ebi.ac.uk', mount: '/alphafold' },
  { host: 'alphafold.com', mount: '/alphafold' },
  { host: 'www.alphafold.com', mount: '/alphafold' },
];

/** The name under which a run reaches biomirror itself: http://biomirror/<mount>/... */
export const SELF_HOST = 'biomirror';

export type Resolution = { target: string } | { status: number; reason: string };

const BY_HOST = new Map(MIRRORED_HOSTS.map((r) => [r.host, r]));

export function isProxiedHost(host: string): boolean {
  return host === SELF_HOST || BY_HOST.has(host);
}

/**
 * Where a proxied request goes. `mounts` are the mounts of the services in this build;
 * `pathAndQuery` is the request's path with its query string.
 */
export function resolveRoute(host: string, pathAndQuery: string, mounts: readonly string[]): Resolution {
  const served = (target: string) => mounts.some((m) => target === m || target.startsWith(`${m}/`) || target.startsWith(`${m}?`));
  if (!pathAndQuery.startsWith('/')) return { status: 400, reason: `malformed request target "${pathAndQuery.slice(0, 100)}"` };
  // In-process dispatch parses the target as a URL, which would resolve `..` past the mount.
  const unsafe = unsafePathReason(pathAndQuery);
  if (unsafe) return { status: 400, reason: `malformed request target: ${unsafe}` };
  if (host === SELF_HOST) {
    return served(pathAndQuery) ? { target: pathAndQuery } : { status: 404, reason: `no service of this biomirror answers ${pathAndQuery.split('?')[0]}` };
  }
  const route = BY_HOST.get(host);
  if (!route) return { status: 403, reason: `${host} is not reachable from the sandbox: only hosts biomirror mirrors are` };
  let rest = pathAndQuery;
  if (route.strip) {
    if (!(rest === route.strip || rest.startsWith(`${route.strip}/`) || rest.startsWith(`${route.strip}?`))) {
      return { status: 403, reason: `${host}${rest.split('?')[0]} is not mirrored: only ${route.strip}/ there is` };
    }
    rest = rest.slice(route.strip.length) || '/';
  }
  const target = route.mount + rest;
  if (!served(route.mount)) return { status: 502, reason: `${host} is mirrored at ${route.mount}, a service not in this build` };
  return { target };
}
