import { availableParallelism } from 'node:os';
import type { EntryDocuments } from '../documents/index.js';
import { sourceUrl } from '../../../core/files/project.js';
import { WorkerPool } from '../../../core/workers/pool.js';

// Plain JavaScript in the source tree; from the build this path leads back to it.
const WORKER = sourceUrl('services/pdb/ingest/parse-worker.mjs');

export interface Parsed {
  /** The documents; their bodies are in `json` (the part documents keep only their rcsb_id). */
  docs: EntryDocuments;
  json: { entry: string; parts: string[] };
  /** The file as kept: its bytes when they were gzip, else gzipped here. */
  gz: Buffer;
  /** The encoded polymer residues (core/mmcif/residues.ts), where the thread could read them. */
  residues: Uint8Array | undefined;
}

interface Reply {
  id?: number;
  docs?: EntryDocuments;
  json?: Parsed['json'];
  gz?: Uint8Array;
  residues?: Uint8Array;
  error?: string;
}

/** Threads for a load, by default one per core (at most four); `BIOMIRROR_PDB_PARSE_THREADS` sets it. */
export function parseThreads(): number {
  const set = Number(process.env.BIOMIRROR_PDB_PARSE_THREADS);
  if (Number.isInteger(set) && set >= 1) return Math.min(set, 16);
  return Math.max(1, Math.min(4, availableParallelism()));
}

/**
 * Parsing threads of one load, on core's worker pool. A file that takes longer than `timeoutMs`
 * once a thread takes it ends its thread (the only way to stop it) and is reported; the next file
 * gets a fresh thread.
 */
export class ParsePool {
  private readonly pool: WorkerPool;

  constructor(
    size: number,
    private readonly timeoutMs: number,
  ) {
    this.pool = new WorkerPool({
      script: WORKER,
      size,
      errors: {
        closed: () => new Error('the load ended'),
        timeout: () => new Error(`parsing took longer than ${timeoutMs / 1000} s`),
        lost: (cause, how) => (how === 'exit' ? new Error('the parsing thread stopped') : cause),
      },
    });
  }

  async parse(id: string, bytes: Buffer, sf: boolean): Promise<Parsed> {
    const m = await this.pool.run<Reply>({ entry: id, bytes, sf }, { budgetMs: this.timeoutMs });
    if (m.error !== undefined || !m.docs || !m.gz || !m.json) throw new Error(m.error ?? 'no documents');
    return { docs: m.docs, json: m.json, gz: Buffer.from(m.gz.buffer, m.gz.byteOffset, m.gz.byteLength), residues: m.residues };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
