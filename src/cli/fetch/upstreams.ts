/**
 * The upstream hosts the bulk files and APIs come from. Each can be pointed elsewhere (a private
 * mirror of the FTP site, a proxy, a test server) with `--upstream key=url` or the environment
 * variable `BIOMIRROR_UPSTREAM_<KEY>`; paths below the host stay the same.
 */
import { UsageError } from './errors.js';

export const UPSTREAMS = {
  /** NCBI's FTP site over HTTPS: Gene, ClinVar, PubChem, the taxonomy, RefSeq. */
  ncbi: 'https://ftp.ncbi.nlm.nih.gov',
  /** EMBL-EBI's FTP site over HTTPS: the GWAS Catalog and summary statistics, SIFTS, AlphaFold DB's bulk files. */
  ebi: 'https://ftp.ebi.ac.uk',
  /** ClinicalTrials.gov (its bulk download is an address of the API). */
  ctgov: 'https://clinicaltrials.gov',
  /** The wwPDB's file server: the PDB archive, the chemical component dictionary, the holdings. */
  wwpdb: 'https://files.wwpdb.org',
  /** AlphaFold DB's API and per-entry files. */
  alphafold: 'https://alphafold.ebi.ac.uk',
  /** ClinPGx (formerly PharmGKB): its download addresses. */
  clinpgx: 'https://api.clinpgx.org',
  /** The bioRxiv API. */
  biorxiv: 'https://api.biorxiv.org',
  /** The protocols.io API. */
  protocols: 'https://www.protocols.io',
  /** EFO's latest release assets on GitHub (efo.obo, for the GWAS Catalog's child traits). */
  efo: 'https://github.com/EBISPOT/efo/releases/latest/download',
} as const;

export type UpstreamKey = keyof typeof UPSTREAMS;

export const envName = (key: UpstreamKey) => `BIOMIRROR_UPSTREAM_${key.toUpperCase()}`;

export type Upstreams = Readonly<Record<UpstreamKey, string>>;

function checked(url: string, from: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(`${from}: "${url}" is not an address (expected http:// or https://...)`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`${from}: must be an http:// or https:// address, not ${u.protocol}`);
  return url.replace(/\/+$/, '');
}

/** The hosts to use: the defaults, then the environment, then `--upstream key=url` flags. */
export function resolveUpstreams(flags: readonly string[] = [], env: NodeJS.ProcessEnv = process.env): Upstreams {
  const out: Record<string, string> = { ...UPSTREAMS };
  for (const key of Object.keys(UPSTREAMS) as UpstreamKey[]) {
    const v = env[envName(key)];
    if (v) out[key] = checked(v, envName(key));
  }
  for (const f of flags) {
    const eq = f.indexOf('=');
    const key = f.slice(0, eq);
    if (eq < 1 || !(key in UPSTREAMS)) {
      throw new UsageError(`--upstream ${f}: expected key=url with key one of ${Object.keys(UPSTREAMS).join(', ')}`);
    }
    out[key] = checked(f.slice(eq + 1), `--upstream ${key}`);
  }
  return out as Upstreams;
}

/** An address on an upstream: its base (possibly a mirror's, with a path) and a path below it. */
export function upstreamUrl(upstreams: Upstreams, key: UpstreamKey, path: string): string {
  return `${upstreams[key]}/${path.replace(/^\/+/, '')}`;
}

/** An absolute address the upstream itself handed out (AlphaFold's file links), moved onto the configured host. */
export function rebase(upstreams: Upstreams, key: UpstreamKey, url: string): string {
  const u = new URL(url);
  const def = new URL(UPSTREAMS[key]);
  if (u.host !== def.host) return url;
  return upstreamUrl(upstreams, key, `${u.pathname}${u.search}`);
}
