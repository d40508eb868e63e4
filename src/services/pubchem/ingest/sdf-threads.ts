/**
 * Compound SD files read by threads while the loader's thread writes what they read. Files are
 * handed out in order and each file's records come back in order; files come back one after the
 * other (the first record of a CID wins a duplicate) unless their names say they cannot share a CID.
 * Each thread reads a bounded number of batches ahead of the loader.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { FormatError } from '../../../core/ingest/errors.js';
import type { ByteProgress } from '../../../core/ingest/inputs.js';
import { preparedBatches, type PreparedRecord } from './sdf-prepare.js';
import { unpackBatch, type PackedBatch } from './sdf-batch.js';
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

type Message = { items?: PackedBatch; done?: boolean; error?: string; bytes?: number; exit?: number };

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

  /** The file's next batch, or undefined at its end. */
  async next(bytes: ByteProgress): Promise<PreparedRecord[] | undefined> {
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
        return unpackBatch(m.items);
      }
      if (m.done) {
        this.ended = true;
        return undefined;
      }
      throw new Error(`the thread reading ${this.path} stopped (exit code ${m.exit ?? '?'})`);
    }
  }

  async stop(): Promise<void> {
    if (!this.ended) await this.worker.terminate();
    else this.worker.unref();
  }
}

/** PubChem names each SD file for the CIDs it holds: `Compound_000000001_000500000.sdf.gz`. */
const RANGE = /^Compound_(\d+)_(\d+)\.sdf(?:\.gz)?$/;

/**
 * Whether every file names its CID range as PubChem does and no two ranges share a CID: then no
 * record of one file can be a duplicate of another's, and the order files are written in does not
 * change what is stored.
 */
export function disjointFiles(paths: readonly string[]): boolean {
  const ranges: [number, number][] = [];
  for (const p of paths) {
    const m = RANGE.exec(basename(p));
    if (!m) return false;
    const first = Number(m[1]);
    const last = Number(m[2]);
    if (!(first <= last)) return false;
    ranges.push([first, last]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  return ranges.every((r, i) => i === 0 || r[0] > (ranges[i - 1] as [number, number])[1]);
}

/**
 * Batches of prepared records, from reading threads where the build has them. Files whose names
 * give disjoint CID ranges are written in whatever order their threads read them, each file's
 * records in order: every thread reads on at its own pace (300,000 records over two files on two
 * cores: 10.6–11.5 s, against 12.9–13.2 s one file after the other). Other files are written one
 * after the other, so that the first record of a CID wins a duplicate across files.
 */
export async function* sdfFileBatches(paths: readonly string[], bytes: ByteProgress, threads = readingThreads()): AsyncGenerator<{ path: string; batch: PreparedRecord[] }> {
  const script = threads > 0 ? workerPath() : undefined;
  if (!script) {
    for (const path of paths) for await (const batch of preparedBatches(path, BATCH, (n) => bytes.add(n))) yield { path, batch };
    return;
  }
  const anyOrder = disjointFiles(paths);
  const running: FileThread[] = [];
  // The batch each running thread is being asked for (in any order: all of them; else the first's).
  const asked = new Map<FileThread, Promise<{ t: FileThread; batch: PreparedRecord[] | undefined }>>();
  const ask = (t: FileThread) => {
    const p = t.next(bytes).then((batch) => ({ t, batch }));
    // Its failure surfaces when it is raced below; until then it must not count as unhandled.
    p.catch(() => undefined);
    asked.set(t, p);
  };
  let next = 0;
  const fill = () => {
    while (running.length < threads && next < paths.length) {
      const t = new FileThread(paths[next++] as string, script);
      running.push(t);
      if (anyOrder) ask(t);
    }
  };
  try {
    fill();
    while (running.length) {
      if (!anyOrder) ask(running[0] as FileThread);
      const { t, batch } = await Promise.race(asked.values());
      asked.delete(t);
      if (batch) {
        if (anyOrder) ask(t);
        yield { path: t.path, batch };
        continue;
      }
      await t.stop();
      running.splice(running.indexOf(t), 1);
      fill();
    }
  } finally {
    await Promise.all(running.map((t) => t.stop()));
  }
}
