/**
 * The coordinate indexes (structure-similarity prefilter, structure-motif pairs) of an archive
 * generation, built in one pass over its stored mmCIF files: each file is read on a conversion
 * thread (a file that hangs or crashes the reader costs that thread, and the entry is left out),
 * except for the entries a load has just parsed and those the generation served indexed from the
 * same file (coord-reuse.ts).
 */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '../../../../core/store/db.js';
import { fileStoreOf } from '../../../../core/files/store.js';
import { pacer } from '../../../../core/pacer.js';
import { CifPool, decodeResidues, type Residues } from '../../../../core/mmcif/index.js';
import { parseThreads } from '../../ingest/parse-pool.js';
import { PreviousCoords, SOURCES, type CoordSources, type ReusedEntry } from './coord-reuse.js';
import { MotifIndexWriter } from './motif-index.js';
import { StructureIndexWriter } from './structure-index.js';

const FORMAT = 'biomirror structures index v1';
/** Time one entry may take to read (the largest real entries take a few seconds). */
const ENTRY_BUDGET_MS = Number(process.env.BIOMIRROR_PDB_PARSE_TIMEOUT_MS ?? 120_000);
const PAGE = 64;

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

interface EntryFile {
  entry_id: string;
  file_key: string;
}

async function entryFiles(db: Db, entries: string): Promise<EntryFile[]> {
  const rows = await db.query<EntryFile>(`SELECT entry_id, file_key FROM ${entries}`);
  return rows.sort((a, b) => byCodeUnit(a.entry_id, b.entry_id));
}

/** What the folder is built from: every entry's id and the hash of its file, and this format. */
export async function structuresHash(db: Db, entries: string): Promise<string> {
  const h = createHash('sha256').update(`${FORMAT}\n`);
  for (const r of await entryFiles(db, entries)) h.update(`${r.entry_id}\t${r.file_key}\n`);
  return h.digest('hex');
}

export interface CoordBuild {
  entries: number;
  /** Entries whose file could not be read (left out of both indexes). */
  unreadable: number;
  /** Entries taken from the indexes of the generation served (their files not read). */
  reused: number;
}

type Read = { residues?: Residues; reused?: ReusedEntry; failed?: Error };

/**
 * Writes both indexes of the generation whose entries table is `entries` into `dir`. `parsed`
 * gives the encoded residues of entries already read (by the load that just stored them);
 * `previous`, the folder of the generation served, gives those of entries whose file it indexed
 * (the same key); the others' files are read here.
 */
export async function writeCoordIndexes(db: Db, entries: string, dir: string, parsed?: (id: string) => Uint8Array | undefined, previous?: string): Promise<CoordBuild> {
  const files = fileStoreOf(db);
  const list = await entryFiles(db, entries);
  // Threads are started for the first file to read, if any.
  let pool: CifPool | undefined;
  const structures = await StructureIndexWriter.create(dir);
  const motifs = await MotifIndexWriter.create(dir);
  const before = previous ? await PreviousCoords.open(previous) : undefined;
  const sources: CoordSources = { entries: [] };
  // Entries' pairs are found on this thread: requests and timers go on between entries.
  const pace = pacer();
  let unreadable = 0;
  let reused = 0;
  try {
    for (let i = 0; i < list.length; i += PAGE) {
      // A page is read on every thread at once and added in order.
      // Each settles (never rejects), so a failure of the store is raised once, in order.
      const page = list.slice(i, i + PAGE).map(async (e): Promise<Read> => {
        try {
          const known = parsed?.(e.entry_id);
          if (known) return { residues: decodeResidues(known) };
        } catch {
          // The load's copy unreadable: the stored file is read instead.
        }
        try {
          const old = await before?.entry(e.entry_id, e.file_key);
          if (old) return { reused: old };
        } catch {
          // The old folder damaged: the stored file is read instead.
        }
        let bytes: Buffer | undefined;
        try {
          bytes = await files.get(e.file_key);
        } catch (err) {
          return { failed: err as Error };
        }
        if (!bytes) return {};
        try {
          pool ??= new CifPool(parseThreads());
          return { residues: decodeResidues(await pool.run('residues', bytes, ENTRY_BUDGET_MS)) };
        } catch {
          return {};
        }
      });
      for (const [k, p] of page.entries()) {
        await pace();
        const { residues: r, reused: old, failed } = await p;
        if (failed) throw failed;
        const e = list[i + k] as EntryFile;
        const from = structures.count;
        if (old) {
          await structures.copy(old.structures);
          await motifs.add(e.entry_id, old.residues);
          reused++;
        } else if (r) {
          await structures.add(e.entry_id, r);
          await motifs.add(e.entry_id, r);
        } else {
          unreadable++;
          continue;
        }
        sources.entries.push([e.entry_id, e.file_key, from, structures.count]);
      }
    }
    await structures.finish();
    await motifs.finish();
    await writeFile(join(dir, SOURCES), JSON.stringify(sources));
  } finally {
    await pool?.close();
    await before?.close();
  }
  return { entries: list.length, unreadable, reused };
}
