/**
 * Threads that read entries while the loader writes: Mol*'s parse of the model, the PAE scan and
 * the gzip work are most of a load's time, and spread over the cores (core's worker pool). A thread
 * that fails or runs past the time budget of an entry is replaced and only that entry is skipped.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { modelRecord, type ModelRecord, type Pending } from './entry.js';
import { builtPath } from '../../core/files/project.js';
import { WorkerPool } from '../../core/workers/pool.js';

/** How long one entry may take (a 2,700-residue model with its PAE takes well under a second). */
export const ENTRY_BUDGET_MS = 120_000;

function workerPath(): string | undefined {
  // Without a build (sources run directly), entries are read in place.
  const path = builtPath('services/alphafold/ingest-worker.js');
  return existsSync(path) ? path : undefined;
}

/** Threads: BIOMIRROR_INGEST_WORKERS, else one fewer than the cores (the loader keeps one), at most 4. */
function defaultSize(): number {
  const env = process.env.BIOMIRROR_INGEST_WORKERS;
  if (env !== undefined && env !== '' && Number.isInteger(Number(env))) return Math.max(0, Number(env));
  return Math.min(4, availableParallelism() - 1);
}

/** Buffers come back from a thread as plain Uint8Arrays. */
function revive(r: ModelRecord): ModelRecord {
  const b = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
  return { ...r, model: b(r.model), confidence: b(r.confidence), pae: r.pae ? b(r.pae) : null };
}

export class IngestPool {
  private readonly pool: WorkerPool;
  /** Threads replaced after a failure or past an entry's budget. */
  restarts = 0;

  private constructor(path: string, size: number) {
    this.pool = new WorkerPool({
      script: path,
      size,
      errors: {
        closed: () => new Error('the ingest pool is closed'),
        timeout: () => new Error(`reading the entry took longer than ${ENTRY_BUDGET_MS / 1000} s`),
        lost: (cause, how) => new Error(how === 'exit' ? 'the ingest thread stopped' : `the ingest thread failed: ${cause.message}`),
      },
      onEvent: (e) => {
        if (e === 'deadline' || e === 'fault') this.restarts++;
      },
    });
  }

  /** A pool, or undefined when entries are better read in place (one core, or no built thread script). */
  static create(size = defaultSize()): IngestPool | undefined {
    const path = workerPath();
    return path && size > 0 ? new IngestPool(path, size) : undefined;
  }

  /** Entries a caller should keep in flight to keep the threads busy (the rest wait in the pool's queue). */
  get capacity(): number {
    return this.pool.size * 8;
  }

  async run(entryId: string, version: number, p: Pending): Promise<ModelRecord> {
    const files = { model: p.model?.bytes, confidence: p.confidence?.bytes, pae: p.pae?.bytes };
    const m = await this.pool.run<{ record?: ModelRecord; error?: string }>({ entryId, version, files }, { budgetMs: ENTRY_BUDGET_MS });
    if (m.error !== undefined || !m.record) throw new Error(m.error ?? 'no record');
    return revive(m.record);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** Reads an entry in this thread (no pool). */
export function readInPlace(entryId: string, version: number, p: Pending): Promise<ModelRecord> {
  return modelRecord(entryId, version, p);
}
