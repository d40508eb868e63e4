/**
 * The scan kernels, emitted as WebAssembly (wasm.ts). i64.popcnt compiles to the CPU's POPCNT, so
 * a record's 14 words cost 14 loads, ANDs and POPCNTs, where plain JavaScript needs a 12-operation
 * bit trick on each of 28 32-bit words (docs/performance.md has both measured).
 *
 * The kernels read one chunk of records laid out as in the key file (KEY_BYTES each), straight
 * from the memory the chunk was read into; the query sits at the start of that memory.
 */
import { KEY_BYTES, KEY_WORDS64 } from './format.js';
import { encodeModule, mem, op, sleb, type, type Func } from './wasm.js';

/** Where things sit in a kernel's memory (byte offsets). */
export interface KernelLayout {
  /** The query's padded keys (KEY_BYTES). */
  query: number;
  /** Hits written by the kernels: 8 bytes each ({index, common}) for `sim`, 4 for `screen`. */
  out: number;
  /** The chunk of records read from the file. */
  buf: number;
  /** Records one chunk holds. */
  chunkRecords: number;
  /** Memory size in 64 KiB pages. */
  pages: number;
}

export function kernelLayout(chunkRecords: number): KernelLayout {
  const out = 128;
  const buf = out + chunkRecords * 8;
  const bytes = buf + chunkRecords * KEY_BYTES;
  return { query: 0, out, buf, chunkRecords, pages: Math.ceil(bytes / 65536) };
}

// Local indexes stay below 128, so each is one LEB128 byte.
const get = (i: number) => [op.localGet, i];
const set = (i: number) => [op.localSet, i];
const i32 = (n: number) => [op.i32Const, ...sleb(n)];

/** `term(w)` for each word, combined pairwise (a balanced tree: shorter dependency chains). */
function tree(from: number, to: number, term: (w: number) => number[], combine: number): number[] {
  if (to - from === 1) return term(from);
  const mid = (from + to) >> 1;
  return [...tree(from, mid, term, combine), ...tree(mid, to, term, combine), combine];
}

/** Loads the query's words into locals `first`.. (they stay in registers for the whole chunk). */
function loadQuery(first: number): number[] {
  const out: number[] = [];
  for (let w = 0; w < KEY_WORDS64; w++) out.push(...i32(0), op.i64Load, ...mem(3, w * 8), ...set(first + w));
  return out;
}

/**
 * sim(rec, n, cmin, out) -> hits: for each of `n` records from `rec`, the number of bits it shares
 * with the query (c); records with c >= cmin are written to `out` as {index: u32, c: u32}. Every
 * record of a band has the same popcount, so the caller turns the Tanimoto threshold into cmin.
 */
function simFunc(): Func {
  const [rec, n, cmin, out, i, k, end, c, q0] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  const common = tree(0, KEY_WORDS64, (w) => [...get(q0 + w), ...get(rec), op.i64Load, ...mem(3, w * 8), op.i64And, op.i64Popcnt], op.i64Add);
  return {
    name: 'sim',
    params: [type.i32, type.i32, type.i32, type.i32],
    results: [type.i32],
    locals: [type.i32, type.i32, type.i32, type.i32, ...Array<typeof type.i64>(KEY_WORDS64).fill(type.i64)],
    body: [
      ...loadQuery(q0),
      ...get(rec),
      ...get(n),
      ...i32(KEY_BYTES),
      op.i32Mul,
      op.i32Add,
      ...set(end),
      op.block,
      type.void,
      op.loop,
      type.void,
      ...get(rec),
      ...get(end),
      op.i32GeU,
      op.brIf,
      1,
      ...common,
      op.i32WrapI64,
      op.localTee,
      c,
      ...get(cmin),
      op.i32GeU,
      op.if,
      type.void,
      ...get(out),
      ...get(k),
      ...i32(8),
      op.i32Mul,
      op.i32Add,
      ...get(i),
      op.i32Store,
      ...mem(2, 0),
      ...get(out),
      ...get(k),
      ...i32(8),
      op.i32Mul,
      op.i32Add,
      ...get(c),
      op.i32Store,
      ...mem(2, 4),
      ...get(k),
      ...i32(1),
      op.i32Add,
      ...set(k),
      op.end,
      ...get(rec),
      ...i32(KEY_BYTES),
      op.i32Add,
      ...set(rec),
      ...get(i),
      ...i32(1),
      op.i32Add,
      ...set(i),
      op.br,
      0,
      op.end,
      op.end,
      ...get(k),
    ],
  };
}

/**
 * screen(rec, n, out, limit) -> hits: indexes of the records that have every query bit set
 * (q & ~r == 0 in each word), written to `out` as u32, stopping after `limit`.
 */
function screenFunc(): Func {
  const [rec, n, out, limit, i, k, end, q0] = [0, 1, 2, 3, 4, 5, 6, 7];
  // q & ~r, as q & (r ^ -1), OR-ed over the words: zero when every query bit is present.
  const missing = tree(0, KEY_WORDS64, (w) => [...get(q0 + w), ...get(rec), op.i64Load, ...mem(3, w * 8), op.i64Const, 0x7f, op.i64Xor, op.i64And], op.i64Or);
  return {
    name: 'screen',
    params: [type.i32, type.i32, type.i32, type.i32],
    results: [type.i32],
    locals: [type.i32, type.i32, type.i32, ...Array<typeof type.i64>(KEY_WORDS64).fill(type.i64)],
    body: [
      ...loadQuery(q0),
      ...get(rec),
      ...get(n),
      ...i32(KEY_BYTES),
      op.i32Mul,
      op.i32Add,
      ...set(end),
      op.block,
      type.void,
      op.loop,
      type.void,
      ...get(rec),
      ...get(end),
      op.i32GeU,
      op.brIf,
      1,
      ...get(k),
      ...get(limit),
      op.i32GeU,
      op.brIf,
      1,
      ...missing,
      op.i64Eqz,
      op.if,
      type.void,
      ...get(out),
      ...get(k),
      ...i32(4),
      op.i32Mul,
      op.i32Add,
      ...get(i),
      op.i32Store,
      ...mem(2, 0),
      ...get(k),
      ...i32(1),
      op.i32Add,
      ...set(k),
      op.end,
      ...get(rec),
      ...i32(KEY_BYTES),
      op.i32Add,
      ...set(rec),
      ...get(i),
      ...i32(1),
      op.i32Add,
      ...set(i),
      op.br,
      0,
      op.end,
      op.end,
      ...get(k),
    ],
  };
}

/** The kernel module's bytes, for a memory of `pages` 64 KiB pages. */
export function kernelBytes(pages: number): Uint8Array<ArrayBuffer> {
  return encodeModule([simFunc(), screenFunc()], pages);
}

/** A compiled kernel module; it can be posted to worker threads, which instantiate it. */
export type KernelModule = object;
// The project's lib has no DOM types, hence WebAssembly's constructor typed by hand.
const wasmApi = (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array<ArrayBuffer>) => KernelModule } }).WebAssembly;

/** Compiles the kernel (synchronously: a few hundred bytes). */
export function compileKernel(layout: KernelLayout): KernelModule {
  return new wasmApi.Module(kernelBytes(layout.pages));
}
