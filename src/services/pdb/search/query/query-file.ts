/**
 * A query structure given as a file: `url` (the form the live service documents) or the
 * deprecated base64 `data`. The live service downloads the URL; this mirror fetches nothing from
 * the network. It reads the files of the public hosts it mirrors from its own copies: a URL of the
 * RCSB's file host (files.rcsb.org, `/download/` and `/view/`) from the loaded archive, through the
 * file host's own handlers (the same bytes, conversions and gzip forms), and one of the AlphaFold
 * DB's (alphafold.ebi.ac.uk) from this server's AlphaFold host, answered in-process. A URL of this
 * server itself (the shared port or a service's own port) is answered in-process too; any other
 * URL is a 400 that says so. The file is read on a conversion thread with a time budget; whatever
 * it holds, a bad file is a 400.
 */
import { CifFormatError, CifTaskTimeout, decodeResidues, runCifTask, type Residues } from '../../../../core/mmcif/index.js';
import { fileStoreOf } from '../../../../core/files/store.js';
import { getLocal, localTarget, sharedApp, type LocalTarget } from '../../../../core/http/local-apps.js';
import type { SearchScope } from './engine.js';
import type { ServiceError } from '../../../../core/http/errors.js';
import { badQuery } from '../../errors.js';
import { FileHost, conversionBudget, type FileOutcome } from '../../files/handlers.js';
import { parseFileName } from '../../files/names.js';
import { derivedFiles, type EntryFileSource } from '../../files/source.js';

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
/** The public file hosts whose files this server reads from its own copies. */
const RCSB_FILES = /^files\.rcsb\.org$/i;
const ALPHAFOLD = /^alphafold\.ebi\.ac\.uk$/i;
/** Where the AlphaFold host is mounted on the shared port (its module's `mount`). */
const ALPHAFOLD_MOUNT = '/alphafold';

function elsewhere(url: URL, shown: string): ServiceError {
  const mount = MIRRORED.find(([re]) => re.test(url.hostname))?.[1];
  const hint = mount ? `; this server holds the loaded data's files under ${mount} (e.g. ${mount}${url.pathname})` : '';
  return badQuery(`Could not read the structure file at ${shown}: this server reads query files only from its own addresses and fetches nothing from the network${hint}`);
}

/** The stored file of a loaded entry (gzip bytes), of the archive generation the search reads. */
async function storedFile(s: SearchScope, entries: string, id: string, column: 'file_key' | 'sf_key'): Promise<Buffer | undefined> {
  const row = await s.db.one<{ file: string | null }>(`SELECT ${column} AS file FROM ${entries} WHERE entry_id = ?`, [id.toUpperCase()]);
  return row?.file ? fileStoreOf(s.db).get(row.file) : undefined;
}

/** Why the file host has no file for a name it can parse, as the answer says it. */
function missing(outcome: FileOutcome & { found: false }, id: string): string {
  switch (outcome.reason) {
    case 'absent':
      return `entry ${id} is not loaded on this server`;
    case 'unavailable':
      return outcome.detail ?? `the file host has no such file for entry ${id}`;
    case 'unreadable':
      return `the stored file of entry ${id} could not be read`;
    case 'timeout':
      return `making the file of entry ${id} took longer than ${conversionBudget.ms} ms`;
  }
}

/**
 * A file of files.rcsb.org, from the loaded archive: the names and forms its `/download/` and
 * `/view/` paths serve, through the file host's handlers (nothing is requested).
 */
async function fromRcsbFiles(url: URL, shown: string, s: SearchScope): Promise<Uint8Array> {
  const m = /^\/(download|view)\/([^/]+)$/.exec(url.pathname);
  const name = m ? parseFileName(m[2] as string) : undefined;
  // The view form has no compressed or binary variants, as on the file host.
  if (!m || !name || (m[1] === 'view' && (name.gz || name.kind === 'bcif'))) throw badQuery(`Could not read the structure file at ${shown}: the RCSB file host has no file at ${url.pathname}`);
  const t = s.archiveTables;
  if (!t) throw badQuery(`Could not read the structure file at ${shown}: no PDB archive is loaded on this server`);
  const source: EntryFileSource = {
    cif: (id) => storedFile(s, t.entries, id, 'file_key'),
    structureFactors: (id) => storedFile(s, t.entries, id, 'sf_key'),
    cache: derivedFiles(),
  };
  let outcome: FileOutcome;
  try {
    outcome = await new FileHost(source).file(name);
  } catch (err) {
    throw badQuery(`Could not read the structure file at ${shown}: ${(err as Error).message}`);
  }
  if (!outcome.found) throw badQuery(`Could not read the structure file at ${shown}: ${missing(outcome, name.id)}`);
  return outcome.bytes;
}

/** A file answered in-process by one of this server's hosts. */
async function answered(target: LocalTarget, shown: string): Promise<Buffer> {
  let res;
  try {
    res = await getLocal(target, { 'accept-encoding': 'gzip' }, queryFileLimits.fetchMs);
  } catch (err) {
    throw badQuery(`Could not read the structure file at ${shown}: ${(err as Error).message}`);
  }
  if (res.status !== 200) throw badQuery(`Could not read the structure file at ${shown}: this server answered ${res.status}`);
  return res.body;
}

async function fromUrl(raw: string, s: SearchScope): Promise<Uint8Array> {
  const shown = raw.length > 200 ? `${raw.slice(0, 200)}…` : raw;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badQuery(`The structure file URL ${shown} is not a valid URL`);
  }
  const web = url.protocol === 'http:' || url.protocol === 'https:';
  if (web && RCSB_FILES.test(url.hostname)) return fromRcsbFiles(url, shown, s);
  if (web && ALPHAFOLD.test(url.hostname)) {
    // The app with every service under its mount, where one runs in this process.
    const app = sharedApp();
    if (!app) throw elsewhere(url, shown);
    return answered({ app, path: `${ALPHAFOLD_MOUNT}${url.pathname}${url.search}`, service: 'alphafold' }, shown);
  }
  const target = localTarget(url, s.requestHost ? [s.requestHost] : []);
  if (!target) throw elsewhere(url, shown);
  if (target.service === undefined || target.service === 'rcsb-search') throw badQuery(`Could not read the structure file at ${shown}: no file host of this server answers that path`);
  return answered(target, shown);
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
