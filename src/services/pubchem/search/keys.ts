/**
 * The key file of a compounds generation: PubChem's substructure keys of every compound, laid out
 * for scanning (keyfile/), written from the structures table when a load finishes and, when a
 * process finds none (another host loaded the data, or an earlier version of biomirror did), when
 * the generation is first searched. It lives in the data folder's engine-index folder (or
 * BIOMIRROR_INDEX_DIR), named after the generation's table, beside the CIDs of the compounds
 * without keys (`.keyless`, u32 little-endian), which no key scan can find but which every
 * substructure screen passes to the exact match. The key file is renamed into place last: one
 * whose `.keyless` is missing was never finished and is written again.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { derivedDirOf } from '../../../core/files/derived.js';
import type { Db } from '../../../core/store/db.js';
import { RAW_KEY_BYTES } from './keyfile/format.js';
import { KeyFileSearcher, KeyFileWriter } from './keyfile/index.js';
import { bytes } from '../store/sql.js';
import type { CompoundStore } from '../store/compounds.js';

const FOLDER = 'pubchem-keys';

export interface KeySet {
  searcher: KeyFileSearcher;
  /** CIDs of the compounds without keys, ascending. */
  keyless: Uint32Array;
  /** Loaded by a version of biomirror that kept no keys. */
  legacy: boolean;
}

/** A generation's key file: named by its table and its load's random stamp, apart from any other database's. */
export function keyFilePath(db: Db, structuresTable: string, stamp: string): string {
  return join(derivedDirOf(db), FOLDER, `${structuresTable}-${stamp}.keys`);
}

const keylessPath = (path: string) => `${path}.keyless`;

/** Writes the key file of a generation from its structures table; returns the compounds with keys. */
export async function writeGenerationKeys(store: CompoundStore, path: string, closed: () => boolean = () => false): Promise<{ keyed: number; keyless: number }> {
  mkdirSync(join(path, '..'), { recursive: true });
  rmSync(keylessPath(path), { force: true });
  const w = new KeyFileWriter(path);
  const keyless: number[] = [];
  try {
    for await (const rows of store.structures()) {
      if (closed()) throw new Error('the service is closing');
      for (const r of rows) {
        const k = r.keys === null || r.keys === undefined ? undefined : bytes(r.keys);
        if (k && k.length >= RAW_KEY_BYTES) w.add(Number(r.cid), k);
        else keyless.push(Number(r.cid));
      }
      // Reading a large table takes a while: requests go on in between.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const tmp = `${keylessPath(path)}.tmp-${process.pid}`;
    writeFileSync(tmp, Buffer.from(Uint32Array.from(keyless).buffer));
    const stats = await w.finish();
    renameSync(tmp, keylessPath(path));
    return { keyed: stats.count, keyless: keyless.length };
  } catch (err) {
    w.abort();
    throw err;
  }
}

/** Opens a generation's key file, writing it first when it is missing or unfinished. */
export async function openGenerationKeys(store: CompoundStore, path: string, closed: () => boolean, threads?: number): Promise<KeySet> {
  const legacy = !(await store.keepsKeys());
  if (!existsSync(path) || !existsSync(keylessPath(path))) await writeGenerationKeys(store, path, closed);
  let searcher: KeyFileSearcher;
  try {
    searcher = KeyFileSearcher.open(path, threads ? { threads } : {});
  } catch {
    // A damaged file is derived data: written again from the table.
    await writeGenerationKeys(store, path, closed);
    searcher = KeyFileSearcher.open(path, threads ? { threads } : {});
  }
  const raw = readFileSync(keylessPath(path));
  const keyless = new Uint32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
  return { searcher, keyless, legacy };
}

/**
 * Removes the finished key files of generations older than those served (`keep`: the generation
 * numbers still served). A folder shared by several hosts serves one database, whose generation
 * numbers are the same everywhere; a file removed while a searcher has it open stays readable to
 * it, and one found missing is written again.
 */
export function sweepKeyFiles(db: Db, prefix: string, keep: readonly number[]): void {
  const dir = join(derivedDirOf(db), FOLDER);
  if (!existsSync(dir) || !keep.length) return;
  const newest = Math.max(...keep);
  const own = new RegExp(`^${prefix}_structures_g(\\d+)-[A-Za-z0-9_-]+\\.keys(\\.keyless)?$`);
  for (const name of readdirSync(dir)) {
    const m = own.exec(name);
    const gen = Number(m?.[1]);
    if (m && gen < newest && !keep.includes(gen)) rmSync(join(dir, name), { force: true });
  }
}
