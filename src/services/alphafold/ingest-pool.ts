/**
 * Threads that read entries while the loader writes: Mol*'s parse of the model, the PAE scan and
 * the gzip work are most of a load's time, and spread over the cores. A thread that fails or runs
 * past the time budget of an entry is replaced and only that entry is skipped.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { modelRecord, type ModelRecord, type Pending } from './entry.js';
import { builtPath } from '../../core/files/project.js';

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

interface Job {
  id: number;
  resolve(r: ModelRecord): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

class Thread {
  worker: Worker;
  readonly jobs = new Map<number, Job>();
  constructor(
    private readonly path: string,
    private readonly onDead: (t: Thread) => void,
  ) {
    this.worker = this.start();
  }

  private start(): Worker {
    const w = new Worker(this.path);
    w.on('message', (m: { id: number; record?: ModelRecord; error?: string }) => {
      const job = this.jobs.get(m.id);
      if (!job) return;
      this.jobs.delete(m.id);
      clearTimeout(job.timer);
      if (m.error !== undefined || !m.record) job.reject(new Error(m.error ?? 'no record'));
      else job.resolve(revive(m.record));
    });
    w.on('error', (err) => this.fail(`the ingest thread failed: ${err.message}`));
    w.on('exit', () => this.fail('the ingest thread stopped'));
    return w;
  }

  /** Fails every job of the thread and starts a fresh one. */
  fail(reason: string): void {
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    for (const j of jobs) {
      clearTimeout(j.timer);
      j.reject(new Error(reason));
    }
    const old = this.worker;
    old.removeAllListeners();
    void old.terminate();
    this.onDead(this);
    this.worker = this.start();
  }
}

/** Buffers come back from a thread as plain Uint8Arrays. */
function revive(r: ModelRecord): ModelRecord {
  const b = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
  return { ...r, model: b(r.model), confidence: b(r.confidence), pae: r.pae ? b(r.pae) : null };
}

export class IngestPool {
  private readonly threads: Thread[];
  private seq = 0;
  private closed = false;
  restarts = 0;

  private constructor(path: string, size: number) {
    this.threads = Array.from({ length: size }, () => new Thread(path, () => this.restarts++));
  }

  /** A pool, or undefined when entries are better read in place (one core, or no built thread script). */
  static create(size = defaultSize()): IngestPool | undefined {
    const path = workerPath();
    return path && size > 0 ? new IngestPool(path, size) : undefined;
  }

  /** Entries a caller should keep in flight to keep the threads busy. */
  get capacity(): number {
    return this.threads.length * 8;
  }

  run(entryId: string, version: number, p: Pending): Promise<ModelRecord> {
    if (this.closed) return Promise.reject(new Error('the ingest pool is closed'));
    const t = this.threads.reduce((a, b) => (b.jobs.size < a.jobs.size ? b : a));
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => t.fail(`reading the entry took longer than ${ENTRY_BUDGET_MS / 1000} s`), ENTRY_BUDGET_MS);
      t.jobs.set(id, { id, resolve, reject, timer });
      t.worker.postMessage({ id, entryId, version, files: { model: p.model?.bytes, confidence: p.confidence?.bytes, pae: p.pae?.bytes } });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      this.threads.map(async (t) => {
        t.worker.removeAllListeners();
        for (const j of t.jobs.values()) clearTimeout(j.timer);
        await t.worker.terminate();
      }),
    );
  }
}

/** Reads an entry in this thread (no pool). */
export function readInPlace(entryId: string, version: number, p: Pending): Promise<ModelRecord> {
  return modelRecord(entryId, version, p);
}
