/**
 * The file host: loaded files as they were stored (gzipped), and the files made from them on
 * request (BinaryCIF and legacy PDB through the structure-file workers, the served PAE file, the
 * PAE image), each made once and kept in the file store under its source's key.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { fileStoreOf } from '../../core/files/store.js';
import { CifFormatError, CifTaskTimeout, LegacyFormatUnavailable, runCifTask } from '../../core/mmcif/index.js';
import type { ServiceContext } from '../types.js';
import { confidenceJson, parseConfidence, type CategoryScheme } from './confidence.js';
import { afErrors } from './errors.js';
import type { FileName } from './handlers.js';
import { renderPaeFile } from './heatmap.js';
import { servedPae } from './pae.js';
import { derivedKey, saveDerived, type ModelRow } from './store.js';

/** A file ready to send: its bytes, whether they are gzip (to send as Content-Encoding or inflate). */
export interface Delivery {
  bytes: Buffer;
  gzipped: boolean;
  type: string;
  /** A tag of the content (the same bytes give the same tag, whatever the load). */
  tag: string;
}

export const CONVERSION_BUDGET_MS = 30_000;

const TYPES = { cif: 'chemical/x-mmcif', bcif: 'application/octet-stream', pdb: 'chemical/x-pdb', json: 'application/json', png: 'image/png' } as const;

// Renders of the same file asked for at once share one piece of work.
const inFlight = new Map<string, Promise<string>>();

/**
 * A kept file. A store that fails or has lost a file the database names is the server's trouble,
 * not the client's: 503 with Retry-After (as the database's own service-unavailable answer), logged.
 */
async function stored(ctx: ServiceContext, key: string): Promise<Buffer> {
  const files = fileStoreOf(ctx.db);
  let b: Buffer | undefined;
  try {
    b = await files.get(key);
  } catch (err) {
    ctx.log.error({ err, key, store: files.describe() }, 'the file store failed');
    throw afErrors.unavailable(30);
  }
  if (!b) {
    ctx.log.error({ key, store: files.describe() }, 'a kept file is missing from the file store');
    throw afErrors.unavailable(30);
  }
  return b;
}

/** The key of the file made from `source` as `kind`, making and keeping it on first use. */
async function derived(ctx: ServiceContext, source: string, kind: string, make: (input: Buffer) => Promise<Buffer>): Promise<string> {
  const known = await derivedKey(ctx.db, source, kind);
  if (known) return known;
  const id = `${source}/${kind}`;
  let p = inFlight.get(id);
  if (!p) {
    p = (async () => {
      const out = await make(await stored(ctx, source));
      const key = await fileStoreOf(ctx.db).put(out);
      await saveDerived(ctx.db, source, kind, key);
      return key;
    })().finally(() => inFlight.delete(id));
    inFlight.set(id, p);
  }
  return p;
}

async function convert(ctx: ServiceContext, kind: 'bcif' | 'pdb', gz: Buffer): Promise<Buffer> {
  try {
    return gzipSync(await runCifTask(kind, gz, CONVERSION_BUDGET_MS));
  } catch (err) {
    // A model with no legacy form (over 99,999 atoms): no such file, as the database answers.
    if (err instanceof LegacyFormatUnavailable) throw afErrors.notFound();
    if (err instanceof CifTaskTimeout) throw afErrors.unavailable(30);
    if (err instanceof CifFormatError) {
      // Loaded models were read when loaded; one that no longer converts is a damaged store.
      ctx.log.warn({ err }, 'a stored model could not be converted');
      throw afErrors.notFound();
    }
    throw err;
  }
}

const tagOf = (...parts: string[]) => createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 32);

/** A kept file sent as loaded (gzipped): the MSA and AlphaMissense files. */
export async function deliverKept(ctx: ServiceContext, key: string, type: string): Promise<Delivery> {
  return { bytes: await stored(ctx, key), gzipped: true, type, tag: tagOf(key) };
}

export async function deliver(ctx: ServiceContext, f: FileName, row: ModelRow, scheme: CategoryScheme): Promise<Delivery> {
  if (f.kind === 'model') {
    if (f.format === 'cif') return { bytes: await stored(ctx, row.model_key), gzipped: true, type: TYPES.cif, tag: tagOf(row.model_key) };
    const fmt = f.format === 'bcif' ? 'bcif' : 'pdb';
    const key = await derived(ctx, row.model_key, fmt, (gz) => convert(ctx, fmt, gz));
    return { bytes: await stored(ctx, key), gzipped: true, type: TYPES[fmt], tag: tagOf(key) };
  }
  if (f.kind === 'confidence') {
    const c = parseConfidence(gunzipSync(await stored(ctx, row.conf_key)).toString('utf8'));
    return { bytes: Buffer.from(confidenceJson(c, scheme)), gzipped: false, type: TYPES.json, tag: tagOf(row.conf_key, scheme) };
  }
  if (!row.pae_key) throw afErrors.notFound();
  if (f.format === 'json') {
    const key = await derived(ctx, row.pae_key, 'pae-json', async (gz) => gzipSync(servedPae(gunzipSync(gz))));
    return { bytes: await stored(ctx, key), gzipped: true, type: TYPES.json, tag: tagOf(key) };
  }
  const key = await derived(ctx, row.pae_key, 'pae-png', async (gz) => renderPaeFile(gunzipSync(gz)));
  return { bytes: await stored(ctx, key), gzipped: false, type: TYPES.png, tag: tagOf(key) };
}
