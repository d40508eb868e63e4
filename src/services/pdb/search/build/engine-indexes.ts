/**
 * The engine indexes of an archive generation: the MMseqs2 databases with their k-mer indexes and
 * the sequence clusters (`sequences-<hash>`), the structure-similarity prefilter and the
 * structure-motif pairs (`structures-<hash>`). The archive load builds them as its last step,
 * before the generation is switched; a failure fails the load, which leaves the served generation
 * and its indexes alone. Without MMseqs2 the sequence index is not built (the load still
 * succeeds; sequence queries answer that the engine is missing).
 *
 * A process serving a generation whose folders it cannot find (data loaded by an older version,
 * or by a load on another host) builds them in the background from the database, starting on its
 * first search request; until they are ready, the queries that need them answer 503 with
 * Retry-After.
 */
import { Generations } from '../../../../core/store/generations.js';
import { derivedDirOf } from '../../../../core/files/derived.js';
import { tableSet, type TableSet } from '../../../../core/ingest/dataset.js';
import type { Db } from '../../../../core/store/db.js';
import { ARCHIVE, ARCHIVE_PREFIX, SERVICE, archiveTables } from '../../store/tables.js';
import { structuresHash, writeCoordIndexes } from './coord-index.js';
import { perGeneration } from '../generation-cache.js';
import type { SearchScope } from '../query/engine.js';
import { indexNotReady } from '../../errors.js';
import { indexStore, type IndexKind, type IndexMaker, type IndexStore } from './index-store.js';
import { searchTables } from './indexer.js';
import { mmseqsAvailable, notInstalled } from '../mmseqs.js';
import { openMotifIndex, type MotifIndex } from './motif-index.js';
import { readClusters, sequencesHash, writeSequenceIndex } from './seq-index.js';
import { readSequences, sequencesOf, type Sequences } from '../sequences.js';
import { openStructureIndex, type StructureIndex } from './structure-index.js';

export interface EngineBuild {
  sequences: { hash: string; seconds: number } | { skipped: string };
  structures: { hash: string; seconds: number };
}

/** Both folders' names (hashes) for a generation's tables. */
async function hashesOf(db: Db, t: TableSet): Promise<{ seqs: Sequences; sequences: string | undefined; structures: string }> {
  const seqs = await readSequences(db, searchTables(t).sseq);
  return {
    seqs,
    sequences: mmseqsAvailable() && seqs.list.length ? sequencesHash(seqs.list) : undefined,
    structures: await structuresHash(db, archiveTables(t).entries),
  };
}

const timed = async (f: () => Promise<unknown>) => {
  const t0 = performance.now();
  await f();
  return Math.round(performance.now() - t0) / 1000;
};

/**
 * The archive load's last step: both indexes of generation `t`, then the folders nothing serves
 * any more are removed. `parsed` gives the residues of the entries the load read (see
 * writeCoordIndexes). The two are built at once: the sequence index is mostly MMseqs2's own
 * processes, the structure index this thread's work. `also` is other work of the load (the rest
 * of its search index), run alongside both: MMseqs2 needs only the sequences table, and the
 * structure index only the entries' files.
 */
export async function buildEngineIndexes(db: Db, t: TableSet, parsed?: (id: string) => Uint8Array | undefined, also?: () => Promise<void>): Promise<EngineBuild> {
  const store = indexStore(derivedDirOf(db));
  const entries = archiveTables(t).entries;
  const h = await hashesOf(db, t);
  const seqHash = h.sequences;
  const previous = await servedStructures(db, t, store);
  const [sequences, structures] = await settleBoth(
    seqHash ? timed(() => store.build('sequences', seqHash, (dir) => writeSequenceIndex(dir, h.seqs.list))) : undefined,
    settleBoth(
      also?.(),
      timed(() => store.build('structures', h.structures, (dir) => writeCoordIndexes(db, entries, dir, parsed, previous).then(() => undefined))),
    ).then(([, seconds]) => seconds),
  );
  const out: EngineBuild = {
    sequences: seqHash && sequences !== undefined ? { hash: seqHash, seconds: sequences } : { skipped: mmseqsAvailable() ? 'no polymer sequences' : 'mmseqs is not installed' },
    structures: { hash: h.structures, seconds: structures },
  };
  // Kept: this generation's folders and those of the generations still served (active, previous).
  const keep: Record<IndexKind, Set<string>> = { sequences: new Set(seqHash ? [seqHash] : []), structures: new Set([h.structures]) };
  for (const gen of await new Generations(db).servableList(SERVICE, ARCHIVE)) {
    if (gen === t.gen) continue;
    try {
      const old = await hashesOf(db, tableSet(ARCHIVE_PREFIX, gen));
      if (old.sequences) keep.sequences.add(old.sequences);
      keep.structures.add(old.structures);
    } catch {
      // A generation whose tables are gone keeps nothing.
    }
  }
  await store.sweep('sequences', keep.sequences);
  await store.sweep('structures', keep.structures);
  return out;
}

/**
 * The structure indexes' folder of the generation served while `t` loads, if built: the entries the
 * load carries over are taken from it rather than read from their files again.
 */
async function servedStructures(db: Db, t: TableSet, store: IndexStore): Promise<string | undefined> {
  try {
    const gen = await new Generations(db).active(SERVICE, ARCHIVE);
    if (gen === undefined || gen === t.gen) return undefined;
    return await store.ready('structures', await structuresHash(db, archiveTables(tableSet(ARCHIVE_PREFIX, gen)).entries));
  } catch {
    // Its tables gone or unreadable: every file is read.
    return undefined;
  }
}

/** Both results once both have ended (neither is left running), or the first failure. */
async function settleBoth<A, B>(a: Promise<A> | undefined, b: Promise<B>): Promise<[A | undefined, B]> {
  const [ra, rb] = await Promise.allSettled([a, b]);
  if (ra.status === 'rejected') throw ra.reason;
  if (rb.status === 'rejected') throw rb.reason;
  return [ra.value, rb.value];
}

function minutes(since: number): string {
  const s = Math.round((Date.now() - since) / 1000);
  return s < 90 ? `${s} s` : `${Math.round(s / 60)} min`;
}

/** The folder of an index, or a 503 naming the build under way (or why the last one failed). */
async function readyDir(db: Db, kind: IndexKind, hash: string, make: IndexMaker, what: string): Promise<string> {
  const st = await indexStore(derivedDirOf(db)).state(kind, hash, make);
  if (st.state === 'ready') return st.dir;
  if (st.state === 'building') throw indexNotReady(`The ${what} index of the data served is being built on this server (for ${minutes(st.since)} so far); retry in a minute`);
  throw indexNotReady(`The ${what} index of the data served could not be built on this server (${st.error}); it is tried again on a later request`);
}

/** The sequence index's folder of the generation served (MMseqs2 databases, clusters). */
export async function sequenceIndex(s: SearchScope, what: string): Promise<{ dir: string; seqs: Sequences }> {
  if (!mmseqsAvailable()) throw notInstalled(what);
  const seqs = await sequencesOf(s);
  const dir = await readyDir(s.db, 'sequences', sequencesHash(seqs.list), (d) => writeSequenceIndex(d, seqs.list), 'sequence search');
  return { dir, seqs };
}

const clusterCache = perGeneration<Map<number, Map<string, number>>>();

/** Entity → cluster number at each MMseqs2 cutoff, for the generation served. */
export async function clustersOf(s: SearchScope): Promise<Map<number, Map<string, number>>> {
  const { dir } = await sequenceIndex(s, 'Grouping by sequence identity below 100 %');
  return clusterCache(s.db, dir, () => readClusters(dir));
}

export interface CoordIndexes {
  structures: StructureIndex;
  motifs: MotifIndex;
}

const coordHashes = perGeneration<string>();
const coordOpened = perGeneration<CoordIndexes>();

/** The coordinate indexes of the generation served, opened once per process. */
export async function coordIndexes(s: SearchScope): Promise<CoordIndexes | undefined> {
  const data = s.archiveTables;
  if (!data || !s.archive) return undefined;
  const hash = await coordHashes(s.db, data.entries, () => structuresHash(s.db, data.entries));
  const dir = await readyDir(s.db, 'structures', hash, (d) => writeCoordIndexes(s.db, data.entries, d).then(() => undefined), 'structure');
  return coordOpened(s.db, dir, async () => ({ structures: await openStructureIndex(dir), motifs: await openMotifIndex(dir) }));
}

const kicked = new WeakMap<Db, Set<string>>();

/**
 * Called on every search request: the first for a generation in this process checks that its
 * indexes are there and starts building those that are not, so they are ready sooner.
 */
export function prepareEngineIndexes(s: SearchScope): void {
  const data = s.archiveTables;
  if (!data || !s.archive) return;
  let seen = kicked.get(s.db);
  if (!seen) kicked.set(s.db, (seen = new Set()));
  if (seen.has(data.entries)) return;
  seen.add(data.entries);
  const quiet = (p: Promise<unknown>) => p.catch(() => undefined);
  void quiet(coordIndexes(s));
  if (mmseqsAvailable()) void quiet(sequenceIndex(s, ''));
}
