/**
 * Compound SD files read by threads while the loader's thread writes what they read. Files are
 * handed out in order and their records come back in order (the first record of a CID wins a
 * duplicate); with more than one thread, the next files are read ahead, each thread a bounded
 * number of batches ahead of the loader.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { FormatError } from '../../../core/ingest/errors.js';
import type { ByteProgress } from '../../../core/ingest/inputs.js';
import { preparedBatches, type PreparedRecord } from './sdf-prepare.js';
import { builtPath } from '../../../core/files/project.js';

const BATCH = 500;
/**
 * Batches a thread may hold ready: far more than the loader's transaction takes (5,000 records), so
 * that the thread reading the next file reads on while the loader writes the current one's; about
 * 64 × 500 × 1.7 KB, blocks compressed. (300,000 records on two cores: 28.3 s with 12, 25.2 with 80.)
 */
const AHEAD = 64;

function workerPath(): string | undefined {
  // Without a build (sources run directly), files are read in the loader's thread.
  const path = builtPath('services/pubchem/ingest/sdf-worker.js');
  return existsSync(path) ? path : undefined;
}

/**
 * Reading threads: BIOMIRROR_INGEST_WORKERS (0 reads in the loader's thread), else one fewer than
 * the cores, at least two (on two cores the next file is read while the loader writes: 300,000
 * records in 25.2 s instead of 32.6 s with one), at most 4.
 */
export function readingThreads(): number {
  const env = process.env.BIOMIRROR_INGEST_WORKERS;
  if (env !== undefined && env !== '' && Number.isInteger(Number(env))) return Math.max(0, Math.min(4, Number(env)));
  return Math.max(2, Math.min(4, availableParallelism() - 1));
}

type Message = { items?: PreparedRecord[]; done?: boolean; error?: string; bytes?: number; exit?: number };

/** One file's reading thread, started at once; its batches are taken in order by `batches`. */
class FileThread {
  private readonly worker: Worker;
  private readonly queue: Message[] = [];
  private wake: (() => void) | undefined;
  private ended = false;

  constructor(
    readonly path: string,
    script: string,
  ) {
    this.worker = new Worker(script, { workerData: { path, batch: BATCH, ahead: AHEAD } });
    const push = (m: Message) => {
      this.queue.push(m);
      this.wake?.();
    };
    this.worker.on('message', push);
    this.worker.on('error', (err) => push({ error: err.message }));
    this.worker.on('exit', (code) => push({ exit: code }));
  }

  async *batches(bytes: ByteProgress): AsyncGenerator<PreparedRecord[]> {
    for (;;) {
      while (this.queue.length === 0) await new Promise<void>((r) => (this.wake = r));
      this.wake = undefined;
      const m = this.queue.shift() as Message;
      if (m.bytes) bytes.add(m.bytes);
      // A file that cannot be read to its end (a broken gzip stream) fails the load, named.
      if (m.error !== undefined) throw new FormatError(`${this.path}: ${m.error}`);
      if (m.items) {
        // Taken now, so that the thread reads on while the loader writes this batch.
        this.worker.postMessage('taken');
        yield m.items;
        continue;
      }
      if (m.done) {
        this.ended = true;
        return;
      }
      throw new Error(`the thread reading ${this.path} stopped (exit code ${m.exit ?? '?'})`);
    }
  }

  async stop(): Promise<void> {
    if (!this.ended) await this.worker.terminate();
    else this.worker.unref();
  }
}

/** Batches of prepared records of each file in turn, from reading threads where the build has them. */
export async function* sdfFileBatches(paths: readonly string[], bytes: ByteProgress, threads = readingThreads()): AsyncGenerator<{ path: string; batch: PreparedRecord[] }> {
  const script = threads > 0 ? workerPath() : undefined;
  if (!script) {
    for (const path of paths) for await (const batch of preparedBatches(path, BATCH, (n) => bytes.add(n))) yield { path, batch };
    return;
  }
  const running: FileThread[] = [];
  let next = 0;
  const fill = () => {
    while (running.length < threads && next < paths.length) running.push(new FileThread(paths[next++] as string, script));
  };
  try {
    fill();
    while (running.length) {
      const t = running[0] as FileThread;
      for await (const batch of t.batches(bytes)) yield { path: t.path, batch };
      await t.stop();
      running.shift();
      fill();
    }
  } finally {
    await Promise.all(running.map((t) => t.stop()));
  }
}
