/**
 * The key file: PubChem's 881-bit substructure keys of every compound, laid out for scanning.
 *
 *   header (HEADER_BYTES, little-endian):
 *     0  magic "BMPCKEYS"          8  u32 version            12 u32 key bytes (112)
 *     16 u64 record count         24 u64 keys offset         32 u64 CIDs offset
 *     40 u32 bands (882)          44 u32 CRC-32 of the header with this field zero
 *     48 u64 cells offset         56 u32 cell count          60 u32 CRC-32 of the cells
 *     64 u16 × 2 segment cuts (263, 460)                      68 u32 reserved (0)
 *     72 u64 × 883: first record of each popcount 0..881, then the record count
 *   keys:  count × 112 bytes (the 111 key bytes, one zero byte)
 *   CIDs:  count × u32, in the same order
 *   cells: cell count × 16 bytes {u16 popcount, u16 s1, u16 s2, u16 0, u64 first record}
 *
 * Records are ordered by popcount, then by their segment popcounts (s1: bits 0-262, PubChem's
 * sections 1-2, element counts and rings; s2: bits 263-459, sections 3-5, atom pairs and
 * neighbourhoods; the rest, sections 6-7, SMARTS patterns, follows), then by CID. A cell is one
 * (popcount, s1, s2) run. The band offsets give the Tanimoto popcount bound (a query reads only
 * the popcounts that can reach its threshold); the cells a tighter one within a band, since
 * |a∧q| ≤ Σ min(|a_j|, |q_j|) over the segments, checked per cell before any record is read.
 * Keys and CIDs are apart so that a scan reads 112 bytes a record and CIDs only where it hits.
 */
import { crc32 } from 'node:zlib';

export const KEY_BITS = 881;
/** PubChem's key bytes (881 bits rounded up). */
export const RAW_KEY_BYTES = 111;
/** Padded to whole 64-bit words for the kernels. */
export const KEY_BYTES = 112;
export const KEY_WORDS64 = KEY_BYTES / 8;
/** Popcounts 0..881. */
export const BANDS = KEY_BITS + 1;
export const MAGIC = 'BMPCKEYS';
export const VERSION = 1;
export const HEADER_BYTES = 8192;
export const CELL_BYTES = 16;
/** Where segments 2 and 3 start (bits): PubChem's sections 1-2 | 3-5 | 6-7. */
export const SEGMENT_CUTS = [263, 460] as const;
const CRC_AT = 44;
const STARTS_AT = 72;

export class KeyFileError extends Error {
  override readonly name = 'KeyFileError';
}

export interface KeyFileHeader {
  count: number;
  keysOffset: number;
  cidsOffset: number;
  cellsOffset: number;
  cellCount: number;
  cellsCrc: number;
  /** starts[p]: index of the first record with popcount p; starts[BANDS] = count. */
  starts: Float64Array;
}

/** The file's size its header implies. */
export const fileBytes = (h: KeyFileHeader) => h.cellsOffset + h.cellCount * CELL_BYTES;

export function layoutFor(starts: Float64Array, cellCount: number, cellsCrc: number): KeyFileHeader {
  const count = starts[BANDS] as number;
  const cidsOffset = HEADER_BYTES + count * KEY_BYTES;
  return { count, keysOffset: HEADER_BYTES, cidsOffset, cellsOffset: cidsOffset + count * 4, cellCount, cellsCrc, starts };
}

export function encodeHeader(h: KeyFileHeader): Buffer {
  const b = Buffer.alloc(HEADER_BYTES);
  b.write(MAGIC, 0, 'latin1');
  b.writeUInt32LE(VERSION, 8);
  b.writeUInt32LE(KEY_BYTES, 12);
  b.writeBigUInt64LE(BigInt(h.count), 16);
  b.writeBigUInt64LE(BigInt(h.keysOffset), 24);
  b.writeBigUInt64LE(BigInt(h.cidsOffset), 32);
  b.writeUInt32LE(BANDS, 40);
  b.writeBigUInt64LE(BigInt(h.cellsOffset), 48);
  b.writeUInt32LE(h.cellCount, 56);
  b.writeUInt32LE(h.cellsCrc, 60);
  b.writeUInt16LE(SEGMENT_CUTS[0], 64);
  b.writeUInt16LE(SEGMENT_CUTS[1], 66);
  for (let p = 0; p <= BANDS; p++) b.writeBigUInt64LE(BigInt(h.starts[p] as number), STARTS_AT + p * 8);
  b.writeUInt32LE(crc32(b), CRC_AT);
  return b;
}

const refuse = (path: string, why: string) => new KeyFileError(`${path} is not a usable key file: ${why}`);

/** Reads and checks a header; `size` is the file's size. Throws KeyFileError on anything amiss. */
export function decodeHeader(b: Buffer, size: number, path: string): KeyFileHeader {
  const bad = (why: string) => refuse(path, why);
  if (b.length < HEADER_BYTES || size < HEADER_BYTES) throw bad(`shorter than its header (${size} bytes)`);
  if (b.toString('latin1', 0, 8) !== MAGIC) throw bad('wrong magic');
  const version = b.readUInt32LE(8);
  if (version !== VERSION) throw bad(`version ${version}, this build reads ${VERSION}`);
  if (b.readUInt32LE(12) !== KEY_BYTES || b.readUInt32LE(40) !== BANDS) throw bad('unexpected key size or band count');
  const copy = Buffer.from(b.subarray(0, HEADER_BYTES));
  copy.writeUInt32LE(0, CRC_AT);
  if (crc32(copy) !== b.readUInt32LE(CRC_AT)) throw bad('header checksum mismatch');
  if (b.readUInt16LE(64) !== SEGMENT_CUTS[0] || b.readUInt16LE(66) !== SEGMENT_CUTS[1]) throw bad('segments cut where this build does not');
  const num = (at: number) => {
    const v = b.readBigUInt64LE(at);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw bad('offset out of range');
    return Number(v);
  };
  const starts = new Float64Array(BANDS + 1);
  for (let p = 0; p <= BANDS; p++) starts[p] = num(STARTS_AT + p * 8);
  const h: KeyFileHeader = { count: num(16), keysOffset: num(24), cidsOffset: num(32), cellsOffset: num(48), cellCount: b.readUInt32LE(56), cellsCrc: b.readUInt32LE(60), starts };
  if (starts[0] !== 0 || starts[BANDS] !== h.count) throw bad('band offsets do not span the records');
  for (let p = 0; p < BANDS; p++) if ((starts[p + 1] as number) < (starts[p] as number)) throw bad(`band ${p} ends before it starts`);
  const want = layoutFor(starts, h.cellCount, h.cellsCrc);
  if (h.keysOffset !== want.keysOffset || h.cidsOffset !== want.cidsOffset || h.cellsOffset !== want.cellsOffset) throw bad('section offsets inconsistent');
  if (size !== fileBytes(h)) throw bad(`${size} bytes where the header implies ${fileBytes(h)} (truncated or extended)`);
  return h;
}

/** The cell directory, checked against its checksum and the bands. */
export interface Cells {
  /** Per cell: popcount, s1, s2, first record (the next cell's first record ends it). */
  p: Uint16Array;
  s1: Uint16Array;
  s2: Uint16Array;
  start: Float64Array;
  /** bandCell[p]: the first cell of band p; bandCell[BANDS] = cell count. */
  bandCell: Uint32Array;
}

export function decodeCells(b: Buffer, h: KeyFileHeader, path: string): Cells {
  if (crc32(b) !== h.cellsCrc) throw refuse(path, 'cell directory checksum mismatch');
  const n = h.cellCount;
  const c: Cells = { p: new Uint16Array(n), s1: new Uint16Array(n), s2: new Uint16Array(n), start: new Float64Array(n + 1), bandCell: new Uint32Array(BANDS + 1) };
  let band = 0;
  for (let i = 0; i < n; i++) {
    const o = i * CELL_BYTES;
    const p = b.readUInt16LE(o);
    const s1 = b.readUInt16LE(o + 2);
    const s2 = b.readUInt16LE(o + 4);
    const start = Number(b.readBigUInt64LE(o + 8));
    const prev = i - 1;
    const ordered = i === 0 || p > (c.p[prev] as number) || (p === c.p[prev] && (s1 > (c.s1[prev] as number) || (s1 === c.s1[prev] && s2 > (c.s2[prev] as number))));
    if (!ordered || s1 + s2 > p || start >= h.count || (i > 0 && start <= (c.start[prev] as number))) throw refuse(path, `cell ${i} out of order`);
    while (band < p) c.bandCell[++band] = i;
    if (p !== band || (i === c.bandCell[p] && start !== h.starts[p])) throw refuse(path, `cell ${i} does not start its band`);
    c.p[i] = p;
    c.s1[i] = s1;
    c.s2[i] = s2;
    c.start[i] = start;
  }
  while (band < BANDS) c.bandCell[++band] = n;
  c.start[n] = h.count;
  // Every non-empty band has cells; every empty one none.
  for (let p = 0; p < BANDS; p++) {
    if ((h.starts[p + 1] as number) > (h.starts[p] as number) !== (c.bandCell[p + 1] as number) > (c.bandCell[p] as number)) throw refuse(path, `band ${p} and its cells disagree`);
  }
  return c;
}

export function encodeCell(b: Buffer, i: number, p: number, s1: number, s2: number, start: number): void {
  const o = i * CELL_BYTES;
  b.writeUInt16LE(p, o);
  b.writeUInt16LE(s1, o + 2);
  b.writeUInt16LE(s2, o + 4);
  b.writeUInt16LE(0, o + 6);
  b.writeBigUInt64LE(BigInt(start), o + 8);
}

const PC8 = Uint8Array.from({ length: 256 }, (_, x) => {
  let n = 0;
  for (; x; x &= x - 1) n++;
  return n;
});

export function popcountBytes(b: Uint8Array, from = 0, length = b.length): number {
  let n = 0;
  for (let i = from; i < from + length; i++) n += PC8[b[i] as number] as number;
  return n;
}

/** Bits [from, to) of keys at `off` (bit k is the (7 - k % 8)-th bit of byte k >> 3, as PubChem's). */
function popcountBits(b: Uint8Array, off: number, from: number, to: number): number {
  const first = from >> 3;
  const last = (to - 1) >> 3;
  let n = 0;
  for (let i = first; i <= last; i++) {
    let x = b[off + i] as number;
    if (i === first) x &= 0xff >> (from & 7);
    if (i === last) x &= (0xff << (7 - ((to - 1) & 7))) & 0xff;
    n += PC8[x] as number;
  }
  return n;
}

/** The first two segment popcounts (the third is the popcount less both). */
export function segmentsOf(b: Uint8Array, off = 0): [number, number] {
  return [popcountBits(b, off, 0, SEGMENT_CUTS[0]), popcountBits(b, off, SEGMENT_CUTS[0], SEGMENT_CUTS[1])];
}
