/**
 * Builds a key file (format.ts) from a stream of (CID, keys) of any length without holding it in
 * memory: each record goes to a bucket file for its popcount (882 buckets, 64 KiB of buffer each),
 * then the buckets are copied in popcount order into a temporary file, each band sorted on the way
 * by segment popcounts (a counting sort, stable) after CID (PubChem's files come in CID order, so
 * usually that is already so; a band of 120 million compounds is at most a few million records,
 * a few hundred MB in memory). The file is renamed over the served one only when complete and
 * synced: a crash leaves the previous file.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { BANDS, CELL_BYTES, KEY_BYTES, KeyFileError, RAW_KEY_BYTES, SEGMENT_CUTS, encodeCell, encodeHeader, layoutFor, popcountBytes, segmentsOf } from './format.js';

/** A bucket record: the padded keys, then the CID. */
const REC = KEY_BYTES + 4;
const BUCKET_BUFFER = 64 * 1024 - ((64 * 1024) % REC);
/** Output is gathered into writes of about this size. */
const OUT_RECORDS = 32_768;

export interface KeyFileStats {
  count: number;
  bytes: number;
  /** (popcount, segment popcounts) runs in the cell directory. */
  cells: number;
  /** Records per popcount. */
  bands: Float64Array;
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes what a crashed writer of `path` left (temporary file, buckets), if its process is gone. */
function removeLeftovers(path: string): void {
  const prefix = `${basename(path)}.tmp-`;
  for (const name of readdirSync(dirname(path))) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (Number.isInteger(pid) && pid !== process.pid && !pidAlive(pid)) rmSync(join(dirname(path), name), { recursive: true, force: true });
  }
}

function readFully(fd: number, buf: Buffer, offset: number, length: number, position: number): void {
  while (length > 0) {
    const n = readSync(fd, buf, offset, length, position);
    if (n === 0) throw new KeyFileError('a bucket file ended early');
    offset += n;
    length -= n;
    position += n;
  }
}

function writeFully(fd: number, buf: Buffer, length: number, position: number): void {
  let done = 0;
  while (done < length) done += writeSync(fd, buf, done, length - done, position + done);
}

class Bucket {
  fd = -1;
  buf: Buffer | undefined;
  used = 0;
  count = 0;
  lastCid = -1;
  /** Records arrived in ascending CID order: the band needs no sort. */
  ascending = true;
}

export class KeyFileWriter {
  private readonly buckets = Array.from({ length: BANDS }, () => new Bucket());
  private readonly work: string;
  private readonly temp: string;
  private total = 0;
  private done = false;

  /** `path`: the file to write (replaced when `finish` completes). */
  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    removeLeftovers(path);
    const tag = `${basename(path)}.tmp-${process.pid}-${Date.now().toString(36)}`;
    this.work = join(dirname(path), `${tag}-buckets`);
    this.temp = join(dirname(path), tag);
    mkdirSync(this.work);
  }

  get count(): number {
    return this.total;
  }

  /** Adds one compound. `keys`: PubChem's 111 key bytes (a 112th byte, if given, is ignored). */
  add(cid: number, keys: Uint8Array): void {
    if (this.done) throw new Error('the key file writer is finished');
    if (!Number.isInteger(cid) || cid < 0 || cid > 0xffffffff) throw new RangeError(`CID ${cid} out of range`);
    if (keys.length < RAW_KEY_BYTES) throw new RangeError(`keys of CID ${cid}: ${keys.length} bytes, need ${RAW_KEY_BYTES}`);
    // Bits 881-887 pad the last byte; clearing them keeps popcounts within 0..881.
    const last = (keys[RAW_KEY_BYTES - 1] as number) & 0x80;
    const p = popcountBytes(keys, 0, RAW_KEY_BYTES - 1) + (last ? 1 : 0);
    const b = this.buckets[p] as Bucket;
    b.buf ??= Buffer.allocUnsafe(BUCKET_BUFFER);
    const at = b.used;
    b.buf.set(keys.subarray(0, RAW_KEY_BYTES - 1), at);
    b.buf[at + RAW_KEY_BYTES - 1] = last;
    b.buf[at + RAW_KEY_BYTES] = 0;
    b.buf.writeUInt32LE(cid, at + KEY_BYTES);
    b.used += REC;
    if (cid <= b.lastCid) b.ascending = false;
    b.lastCid = cid;
    b.count++;
    this.total++;
    if (b.used === BUCKET_BUFFER) this.flush(p);
  }

  private flush(p: number): void {
    const b = this.buckets[p] as Bucket;
    if (!b.buf || b.used === 0) return;
    if (b.fd < 0) b.fd = openSync(join(this.work, String(p)), 'w+');
    writeFully(b.fd, b.buf, b.used, (b.count - b.used / REC) * REC);
    b.used = 0;
  }

  /** Writes the file and renames it into place; the event loop turns between bands. */
  async finish(): Promise<KeyFileStats> {
    if (this.done) throw new Error('the key file writer is finished');
    this.done = true;
    try {
      return await this.assemble();
    } finally {
      this.cleanup();
    }
  }

  /** Drops everything written so far; the served file stays as it was. */
  abort(): void {
    this.done = true;
    this.cleanup();
  }

  private cleanup(): void {
    for (const b of this.buckets) {
      if (b.fd >= 0) closeSync(b.fd);
      b.fd = -1;
      b.buf = undefined;
    }
    rmSync(this.work, { recursive: true, force: true });
    rmSync(this.temp, { force: true });
  }

  private async assemble(): Promise<KeyFileStats> {
    const bands = new Float64Array(BANDS);
    const starts = new Float64Array(BANDS + 1);
    for (let p = 0; p < BANDS; p++) {
      this.flush(p);
      bands[p] = (this.buckets[p] as Bucket).count;
      starts[p + 1] = (starts[p] as number) + (bands[p] as number);
    }
    const base = layoutFor(starts, 0, 0);
    const fd = openSync(this.temp, 'w');
    try {
      const keysOut = Buffer.allocUnsafe(OUT_RECORDS * KEY_BYTES);
      const cidsOut = Buffer.allocUnsafe(OUT_RECORDS * 4);
      const cells = new CellList();
      let band = Buffer.alloc(0);
      for (let p = 0; p < BANDS; p++) {
        const b = this.buckets[p] as Bucket;
        if (b.count === 0) continue;
        if (band.length < b.count * REC) band = Buffer.allocUnsafe(b.count * REC);
        readFully(b.fd, band, 0, b.count * REC, 0);
        closeSync(b.fd);
        b.fd = -1;
        rmSync(join(this.work, String(p)));
        const order = bySegments(band, b.count, b.ascending ? undefined : sortedByCid(band, b.count, p));
        for (let i = 0; i < b.count; i += OUT_RECORDS) {
          const n = Math.min(OUT_RECORDS, b.count - i);
          for (let j = 0; j < n; j++) {
            const src = (order.order[i + j] as number) * REC;
            const key = order.keys[i + j] as number;
            if (i + j === 0 || key !== order.keys[i + j - 1]) cells.add(p, Math.floor(key / S2_RANGE), key % S2_RANGE, (starts[p] as number) + i + j);
            band.copy(keysOut, j * KEY_BYTES, src, src + KEY_BYTES);
            band.copy(cidsOut, j * 4, src + KEY_BYTES, src + REC);
          }
          const first = (starts[p] as number) + i;
          writeFully(fd, keysOut, n * KEY_BYTES, base.keysOffset + first * KEY_BYTES);
          writeFully(fd, cidsOut, n * 4, base.cidsOffset + first * 4);
        }
        await tick();
      }
      const dir = cells.bytes();
      writeFully(fd, dir, dir.length, base.cellsOffset);
      // The header last: a file cut short anywhere fails its size check.
      const header = layoutFor(starts, cells.count, crc32(dir));
      const head = encodeHeader(header);
      writeFully(fd, head, head.length, 0);
      fsyncSync(fd);
      renameSync(this.temp, this.path);
      syncDir(dirname(this.path));
      return { count: header.count, bytes: header.cellsOffset + dir.length, bands, cells: cells.count };
    } finally {
      closeSync(fd);
    }
  }
}

function syncDir(path: string): void {
  const dir = openSync(path, 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

/** s2 takes at most SEGMENT_CUTS[1] - SEGMENT_CUTS[0] + 1 values: a cell's key is s1 * S2_RANGE + s2. */
const S2_RANGE = SEGMENT_CUTS[1] - SEGMENT_CUTS[0] + 1;

/** The cell directory as it is written (grows by doubling). */
class CellList {
  private buf = Buffer.alloc(64 * CELL_BYTES);
  count = 0;

  add(p: number, s1: number, s2: number, start: number): void {
    if ((this.count + 1) * CELL_BYTES > this.buf.length) {
      const next = Buffer.alloc(this.buf.length * 2);
      this.buf.copy(next);
      this.buf = next;
    }
    encodeCell(this.buf, this.count++, p, s1, s2, start);
  }

  bytes(): Buffer {
    return this.buf.subarray(0, this.count * CELL_BYTES);
  }
}

/**
 * A band's records ordered by cell key (s1, s2), stably, so that records keep their order within a
 * cell (CID order, given `byCid` or input in CID order): a counting sort over the keys the band has.
 */
function bySegments(band: Buffer, count: number, byCid: Uint32Array | undefined): { order: Uint32Array; keys: Uint32Array } {
  const keyOf = new Uint32Array(count);
  let max = 0;
  for (let i = 0; i < count; i++) {
    const [s1, s2] = segmentsOf(band, i * REC);
    const k = s1 * S2_RANGE + s2;
    keyOf[i] = k;
    if (k > max) max = k;
  }
  const at = new Uint32Array(max + 2);
  for (let i = 0; i < count; i++) at[(keyOf[i] as number) + 1] = (at[(keyOf[i] as number) + 1] as number) + 1;
  for (let k = 1; k < at.length; k++) at[k] = (at[k] as number) + (at[k - 1] as number);
  const order = new Uint32Array(count);
  const keys = new Uint32Array(count);
  for (let j = 0; j < count; j++) {
    const i = byCid ? (byCid[j] as number) : j;
    const k = keyOf[i] as number;
    const to = at[k] as number;
    at[k] = to + 1;
    order[to] = i;
    keys[to] = k;
  }
  return { order, keys };
}

/** A band's record order by CID; a CID twice in the band is refused. */
function sortedByCid(band: Buffer, count: number, p: number): Uint32Array {
  const cids = new Float64Array(count);
  for (let i = 0; i < count; i++) cids[i] = band.readUInt32LE(i * REC + KEY_BYTES);
  const order = Uint32Array.from({ length: count }, (_, i) => i).sort((a, b) => (cids[a] as number) - (cids[b] as number));
  for (let i = 1; i < count; i++) {
    if (cids[order[i] as number] === cids[order[i - 1] as number]) throw new KeyFileError(`CID ${cids[order[i] as number]} given twice (popcount ${p})`);
  }
  return order;
}

/** Writes `source` to a key file at `path` (atomically); on an error the previous file stays. */
export async function writeKeyFile(path: string, source: Iterable<{ cid: number; keys: Uint8Array }> | AsyncIterable<{ cid: number; keys: Uint8Array }>): Promise<KeyFileStats> {
  const w = new KeyFileWriter(path);
  try {
    // A synchronous source is read without an await per record (120 million of them).
    if (Symbol.iterator in source) for (const { cid, keys } of source) w.add(cid, keys);
    else for await (const { cid, keys } of source) w.add(cid, keys);
  } catch (err) {
    w.abort();
    throw err;
  }
  return w.finish();
}
