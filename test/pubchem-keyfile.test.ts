/**
 * The PubChem key file (src/services/pubchem/search/keyfile): on 100,000 generated compounds, the
 * threaded scan's answers equal a brute-force Tanimoto and screen over every record, exactly (sets
 * and order); and the edges: empty query keys, threshold 1, an empty file, files cut short or
 * corrupt, a failed write, a deadline.
 */
import { copyFileSync, existsSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fragmentKeys, generateKeys } from '../synthetic/pubchem-keys-generate.js';
import { SearchTimeout } from '../src/core/chem/deadline.js';
import { HEADER_BYTES, KEY_BYTES, RAW_KEY_BYTES, popcountBytes, segmentsOf } from '../src/services/pubchem/search/keyfile/format.js';
import { KeyFileError, KeyFileSearcher, writeKeyFile, type KeyHit } from '../src/services/pubchem/search/keyfile/index.js';

const N = 100_000;
const work = mkdtempSync(join(tmpdir(), 'biomirror-keyfile-'));
const file = join(work, 'keys.bin');

const cids = new Uint32Array(N);
const keys = new Uint8Array(N * KEY_BYTES);
const counts = new Uint16Array(N);
/** Segment popcounts s1, s2 of each record. */
const segs = new Uint16Array(2 * N);
const words = new Int32Array(keys.buffer);
const W = KEY_BYTES / 4;

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** The query's padded keys as 32-bit words, laid out as the archive's. */
function qwords(q: Uint8Array): Int32Array {
  const b = new Uint8Array(KEY_BYTES);
  b.set(q.subarray(0, RAW_KEY_BYTES));
  return new Int32Array(b.buffer);
}

function bruteSimilar(q: Uint8Array, t: number): KeyHit[] {
  const qc = popcountBytes(q, 0, RAW_KEY_BYTES);
  if (qc === 0) return [];
  const out: KeyHit[] = [];
  const qw = qwords(q);
  for (let i = 0; i < N; i++) {
    let c = 0;
    for (let w = 0, o = i * W; w < W; w++) c += popcount32((words[o + w] as number) & (qw[w] as number));
    const score = c / ((counts[i] as number) + qc - c);
    if (score >= t) out.push({ cid: cids[i] as number, score });
  }
  return out.sort((a, b) => b.score - a.score || a.cid - b.cid);
}

/** Records holding every query bit, in file order (popcount, segment popcounts, CID: the superstructure scan's), the first `limit`. */
function bruteScreen(q: Uint8Array, limit: number): number[] {
  const hits: number[] = [];
  const qw = qwords(q);
  for (let i = 0; i < N; i++) {
    let missing = 0;
    for (let w = 0, o = i * W; w < W; w++) missing |= (qw[w] as number) & ~(words[o + w] as number);
    if (missing === 0) hits.push(i);
  }
  const cell = (i: number) => (counts[i] as number) * 1e6 + (segs[2 * i] as number) * 1e3 + (segs[2 * i + 1] as number);
  hits.sort((a, b) => cell(a) - cell(b) || (cids[a] as number) - (cids[b] as number));
  return hits.slice(0, limit).map((i) => cids[i] as number);
}

const keyOf = (i: number) => keys.slice(i * KEY_BYTES, i * KEY_BYTES + RAW_KEY_BYTES);
/** Queries drawn from the archive, spread over it (family heads and members alike). */
const QUERIES = Array.from({ length: 16 }, (_, j) => Math.floor(((j + 0.37) / 16) * N));

let searcher: KeyFileSearcher;

beforeAll(async () => {
  let i = 0;
  for (const g of generateKeys(N, 7)) {
    cids[i] = g.cid;
    keys.set(g.keys, i * KEY_BYTES);
    counts[i] = popcountBytes(g.keys);
    segs.set(segmentsOf(g.keys), 2 * i);
    i++;
  }
  // The writer takes PubChem's 111 bytes.
  await writeKeyFile(
    file,
    (function* () {
      for (let j = 0; j < N; j++) yield { cid: cids[j] as number, keys: keys.subarray(j * KEY_BYTES, j * KEY_BYTES + RAW_KEY_BYTES) };
    })(),
  );
  searcher = KeyFileSearcher.open(file, { threads: 2, chunkRecords: 1000 });
});

afterAll(async () => {
  await searcher?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('similarity equals brute force', () => {
  for (const t of [0.9, 0.8, 0.7]) {
    it(`at threshold ${t}`, async () => {
      let total = 0;
      for (const i of QUERIES) {
        const want = bruteSimilar(keyOf(i), t);
        expect(await searcher.similar(keyOf(i), t)).toEqual(want);
        total += want.length;
      }
      // The generated archive has near neighbours: the comparison is not of empty lists.
      expect(total).toBeGreaterThan(QUERIES.length);
    });
  }

  it('keeps the best maxRecords (ties by CID), also when threads drop hits early', async () => {
    for (const i of QUERIES.slice(0, 6)) {
      const want = bruteSimilar(keyOf(i), 0.7);
      for (const max of [1, 3, 50]) expect(await searcher.similar(keyOf(i), 0.7, max)).toEqual(want.slice(0, max));
    }
  });

  it('finds the same with every record scanned, with the popcount bound alone, and with the JavaScript kernel', async () => {
    const js = KeyFileSearcher.open(file, { threads: 1, kernel: 'js' });
    try {
      for (const i of QUERIES.slice(0, 4)) {
        const want = bruteSimilar(keyOf(i), 0.8);
        expect(await searcher.similar(keyOf(i), 0.8, undefined, { bound: 'none' })).toEqual(want);
        expect(searcher.lastScan.records).toBe(N);
        expect(await searcher.similar(keyOf(i), 0.8, undefined, { bound: 'popcount' })).toEqual(want);
        expect(await js.similar(keyOf(i), 0.8)).toEqual(want);
      }
    } finally {
      await js.close();
    }
  });

  it('reads only the popcount bands that can reach the threshold, and within them fewer cells', async () => {
    let bands = 0;
    let cells = 0;
    for (const i of QUERIES) {
      const q = keyOf(i);
      const qc = popcountBytes(q);
      await searcher.similar(q, 0.9, undefined, { bound: 'popcount' });
      let inBands = 0;
      for (let j = 0; j < N; j++) if ((counts[j] as number) >= Math.ceil(0.9 * qc) && (counts[j] as number) <= Math.floor(qc / 0.9)) inBands++;
      expect(searcher.lastScan.records).toBe(inBands);
      bands += inBands;
      await searcher.similar(q, 0.9);
      expect(searcher.lastScan.records).toBeLessThanOrEqual(inBands);
      cells += searcher.lastScan.records;
    }
    expect(bands).toBeLessThan((N * QUERIES.length) / 2);
    expect(cells).toBeLessThan(bands * 0.9);
  });

  it('threshold 1 finds identical keys only; empty keys find nothing', async () => {
    const q = keyOf(QUERIES[5] as number);
    const hits = await searcher.similar(q, 1);
    expect(hits).toEqual(bruteSimilar(q, 1));
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.score === 1)).toBe(true);
    expect(await searcher.similar(new Uint8Array(RAW_KEY_BYTES), 0.9)).toEqual([]);
  });

  it('refuses thresholds out of range and short keys', async () => {
    await expect(searcher.similar(keyOf(1), 0)).rejects.toThrow(RangeError);
    await expect(searcher.similar(keyOf(1), 1.5)).rejects.toThrow(RangeError);
    await expect(searcher.similar(new Uint8Array(20), 0.9)).rejects.toThrow(RangeError);
  });
});

describe('substructure screen equals brute force', () => {
  const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);

  it('for a common fragment, a compound, and empty keys: every candidate, the first `limit` in one order', async () => {
    const benzene = fragmentKeys('benzene');
    // A compound's keys thinned to a third of its bits: a plausible substructure's keys.
    const thin = keyOf(QUERIES[2] as number).map((b, j) => b & [0x92, 0x49, 0x24][j % 3]!);
    // One thread and the plain kernel, the same chunks: the order does not depend on either.
    const one = KeyFileSearcher.open(file, { threads: 1, kernel: 'js', chunkRecords: 1000 });
    try {
      for (const q of [benzene, thin, new Uint8Array(RAW_KEY_BYTES)]) {
        const all = await searcher.screen(q, N);
        expect(sorted(all)).toEqual(sorted(bruteScreen(q, N)));
        for (const limit of [1, 2000]) {
          const first = await searcher.screen(q, limit);
          expect(first).toEqual(all.slice(0, limit));
          expect(await one.screen(q, limit)).toEqual(first);
        }
      }
    } finally {
      await one.close();
    }
    expect(bruteScreen(benzene, N).length).toBeGreaterThan(N / 5);
  });

  it('takes its first candidates from compounds of every size, not the smallest alone', async () => {
    // A common fragment's first candidates stand for all of its candidates: their mean key count
    // is near that of every candidate, far from that of the smallest (the file's first).
    const benzene = fragmentKeys('benzene');
    const pos = new Map(Array.from(cids, (c, i) => [c, i]));
    const meanKeys = (xs: readonly number[]) => xs.reduce((a, c) => a + (counts[pos.get(c) as number] as number), 0) / xs.length;
    const every = meanKeys(bruteScreen(benzene, N));
    const smallest = meanKeys(bruteScreen(benzene, 500));
    const first = meanKeys(await searcher.screen(benzene, 500));
    expect(every - smallest).toBeGreaterThan(10);
    expect(Math.abs(first - every)).toBeLessThan((every - smallest) / 4);
  });

  it('stops reading once it has the candidates asked for', async () => {
    await searcher.screen(fragmentKeys('benzene'), 100);
    expect(searcher.lastScan.records).toBeLessThan(N / 4);
  });
});

describe('superstructure candidates (no forbidden key) equal brute force', () => {
  /** Records holding none of `forbidden`'s bits, in file order (as bruteScreen orders). */
  function bruteNone(forbidden: Uint8Array, limit: number): number[] {
    const all = bruteScreen(new Uint8Array(RAW_KEY_BYTES), N);
    const pos = new Map(Array.from(cids, (c, i) => [c, i]));
    return all
      .filter((cid) => {
        const i = pos.get(cid) as number;
        return !forbidden.some((b, j) => (b & (keys[i * KEY_BYTES + j] as number)) !== 0);
      })
      .slice(0, limit);
  }

  it('for the complement of a compound’s keys, a sparse mask and no mask', async () => {
    // What a compound's keys do not hold: records within it.
    const within = keyOf(QUERIES[5] as number).map((b) => ~b & 0xff);
    within[RAW_KEY_BYTES - 1] = (within[RAW_KEY_BYTES - 1] as number) & 0x80;
    const sparse = new Uint8Array(RAW_KEY_BYTES).map((_, j) => (j % 7 === 0 ? 0x11 : 0));
    for (const f of [within, sparse, new Uint8Array(RAW_KEY_BYTES)]) {
      for (const limit of [1, 500, N]) expect(await searcher.none(f, limit)).toEqual(bruteNone(f, limit));
    }
    expect(bruteNone(within, N).length).toBeGreaterThan(0);
    expect(bruteNone(sparse, N).length).toBeLessThan(N);
  });
});

describe('files', () => {
  it('sorts input that is not in CID order, and refuses a CID given twice', async () => {
    const path = join(work, 'shuffled.bin');
    const order = Array.from({ length: 20_000 }, (_, j) => (j * 7919) % 20_000);
    await writeKeyFile(
      path,
      order.map((j) => ({ cid: cids[j] as number, keys: keyOf(j) })),
    );
    const s = KeyFileSearcher.open(path, { threads: 1 });
    try {
      const q = keyOf(1234);
      const got = await s.similar(q, 0.7);
      const want = bruteSimilar(q, 0.7).filter((h) => h.cid <= (cids[19_999] as number));
      expect(got).toEqual(want);
    } finally {
      await s.close();
    }
    await expect(
      writeKeyFile(
        join(work, 'twice.bin'),
        [2, 1, 2].map((cid) => ({ cid, keys: keyOf(0) })),
      ),
    ).rejects.toThrow(/given twice/);
  });

  it('serves a file of no records', async () => {
    const path = join(work, 'empty.bin');
    const stats = await writeKeyFile(path, []);
    expect(stats.count).toBe(0);
    const s = KeyFileSearcher.open(path, { threads: 1 });
    try {
      expect(await s.similar(keyOf(0), 0.9)).toEqual([]);
      expect(await s.screen(new Uint8Array(RAW_KEY_BYTES), 10)).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('refuses truncated, extended and corrupt files with a clear error', () => {
    const bad = join(work, 'bad.bin');
    const expectRefused = (pattern: RegExp) => {
      expect(() => KeyFileSearcher.open(bad)).toThrow(KeyFileError);
      expect(() => KeyFileSearcher.open(bad)).toThrow(pattern);
    };
    copyFileSync(file, bad);
    truncateSync(bad, readFileSync(file).length - 1);
    expectRefused(/truncated/);
    writeFileSync(bad, Buffer.concat([readFileSync(file), Buffer.alloc(1)]));
    expectRefused(/extended/);
    truncateSync(bad, 100);
    expectRefused(/shorter than its header/);
    writeFileSync(bad, Buffer.alloc(HEADER_BYTES + 500, 7));
    expectRefused(/magic/);
    // A flipped bit in the header, then in a record (the first of its band).
    const copy = readFileSync(file);
    copy[HEADER_BYTES - 100] = (copy[HEADER_BYTES - 100] as number) ^ 1;
    copy[60] = (copy[60] as number) ^ 4;
    writeFileSync(bad, copy);
    expectRefused(/checksum/);
    const poke = (at: number) => {
      copyFileSync(file, bad);
      const fd = openSync(bad, 'r+');
      writeSync(fd, Buffer.from([0xff]), 0, 1, at);
      closeSync(fd);
    };
    poke(HEADER_BYTES + 5);
    expectRefused(/corrupt/);
    // The cell directory ends the file.
    poke(readFileSync(file).length - 10);
    expectRefused(/cell directory checksum/);
  });

  it('leaves the served file in place when a write fails', async () => {
    const path = join(work, 'served.bin');
    await writeKeyFile(path, [{ cid: 5, keys: keyOf(0) }]);
    const before = readFileSync(path);
    await expect(
      writeKeyFile(
        path,
        (function* () {
          yield { cid: 6, keys: keyOf(1) };
          throw new Error('the source failed');
        })(),
      ),
    ).rejects.toThrow('the source failed');
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(work).filter((n) => n.startsWith('served.bin.'))).toEqual([]);
    expect(existsSync(path)).toBe(true);
  });

  it('stops at a deadline', async () => {
    await expect(searcher.similar(keyOf(3), 0.5, undefined, { deadline: Date.now() - 1 })).rejects.toThrow(SearchTimeout);
    // The searcher still answers afterwards.
    expect(await searcher.similar(keyOf(3), 0.9)).toEqual(bruteSimilar(keyOf(3), 0.9));
  });
});
