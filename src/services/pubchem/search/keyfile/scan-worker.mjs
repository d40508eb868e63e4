// @ts-check
/* global WebAssembly */
/**
 * A scan thread of the key file searcher (searcher.ts). Plain JavaScript so that Node starts it
 * both from the source tree (tests) and beside the build; the kernel it runs is compiled from
 * kernel.ts by the searcher and handed over in workerData.
 *
 * Chunks of records are read with positioned reads straight into the WebAssembly memory the kernel
 * scans (no copy beyond the kernel's own from the page cache). Threads take chunks from a shared
 * counter (Atomics), so a fast thread takes more; a shared stop flag ends a screen once it has
 * enough candidates, or a search past its deadline, between chunks.
 *
 * workerData: {fd, module, layout: {query, out, buf, chunkRecords}, keysOffset, cidsOffset, kernel: 'wasm'|'js'|'none'}
 * ('none' reads and scans nothing: the cost of the reads alone, for measurement)
 * {id, op: 'sim', query, qc, tasks: Float64Array [start, n, cmin, popcount]..., ctrl, maxRecords}
 *   -> {id, cids: Uint32Array, scores: Float64Array, records}
 * {id, op: 'screen', query, tasks: Float64Array [start, n]..., ctrl, limit}
 *   -> {id, chunks: Uint32Array, counts: Uint32Array, cids: Uint32Array, records}
 * {id, op: 'super', query, ...as screen}: records holding none of the query's bits (the query is
 *   the keys that rule a compound out of a superstructure search), in JavaScript
 * ctrl (Int32Array over a SharedArrayBuffer): [next task, stop (1 enough, 2 deadline), hits so far].
 */
import { Buffer } from 'node:buffer';
import { readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const KEY_BYTES = 112;
const WORDS = KEY_BYTES / 4;
const NEXT = 0;
const STOP = 1;
const HITS = 2;

const { fd, module, layout, keysOffset, cidsOffset, kernel } = workerData;
const memory = new WebAssembly.Memory({ initial: layout.pages, maximum: layout.pages });
const exports = /** @type {{ sim: Function, screen: Function }} */ (/** @type {unknown} */ (new WebAssembly.Instance(module, { env: { memory } }).exports));
const bytes = Buffer.from(memory.buffer);
const u32 = new Uint32Array(memory.buffer);
const i32 = new Int32Array(memory.buffer);
const cidBuf = Buffer.alloc(layout.chunkRecords * 4);

/** Reads exactly `length` bytes; a short file is corruption (the header promised more). */
function readFully(buf, offset, length, position) {
  while (length > 0) {
    const n = readSync(fd, buf, offset, length, position);
    if (n === 0) throw new Error('the key file is shorter than its header says (truncated while open?)');
    offset += n;
    length -= n;
    position += n;
  }
}

function popcount32(x) {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** The plain JavaScript kernels, kept to measure the WebAssembly ones against (same output). */
function jsSim(n, cmin) {
  const q = layout.query >> 2;
  let k = 0;
  for (let i = 0, r = layout.buf >> 2; i < n; i++, r += WORDS) {
    let c = 0;
    for (let w = 0; w < WORDS; w++) c += popcount32(i32[q + w] & i32[r + w]);
    if (c >= cmin) {
      u32[(layout.out >> 2) + 2 * k] = i;
      u32[(layout.out >> 2) + 2 * k + 1] = c;
      k++;
    }
  }
  return k;
}

function jsScreen(n, limit) {
  const q = layout.query >> 2;
  let k = 0;
  for (let i = 0, r = layout.buf >> 2; i < n && k < limit; i++, r += WORDS) {
    let missing = 0;
    for (let w = 0; w < WORDS; w++) missing |= i32[q + w] & ~i32[r + w];
    if (missing === 0) u32[(layout.out >> 2) + k++] = i;
  }
  return k;
}

/** Records with none of the query's bits (superstructure candidates); rare enough to need no kernel. */
function jsNone(n, limit) {
  const q = layout.query >> 2;
  let k = 0;
  for (let i = 0, r = layout.buf >> 2; i < n && k < limit; i++, r += WORDS) {
    let bad = 0;
    for (let w = 0; w < WORDS; w++) bad |= i32[q + w] & i32[r + w];
    if (bad === 0) u32[(layout.out >> 2) + k++] = i;
  }
  return k;
}

/** The CIDs of records `first`..`last` of a chunk starting at record `start`, into cidBuf. */
function readCids(start, first, last) {
  readFully(cidBuf, 0, (last - first + 1) * 4, cidsOffset + (start + first) * 4);
}

/** Smallest shared-bit count that gives a score >= t for popcount p (the same division as scores). */
function cminFor(p, qc, t) {
  for (let c = Math.max(0, Math.floor((t * (p + qc)) / (1 + t)) - 2); c <= Math.min(p, qc); c++) if (c / (p + qc - c) >= t) return c;
  return 0x7fffffff;
}

function sim(m) {
  bytes.set(m.query, layout.query);
  const { tasks, ctrl, qc, maxRecords } = m;
  const total = tasks.length / 4;
  let cids = [];
  let scores = [];
  let records = 0;
  // With maxRecords, this thread keeps at most about twice that many hits: past it, the worst are
  // dropped and later chunks need at least the score of the last kept one (ties kept: CIDs break them).
  let floor = 0;
  /** @type {Map<number, number>} */
  const floorCmin = new Map();
  for (;;) {
    if (Atomics.load(ctrl, STOP) !== 0) break;
    const t = Atomics.add(ctrl, NEXT, 1);
    if (t >= total) break;
    const start = tasks[4 * t];
    const n = tasks[4 * t + 1];
    const p = tasks[4 * t + 3];
    let cmin = tasks[4 * t + 2];
    if (floor > 0) {
      let f = floorCmin.get(p);
      if (f === undefined) floorCmin.set(p, (f = cminFor(p, qc, floor)));
      cmin = Math.max(cmin, f);
    }
    readFully(bytes, layout.buf, n * KEY_BYTES, keysOffset + start * KEY_BYTES);
    records += n;
    const hits = kernel === 'wasm' ? exports.sim(layout.buf, n, cmin, layout.out) : kernel === 'js' ? jsSim(n, cmin) : 0;
    if (hits === 0) continue;
    const out = layout.out >> 2;
    const first = u32[out];
    readCids(start, first, u32[out + 2 * (hits - 1)]);
    for (let k = 0; k < hits; k++) {
      const c = u32[out + 2 * k + 1];
      cids.push(cidBuf.readUInt32LE((u32[out + 2 * k] - first) * 4));
      scores.push(c / (p + qc - c));
    }
    if (maxRecords > 0 && cids.length >= 2 * maxRecords) {
      const order = cids
        .map((_, i) => i)
        .sort((a, b) => scores[b] - scores[a] || cids[a] - cids[b])
        .slice(0, maxRecords);
      cids = order.map((i) => cids[i]);
      scores = order.map((i) => scores[i]);
      floor = scores[scores.length - 1];
      floorCmin.clear();
    }
  }
  return { cids: Uint32Array.from(cids), scores: Float64Array.from(scores), records };
}

function screen(m) {
  bytes.set(m.query, layout.query);
  const { tasks, ctrl, limit } = m;
  const total = tasks.length / 2;
  const chunks = [];
  const counts = [];
  const cids = [];
  let records = 0;
  for (;;) {
    if (Atomics.load(ctrl, STOP) !== 0) break;
    const t = Atomics.add(ctrl, NEXT, 1);
    if (t >= total) break;
    const start = tasks[2 * t];
    const n = tasks[2 * t + 1];
    readFully(bytes, layout.buf, n * KEY_BYTES, keysOffset + start * KEY_BYTES);
    records += n;
    // Each chunk keeps up to `limit` hits: the answer is the first `limit` in chunk order.
    const hits = m.op === 'super' ? jsNone(n, limit) : kernel === 'wasm' ? exports.screen(layout.buf, n, layout.out, limit) : kernel === 'js' ? jsScreen(n, limit) : 0;
    if (hits === 0) continue;
    const out = layout.out >> 2;
    const first = u32[out];
    readCids(start, first, u32[out + hits - 1]);
    for (let k = 0; k < hits; k++) cids.push(cidBuf.readUInt32LE((u32[out + k] - first) * 4));
    chunks.push(t);
    counts.push(hits);
    // Every chunk handed out before this one is finished by its thread, so once the hits reach the
    // limit no later chunk can change the answer.
    if (Atomics.add(ctrl, HITS, hits) + hits >= limit) Atomics.compareExchange(ctrl, STOP, 0, 1);
  }
  return { chunks: Uint32Array.from(chunks), counts: Uint32Array.from(counts), cids: Uint32Array.from(cids), records };
}

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
port.on('message', (m) => {
  try {
    const r = m.op === 'sim' ? sim(m) : screen(m);
    port.postMessage(
      { id: m.id, ...r },
      Object.values(r).flatMap((v) => (ArrayBuffer.isView(v) ? [v.buffer] : [])),
    );
  } catch (err) {
    port.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) });
  }
});
// The kernel is instantiated above: the pool may hand this thread its scans.
port.postMessage({ ready: true });
