/**
 * The polymer sequences of the loaded archive, held in memory per generation (read from the
 * index's sequence table, written at load): what motif search scans, what the sequence engine's
 * database is written from, and what identical-sequence grouping keys on.
 */
import type { Db } from '../../../core/store/db.js';
import { perGeneration } from './generation-cache.js';
import type { SearchScope } from './query/engine.js';

export interface EntitySequence {
  entity: string;
  entry: string;
  type: 'protein' | 'dna' | 'rna' | 'other';
  seq: string;
  /** The smallest entity id with the identical sequence (its 100% identity group). */
  cluster: string;
}

export interface Sequences {
  list: EntitySequence[];
  byEntity: Map<string, EntitySequence>;
}

const cache = perGeneration<Sequences>();

export function sequencesOf(s: SearchScope): Promise<Sequences> {
  const n = s.archive;
  if (!n) return Promise.resolve({ list: [], byEntity: new Map() });
  return cache(s.db, n.sseq, () => readSequences(s.db, n.sseq));
}

/** The sequences of an index's sequence table (a generation being loaded, or one served). */
export async function readSequences(db: Db, table: string): Promise<Sequences> {
  const rows = await db.query<{ entity: string; entry_id: string; type: EntitySequence['type']; seq: string }>(`SELECT entity, entry_id, type, seq FROM ${table} ORDER BY entity`);
  const first = new Map<string, string>();
  const list = rows.map((r) => {
    const key = `${r.type}:${r.seq}`;
    if (!first.has(key)) first.set(key, r.entity);
    return { entity: r.entity, entry: r.entry_id, type: r.type, seq: r.seq, cluster: first.get(key) as string };
  });
  return { list, byEntity: new Map(list.map((e) => [e.entity, e])) };
}
