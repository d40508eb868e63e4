/**
 * Every compound's fingerprints in memory, per loaded generation, read once from the structures
 * table in order of Morgan popcount, so a similarity search only visits the popcounts a threshold
 * allows (Swamidass-Baldi bounds); the pattern fingerprints sit beside them for the substructure
 * screen. 1M compounds take about 400 MB.
 */
import { MORGAN_BITS, MORGAN_WORDS, PATTERN_WORDS, words } from '../chem/fingerprints.js';
import { bytes } from '../store/sql.js';
import type { CompoundStore } from '../store/compounds.js';

export class FingerprintIndex {
  /** First position of each popcount (length MORGAN_BITS + 2). */
  readonly starts: Int32Array;
  /** CIDs in CID order and their positions, for lookups by CID (built on first use). */
  private byCid: { cids: Uint32Array; pos: Int32Array } | undefined;

  constructor(
    readonly size: number,
    readonly cids: Uint32Array,
    readonly counts: Uint16Array,
    readonly morgan: Uint32Array,
    readonly pattern: Uint32Array,
  ) {
    this.starts = new Int32Array(MORGAN_BITS + 2);
    let p = 0;
    for (let c = 0; c <= MORGAN_BITS + 1; c++) {
      while (p < size && (counts[p] as number) < c) p++;
      this.starts[c] = p;
    }
  }

  /** Position of a CID in the index, or -1. */
  position(cid: number): number {
    if (!this.byCid) {
      const order = new Int32Array(this.size).map((_, i) => i).sort((a, b) => (this.cids[a] as number) - (this.cids[b] as number));
      this.byCid = { cids: new Uint32Array(this.size).map((_, k) => this.cids[order[k] as number] as number), pos: order };
    }
    const { cids, pos } = this.byCid;
    let lo = 0;
    let hi = cids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = cids[mid] as number;
      if (v === cid) return pos[mid] as number;
      if (v < cid) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  morganAt(i: number): Uint32Array {
    return this.morgan.subarray(i * MORGAN_WORDS, (i + 1) * MORGAN_WORDS);
  }

  patternAt(i: number): Uint32Array {
    return this.pattern.subarray(i * PATTERN_WORDS, (i + 1) * PATTERN_WORDS);
  }
}

/** Reads a generation's fingerprints into an index; `total` sizes the arrays (rows beyond it are not expected). */
export async function buildIndex(store: CompoundStore, total: number, closed: () => boolean): Promise<FingerprintIndex> {
  const cap = Math.max(1, total);
  const cids = new Uint32Array(cap);
  const counts = new Uint16Array(cap);
  const morgan = new Uint32Array(cap * MORGAN_WORDS);
  const pattern = new Uint32Array(cap * PATTERN_WORDS);
  let n = 0;
  for await (const rows of store.structures()) {
    if (closed()) throw new Error('the service is closing');
    for (const r of rows) {
      if (n === cap) break;
      cids[n] = Number(r.cid);
      counts[n] = Number(r.bits);
      morgan.set(words(bytes(r.morgan), MORGAN_WORDS), n * MORGAN_WORDS);
      pattern.set(words(bytes(r.pattern), PATTERN_WORDS), n * PATTERN_WORDS);
      n++;
    }
    // Reading a large table takes a while; let requests in between.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return new FingerprintIndex(n, cids, counts, morgan, pattern);
}
