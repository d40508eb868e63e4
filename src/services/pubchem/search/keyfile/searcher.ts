/**
 * Similarity (Tanimoto) and substructure screening over a key file (format.ts), in worker threads.
 *
 * 120 million compounds' keys are 13.4 GB: they stay in the OS page cache, never in this process.
 * Node has no mmap, so threads read chunks with positioned reads straight into the WebAssembly
 * memory their kernel scans (scan-worker.mjs, kernel.ts); resident memory is a few MB a thread,
 * plus the cell directory (16 bytes a cell; a few hundred thousand cells).
 *
 * Similarity reads only records that can reach the threshold: the popcount bands with
 * t·|q| ≤ |a| ≤ |q|/t, and within them the cells whose segment bound Σ min(|a_j|, |q_j|) reaches
 * cmin, the fewest shared bits that give a score ≥ t in that band (computed once per band, so the
 * kernel compares integers). The screen reads popcounts ≥ |q| and cells whose every segment holds
 * at least the query's bits there. Queries run one at a time, each over every thread: with 2
 * cores that finishes each query soonest.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { SearchTimeout } from '../../../../core/chem/deadline.js';
import { BANDS, CELL_BYTES, HEADER_BYTES, KEY_BYTES, KeyFileError, RAW_KEY_BYTES, decodeCells, decodeHeader, popcountBytes, segmentsOf, type Cells, type KeyFileHeader } from './format.js';
import { compileKernel, kernelLayout, type KernelLayout, type KernelModule } from './kernel.js';
import { sourceUrl } from '../../../../core/files/project.js';
import { WorkerPool } from '../../../../core/workers/pool.js';

// Plain JavaScript in the source tree, started from there by the build too (as match-worker.mjs).
const WORKER = sourceUrl('services/pubchem/search/keyfile/scan-worker.mjs');
const NEXT = 0;
const STOP = 1;
const NEVER = 0x7fffffff;
/** Records of a cell that fails its bound, between two that pass, read anyway (one read, not two). */
const GAP = 64;

export interface KeyHit {
  cid: number;
  score: number;
}

export interface KeySearcherOptions {
  /** Scan threads (default: the CPUs, at most 4). */
  threads?: number;
  /** Records per read (default 4,096: 448 KiB, which stays in a core's L2 cache for the kernel). */
  chunkRecords?: number;
  /** For measurement: 'js' runs the plain JavaScript kernel, 'none' only reads (finds nothing). */
  kernel?: 'wasm' | 'js' | 'none';
}

export interface ScanOptions {
  /** Epoch milliseconds; past it the scan stops and the call rejects with SearchTimeout. */
  deadline?: number;
  /**
   * Which records similarity reads: 'segments' (default) those whose cell can reach the threshold;
   * 'popcount' every record of the bands that can; 'none' every record (the baselines).
   */
  bound?: 'segments' | 'popcount' | 'none';
}

/** What the last call read, for benchmarks and logs. */
export interface ScanStats {
  records: number;
  bytes: number;
  chunks: number;
  ms: number;
}

interface Reply {
  id: number;
  error?: string;
  cids?: Uint32Array;
  scores?: Float64Array;
  chunks?: Uint32Array;
  counts?: Uint32Array;
  records?: number;
}

interface Query {
  query: Uint8Array;
  qc: number;
  /** Bits in each segment. */
  q1: number;
  q2: number;
  q3: number;
}

/** A query's padded keys (pad bits cleared), popcount and segment popcounts. */
function prepareQuery(keys: Uint8Array): Query {
  if (!(keys instanceof Uint8Array) || keys.length < RAW_KEY_BYTES) throw new RangeError(`query keys must be ${RAW_KEY_BYTES} bytes`);
  const query = new Uint8Array(KEY_BYTES);
  query.set(keys.subarray(0, RAW_KEY_BYTES));
  query[RAW_KEY_BYTES - 1] = (query[RAW_KEY_BYTES - 1] as number) & 0x80;
  const qc = popcountBytes(query);
  const [q1, q2] = segmentsOf(query);
  return { query, qc, q1, q2, q3: qc - q1 - q2 };
}

/**
 * Smallest number of shared bits c for which c / (p + qc - c) >= t, evaluated as the scores are
 * (so the answer equals a brute-force comparison of the scores), or NEVER.
 */
export function minCommon(p: number, qc: number, t: number): number {
  const top = Math.min(p, qc);
  for (let c = Math.max(0, Math.floor((t * (p + qc)) / (1 + t)) - 2); c <= top; c++) if (c / (p + qc - c) >= t) return c;
  return NEVER;
}

export class KeyFileSearcher {
  /**
   * Scan threads (core's worker pool, no deadlines: a scan stops between chunks by a shared flag).
   * A thread that died fails its scan and is started again by the next one.
   */
  private readonly pool: WorkerPool;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** What the last call read. */
  lastScan: ScanStats = { records: 0, bytes: 0, chunks: 0, ms: 0 };

  private constructor(
    readonly path: string,
    private readonly fd: number,
    readonly header: KeyFileHeader,
    private readonly cells: Cells,
    private readonly layout: KernelLayout,
    module: KernelModule,
    threads: number,
    kernel: 'wasm' | 'js' | 'none',
  ) {
    this.pool = new WorkerPool({
      script: WORKER,
      size: threads,
      workerOptions: { workerData: { fd, module, layout, keysOffset: header.keysOffset, cidsOffset: header.cidsOffset, kernel } },
      errors: {
        closed: () => new Error('the key file searcher is closed'),
        lost: (cause, how) => (how === 'exit' ? new Error(`a key scan ${cause.message.replace(/^the /, '')}`) : cause),
      },
    });
  }

  /** Opens a key file, refusing (KeyFileError) one that is truncated, extended or corrupt. */
  static open(path: string, opts: KeySearcherOptions = {}): KeyFileSearcher {
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      const head = Buffer.alloc(HEADER_BYTES);
      if (size >= HEADER_BYTES) readSync(fd, head, 0, HEADER_BYTES, 0);
      const header = decodeHeader(head, size, path);
      const dir = Buffer.alloc(header.cellCount * CELL_BYTES);
      if (readSync(fd, dir, 0, dir.length, header.cellsOffset) !== dir.length) throw new KeyFileError(`${path}: cell directory unreadable`);
      const cells = decodeCells(dir, header, path);
      spotCheck(fd, header, cells, path);
      const layout = kernelLayout(opts.chunkRecords ?? 4096);
      const threads = Math.max(1, opts.threads ?? Math.min(4, availableParallelism()));
      return new KeyFileSearcher(path, fd, header, cells, layout, compileKernel(layout), threads, opts.kernel ?? 'wasm');
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  get count(): number {
    return this.header.count;
  }

  /** Records per popcount 0..881. */
  bandSizes(): number[] {
    const s = this.header.starts;
    return Array.from({ length: BANDS }, (_, p) => (s[p + 1] as number) - (s[p] as number));
  }

  /** Runs one scan over every thread (scans run one at a time, in call order). */
  private run(op: 'sim' | 'screen' | 'super', msg: Record<string, unknown>, tasks: Float64Array, deadline: number | undefined): Promise<Reply[]> {
    const go = async (): Promise<Reply[]> => {
      if (this.closed) throw new Error('the key file searcher is closed');
      if (deadline !== undefined && Date.now() >= deadline) throw new SearchTimeout('the search ran past its time limit');
      const ctrl = new Int32Array(new SharedArrayBuffer(16));
      const t0 = performance.now();
      const timer = deadline === undefined ? undefined : setTimeout(() => Atomics.store(ctrl, STOP, 2), Math.max(0, deadline - Date.now()));
      try {
        // One task a thread: every thread is free when a scan starts (scans run one at a time).
        const settled = await Promise.allSettled(
          Array.from({ length: this.pool.size }, () =>
            this.pool.run<Reply>({ ...msg, op, tasks, ctrl }).then(
              (r) => {
                if (r.error) throw new KeyFileError(`${this.path}: ${r.error}`);
                return r;
              },
              (err: unknown) => {
                // The scan has failed: the other threads stop taking chunks.
                Atomics.compareExchange(ctrl, STOP, 0, 1);
                throw err;
              },
            ),
          ),
        );
        const failed = settled.find((r) => r.status === 'rejected');
        if (failed) throw failed.reason;
        const replies = settled.map((r) => (r as PromiseFulfilledResult<Reply>).value);
        if (Atomics.load(ctrl, STOP) === 2) throw new SearchTimeout('the search ran past its time limit');
        const records = replies.reduce((n, r) => n + (r.records ?? 0), 0);
        this.lastScan = { records, bytes: records * KEY_BYTES, chunks: Math.min(Atomics.load(ctrl, NEXT), tasks.length / (op === 'sim' ? 4 : 2)), ms: performance.now() - t0 };
        return replies;
      } finally {
        if (timer) clearTimeout(timer);
      }
    };
    const result = this.queue.then(go, go);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Chunk tasks over records [from, to): [start, n, ...extra] each. */
  private chunks(from: number, to: number, extra: number[], out: number[]): void {
    const size = this.layout.chunkRecords;
    for (let s = from; s < to; s += size) out.push(s, Math.min(size, to - s), ...extra);
  }

  /**
   * Tasks over the cells of band p that `pass`, runs of passing cells read as one (and across
   * failing runs of at most GAP records: the kernel decides on every record it reads anyway).
   */
  private cellTasks(p: number, pass: (s1: number, s2: number, s3: number) => boolean, extra: number[], out: number[]): void {
    const c = this.cells;
    let from = -1;
    let to = -1;
    for (let i = c.bandCell[p] as number; i < (c.bandCell[p + 1] as number); i++) {
      const s1 = c.s1[i] as number;
      const s2 = c.s2[i] as number;
      if (!pass(s1, s2, p - s1 - s2)) continue;
      const start = c.start[i] as number;
      if (from >= 0 && start - to <= GAP) to = c.start[i + 1] as number;
      else {
        if (from >= 0) this.chunks(from, to, extra, out);
        from = start;
        to = c.start[i + 1] as number;
      }
    }
    if (from >= 0) this.chunks(from, to, extra, out);
  }

  /**
   * Compounds whose Tanimoto to `queryKeys` is at least `threshold` (0 < t <= 1), best first, ties
   * by CID ascending; at most `maxRecords` when given. Empty query keys have no hits.
   */
  async similar(queryKeys: Uint8Array, threshold: number, maxRecords?: number, opts: ScanOptions = {}): Promise<KeyHit[]> {
    if (!(threshold > 0 && threshold <= 1)) throw new RangeError(`threshold ${threshold} is not in (0, 1]`);
    if (maxRecords !== undefined && !(Number.isInteger(maxRecords) && maxRecords >= 0)) throw new RangeError(`maxRecords ${maxRecords} is not a count`);
    const q = prepareQuery(queryKeys);
    const { query, qc, q1, q2, q3 } = q;
    if (qc === 0 || maxRecords === 0) return [];
    const s = this.header.starts;
    const bound = opts.bound ?? 'segments';
    const tasks: number[] = [];
    for (let p = 0; p < BANDS; p++) {
      const cmin = minCommon(p, qc, threshold);
      if (bound === 'none') this.chunks(s[p] as number, s[p + 1] as number, [cmin, p], tasks);
      else if (cmin === NEVER) continue;
      else if (bound === 'popcount') this.chunks(s[p] as number, s[p + 1] as number, [cmin, p], tasks);
      else this.cellTasks(p, (s1, s2, s3) => Math.min(s1, q1) + Math.min(s2, q2) + Math.min(s3, q3) >= cmin, [cmin, p], tasks);
    }
    const replies = await this.run('sim', { query, qc, maxRecords: maxRecords ?? 0 }, Float64Array.from(tasks), opts.deadline);
    const hits: KeyHit[] = [];
    for (const r of replies) {
      const cids = r.cids as Uint32Array;
      const scores = r.scores as Float64Array;
      for (let i = 0; i < cids.length; i++) hits.push({ cid: cids[i] as number, score: scores[i] as number });
    }
    hits.sort((a, b) => b.score - a.score || a.cid - b.cid);
    if (maxRecords !== undefined && hits.length > maxRecords) hits.length = maxRecords;
    return hits;
  }

  /**
   * Candidates of a substructure search: CIDs whose keys have every bit of `queryKeys` set, the
   * first `limit` in scan order (see spread). Only popcounts >= the query's, and cells with room
   * for its bits, are read.
   */
  async screen(queryKeys: Uint8Array, limit: number, opts: Pick<ScanOptions, 'deadline'> = {}): Promise<number[]> {
    if (!(Number.isInteger(limit) && limit >= 0)) throw new RangeError(`limit ${limit} is not a count`);
    const { query, qc, q1, q2, q3 } = prepareQuery(queryKeys);
    if (limit === 0) return [];
    const bands: number[][] = [];
    for (let p = qc; p < BANDS; p++) {
      const own: number[] = [];
      this.cellTasks(p, (s1, s2, s3) => s1 >= q1 && s2 >= q2 && s3 >= q3, [], own);
      if (own.length) bands.push(own);
    }
    return this.inTaskOrder(await this.run('screen', { query, limit }, Float64Array.from(spread(bands)), opts.deadline), limit);
  }

  /**
   * Candidates of a superstructure search: CIDs whose keys hold none of the bits of `forbidden`
   * (the keys that rule a compound out), the first `limit` in file order. Every record is read.
   */
  async none(forbidden: Uint8Array, limit: number, opts: Pick<ScanOptions, 'deadline'> = {}): Promise<number[]> {
    if (!(Number.isInteger(limit) && limit >= 0)) throw new RangeError(`limit ${limit} is not a count`);
    const { query } = prepareQuery(forbidden);
    if (limit === 0) return [];
    const tasks: number[] = [];
    this.chunks(0, this.header.count, [], tasks);
    return this.inTaskOrder(await this.run('super', { query, limit }, Float64Array.from(tasks), opts.deadline), limit);
  }

  /** The threads' chunks back in task order, then the first `limit` CIDs. */
  private inTaskOrder(replies: Reply[], limit: number): number[] {
    const parts: { chunk: number; cids: Uint32Array }[] = [];
    for (const r of replies) {
      let at = 0;
      const chunks = r.chunks as Uint32Array;
      const counts = r.counts as Uint32Array;
      for (let i = 0; i < chunks.length; i++) {
        parts.push({ chunk: chunks[i] as number, cids: (r.cids as Uint32Array).subarray(at, at + (counts[i] as number)) });
        at += counts[i] as number;
      }
    }
    parts.sort((a, b) => a.chunk - b.chunk);
    const out: number[] = [];
    for (const p of parts) {
      for (const cid of p.cids) {
        if (out.length === limit) return out;
        out.push(cid);
      }
    }
    return out;
  }

  /** Ends the threads, then closes the file (reads in flight would otherwise hit a closed fd). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.close();
    closeSync(this.fd);
  }
}

/**
 * The chunk tasks of every band ([start, n] each), in one scan order that takes every band in
 * proportion: each task by how far through its own band's records it starts (its middle), ties by
 * position in the file. A substructure search answers the first matches it finds; reading the
 * bands one after the other, smallest compounds first, its candidates came from a slice of small
 * molecules that narrows as the archive grows, where few hold a common fragment beside its keys
 * (benzoic acid, first 2,000 of a million generated compounds: 799 ms in file order, 182 ms
 * spread; docs/performance.md).
 */
export function spread(bands: readonly (readonly number[])[]): number[] {
  const all: { at: number; start: number; n: number }[] = [];
  for (const own of bands) {
    let total = 0;
    for (let i = 1; i < own.length; i += 2) total += own[i] as number;
    let seen = 0;
    for (let i = 0; i < own.length; i += 2) {
      const n = own[i + 1] as number;
      all.push({ at: (seen + n / 2) / total, start: own[i] as number, n });
      seen += n;
    }
  }
  all.sort((a, b) => a.at - b.at || a.start - b.start);
  const out: number[] = [];
  for (const t of all) out.push(t.start, t.n);
  return out;
}

/**
 * The first and last record of every band, and the first of up to 1,024 cells spread over the
 * file, must have their band's popcount, their cell's segment popcounts and zero pad bits.
 */
function spotCheck(fd: number, h: KeyFileHeader, c: Cells, path: string): void {
  const rec = Buffer.alloc(KEY_BYTES);
  const check = (i: number, p: number, cell: number | undefined) => {
    if (readSync(fd, rec, 0, KEY_BYTES, h.keysOffset + i * KEY_BYTES) !== KEY_BYTES) throw new KeyFileError(`${path}: record ${i} unreadable`);
    const got = popcountBytes(rec);
    const [s1, s2] = segmentsOf(rec);
    const cellOk = cell === undefined || (s1 === c.s1[cell] && s2 === c.s2[cell]);
    if (got !== p || !cellOk || rec[KEY_BYTES - 1] !== 0 || ((rec[RAW_KEY_BYTES - 1] as number) & 0x7f) !== 0) {
      throw new KeyFileError(`${path} is not a usable key file: record ${i} does not belong where it is (popcount ${got} in band ${p}; corrupt)`);
    }
  };
  for (let p = 0; p < BANDS; p++) {
    const from = h.starts[p] as number;
    const to = h.starts[p + 1] as number;
    if (from < to) {
      check(from, p, c.bandCell[p]);
      check(to - 1, p, undefined);
    }
  }
  const step = Math.max(1, Math.floor(h.cellCount / 1024));
  for (let i = 0; i < h.cellCount; i += step) check(c.start[i] as number, c.p[i] as number, i);
}
