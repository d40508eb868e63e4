/**
 * The coordinate indexes (structure-similarity prefilter, structure-motif pairs) of an archive
 * generation, built in one pass over its stored mmCIF files: each file is read on a conversion
 * thread (a file that hangs or crashes the reader costs that thread, and the entry is left out).
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../../core/store/db.js';
import { fileStoreOf } from '../../../core/files/store.js';
import { pacer } from '../../../core/pacer.js';
import { CifPool, decodeResidues } from '../../../core/mmcif/index.js';
import { parseThreads } from '../ingest/parse-pool.js';
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
}

/**
 * Writes both indexes of the generation whose entries table is `entries` into `dir`. `parsed`
 * gives the encoded residues of entries already read (by the load that just stored them); the
 * others' files are read here.
 */
export async function writeCoordIndexes(db: Db, entries: string, dir: string, parsed?: (id: string) => Uint8Array | undefined): Promise<CoordBuild> {
  const files = fileStoreOf(db);
  const list = await entryFiles(db, entries);
  const pool = new CifPool(parseThreads());
  const structures = await StructureIndexWriter.create(dir);
  const motifs = await MotifIndexWriter.create(dir);
  // Entries' pairs are found on this thread: requests and timers go on between entries.
  const pace = pacer();
  let unreadable = 0;
  try {
    for (let i = 0; i < list.length; i += PAGE) {
      // A page is read on every thread at once and added in order.
      // Each settles (never rejects), so a failure of the store is raised once, in order.
      const page = list.slice(i, i + PAGE).map(async (e) => {
        try {
          const known = parsed?.(e.entry_id);
          if (known) return { residues: decodeResidues(known) };
        } catch {
          // The load's copy unreadable: the stored file is read instead.
        }
        let bytes: Buffer | undefined;
        try {
          bytes = await files.get(e.file_key);
        } catch (err) {
          return { failed: err as Error };
        }
        if (!bytes) return {};
        try {
          return { residues: decodeResidues(await pool.run('residues', bytes, ENTRY_BUDGET_MS)) };
        } catch {
          return {};
        }
      });
      for (const [k, p] of page.entries()) {
        await pace();
        const { residues: r, failed } = (await p) as { residues?: ReturnType<typeof decodeResidues>; failed?: Error };
        if (failed) throw failed;
        const id = (list[i + k] as EntryFile).entry_id;
        if (!r) {
          unreadable++;
          continue;
        }
        await structures.add(id, r);
        await motifs.add(id, r);
      }
    }
    await structures.finish();
    await motifs.finish();
  } finally {
    await pool.close();
  }
  return { entries: list.length, unreadable };
}
