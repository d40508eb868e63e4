/**
 * A query structure given as a file: `url` (the form the live service documents) or the
 * deprecated base64 `data`. The live service downloads the URL; this mirror reads only its own
 * hosts' files (a URL of this server, on the shared port or a service's own port, answered
 * in-process) and fetches nothing from the network, so any other URL is a 400 that says so. The
 * file is read on a conversion thread with a time budget; whatever it holds, a bad file is a 400.
 */
import { CifFormatError, CifTaskTimeout, decodeResidues, runCifTask, type Residues } from '../../../../core/mmcif/index.js';
import { getLocal, localTarget } from '../../../../core/http/local-apps.js';
import type { SearchScope } from './engine.js';
import type { ServiceError } from '../../../../core/http/errors.js';
import { badQuery } from '../../errors.js';

const MiB = 1024 * 1024;

export const queryFileLimits = {
  /** Bytes of the file as given (gzip or not); the reader bounds what it inflates to. */
  maxBytes: Number(process.env.BIOMIRROR_PDB_QUERY_FILE_MAX_MB ?? 64) * MiB,
  /** Time to get the file from this server's own host. */
  fetchMs: 10_000,
  /** Time to read it. */
  parseMs: Number(process.env.BIOMIRROR_PDB_QUERY_FILE_TIMEOUT_MS ?? 20_000),
};

const NAMES: Record<string, string> = { cif: 'mmCIF', bcif: 'BinaryCIF', pdb: 'PDB' };

/** Where the public hosts' files are on this server, to name in the answer to their URLs. */
const MIRRORED: [RegExp, string][] = [
  [/^files\.rcsb\.org$/i, '/rcsb/files'],
  [/^(www\.)?rcsb\.org$/i, '/rcsb/www'],
  [/^alphafold\.ebi\.ac\.uk$/i, '/alphafold'],
];

function elsewhere(url: URL, shown: string): ServiceError {
  const mount = MIRRORED.find(([re]) => re.test(url.hostname))?.[1];
  const hint = mount ? `; this server holds the loaded data's files under ${mount} (e.g. ${mount}${url.pathname})` : '';
  return badQuery(`Could not read the structure file at ${shown}: this server reads query files only from its own addresses and fetches nothing from the network${hint}`);
}

async function fromUrl(raw: string, s: SearchScope): Promise<Buffer> {
  const shown = raw.length > 200 ? `${raw.slice(0, 200)}…` : raw;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badQuery(`The structure file URL ${shown} is not a valid URL`);
  }
  const target = localTarget(url, s.requestHost ? [s.requestHost] : []);
  if (!target) throw elsewhere(url, shown);
  if (target.service === undefined || target.service === 'rcsb-search') throw badQuery(`Could not read the structure file at ${shown}: no file host of this server answers that path`);
  let res;
  try {
    res = await getLocal(target, { 'accept-encoding': 'gzip' }, queryFileLimits.fetchMs);
  } catch (err) {
    throw badQuery(`Could not read the structure file at ${shown}: ${(err as Error).message}`);
  }
  if (res.status !== 200) throw badQuery(`Could not read the structure file at ${shown}: this server answered ${res.status}`);
  return res.body;
}

/** The residues of the file a structure or motif query names; a 400 naming what is wrong otherwise. */
export async function queryResidues(s: SearchScope, v: Record<string, unknown>): Promise<Residues> {
  const format = String(v.format);
  const where = typeof v.url === 'string' ? `at ${v.url.length > 200 ? `${v.url.slice(0, 200)}…` : v.url}` : 'given as data';
  const bytes = typeof v.url === 'string' ? await fromUrl(v.url, s) : Buffer.from(String(v.data), 'base64');
  if (bytes.length === 0) throw badQuery(`The structure file ${where} is empty`);
  if (bytes.length > queryFileLimits.maxBytes) throw badQuery(`The structure file ${where} has ${bytes.length} bytes; at most ${queryFileLimits.maxBytes} are accepted`);
  let r: Residues;
  try {
    r = decodeResidues(await runCifTask('residues', bytes, queryFileLimits.parseMs, { format: format === 'pdb' ? 'pdb' : 'cif' }));
  } catch (err) {
    if (err instanceof CifTaskTimeout) throw badQuery(`The structure file ${where} took longer than ${queryFileLimits.parseMs} ms to read`);
    if (err instanceof CifFormatError) throw badQuery(`The structure file ${where} is not a readable ${NAMES[format] ?? format} file: ${err.message}`);
    throw err;
  }
  if (r.n === 0) throw badQuery(`The structure file ${where} has no polymer residues with coordinates`);
  return r;
}
