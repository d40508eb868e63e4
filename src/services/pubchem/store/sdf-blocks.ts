/**
 * SD texts of consecutive compounds stored together, compressed: a record averages 6–7 KB of text
 * that SQLite would write twice (its log, then the table), and writing them bound a load of
 * PubChem's files. A block holds up to BLOCK_RECORDS texts; a read decompresses its block (about
 * 0.1–0.3 ms) and cuts its record out.
 *
 * Layout before compression: a count n (uint32, little-endian), n byte lengths (uint32), then the
 * n texts in UTF-8, one after another.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

/** Texts a block holds: more compress better and cost more to read one record. */
export const BLOCK_RECORDS = 16;

// Brotli's fastest quality: about 15 µs a record on a reading thread, to about a fifth of the size.
// Told the input's size, it sets up a smaller window (measured 15 % faster on 16 PubChem records).
const params = (size: number) => ({ params: { [constants.BROTLI_PARAM_QUALITY]: 0, [constants.BROTLI_PARAM_SIZE_HINT]: size } });

/** The block of `texts` (strings, or their UTF-8 bytes as read), compressed. */
export function packTexts(texts: readonly (string | Uint8Array)[]): Uint8Array {
  const parts = texts.map((t) => (typeof t === 'string' ? Buffer.from(t, 'utf8') : t));
  const head = Buffer.alloc(4 * (parts.length + 1));
  head.writeUInt32LE(parts.length, 0);
  parts.forEach((p, i) => head.writeUInt32LE(p.length, 4 * (i + 1)));
  const raw = Buffer.concat([head, ...parts]);
  const packed = brotliCompressSync(raw, params(raw.length));
  // A block holding its memory alone can be moved between threads (ingest/sdf-batch.ts); a small
  // output may be a view of zlib's larger chunk.
  if (packed.byteOffset === 0 && packed.byteLength === packed.buffer.byteLength) return new Uint8Array(packed.buffer);
  return new Uint8Array(packed);
}

/** The texts of a stored block, or a reason when it cannot be read. */
export function unpackTexts(block: Uint8Array): string[] | string {
  let raw: Buffer;
  try {
    raw = brotliDecompressSync(block);
  } catch (err) {
    return `a stored SD block cannot be decompressed (${(err as Error).message})`;
  }
  if (raw.length < 4) return 'a stored SD block is empty';
  const n = raw.readUInt32LE(0);
  if (n > BLOCK_RECORDS * 64 || raw.length < 4 * (n + 1)) return 'a stored SD block has a broken header';
  const out: string[] = [];
  let at = 4 * (n + 1);
  for (let i = 0; i < n; i++) {
    const len = raw.readUInt32LE(4 * (i + 1));
    if (at + len > raw.length) return 'a stored SD block is shorter than its header says';
    out.push(raw.toString('utf8', at, at + len));
    at += len;
  }
  return out;
}
