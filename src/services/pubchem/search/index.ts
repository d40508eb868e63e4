/**
 * Every compound's PubChem substructure keys and pattern fingerprint in memory, per loaded
 * generation, read once from the structures table. Compounds with keys come first, in order of
 * their count of keys, so a similarity search only visits the counts a threshold allows
 * (Swamidass-Baldi bounds); compounds without keys follow (they take part in substructure screens
 * only). The pattern fingerprints sit beside the keys for the substructure screen. 1M compounds
 * take about 380 MB.
 */
import { PATTERN_WORDS, words } from '../chem/fingerprints.js';
import { KEY_COUNT, KEY_WORDS, keyWords } from '../chem/subskeys-codec.js';
import { bytes } from '../store/sql.js';
import type { CompoundStore } from '../store/compounds.js';

/** The count recorded for a compound without keys: above every real count, so such compounds sort last. */
export const NO_KEYS = 0xffff;

export class FingerprintIndex {
  /** First position of each count of keys (length KEY_COUNT + 2); `starts[KEY_COUNT + 1]` is `keyed`. */
  readonly starts: Int32Array;
  /** Compounds with keys: positions 0 to keyed - 1. */
  readonly keyed: number;
  /** CIDs in CID order and their positions, for lookups by CID (built on first use). */
  private byCid: { cids: Uint32Array; pos: Int32Array } | undefined;

  constructor(
    readonly size: number,
    readonly cids: Uint32Array,
    /** Keys set per compound, ascending; NO_KEYS for those without. */
    readonly counts: Uint16Array,
    readonly keys: Uint32Array,
    readonly pattern: Uint32Array,
    /** Loaded by an earlier version of biomirror, which kept no keys. */
    readonly legacy = false,
  ) {
    this.starts = new Int32Array(KEY_COUNT + 2);
    let p = 0;
    for (let c = 0; c <= KEY_COUNT + 1; c++) {
      while (p < size && (counts[p] as number) < c) p++;
      this.starts[c] = p;
    }
    this.keyed = this.starts[KEY_COUNT + 1] as number;
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

  /** The keys of the compound at a position, as words; undefined when it has none. */
  keysAt(i: number): Uint32Array | undefined {
    return i < this.keyed ? this.keys.subarray(i * KEY_WORDS, (i + 1) * KEY_WORDS) : undefined;
  }

  patternAt(i: number): Uint32Array {
    return this.pattern.subarray(i * PATTERN_WORDS, (i + 1) * PATTERN_WORDS);
  }
}

/**
 * Reads a generation's keys and fingerprints into an index; `total` sizes the arrays (rows beyond
 * it are not expected). The store gives the keyed compounds first, by count.
 */
export async function buildIndex(store: CompoundStore, total: number, closed: () => boolean): Promise<FingerprintIndex> {
  const cap = Math.max(1, total);
  const cids = new Uint32Array(cap);
  const counts = new Uint16Array(cap);
  const keys = new Uint32Array(cap * KEY_WORDS);
  const pattern = new Uint32Array(cap * PATTERN_WORDS);
  let n = 0;
  const legacy = !(await store.keepsKeys());
  for await (const rows of store.structures()) {
    if (closed()) throw new Error('the service is closing');
    for (const r of rows) {
      if (n === cap) break;
      cids[n] = Number(r.cid);
      if (r.bits === null || r.keys === null) counts[n] = NO_KEYS;
      else {
        counts[n] = Number(r.bits);
        keys.set(keyWords(bytes(r.keys)), n * KEY_WORDS);
      }
      pattern.set(words(bytes(r.pattern), PATTERN_WORDS), n * PATTERN_WORDS);
      n++;
    }
    // Reading a large table takes a while; let requests in between.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return new FingerprintIndex(n, cids, counts, keys, pattern, legacy);
}
