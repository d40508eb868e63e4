/**
 * The structure-motif index's residue pairs: every pair of amino acids whose Cα lie within 20 Å,
 * found through a grid of cells, checked against every pair tested one by one.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Residues } from '../src/core/mmcif/residues.js';
import { AMINO, MAX_PAIR, MotifIndexWriter, binAngle, binDist, cbAngle, dist, openMotifIndex, pairKey, pairsOf } from '../src/services/pdb/search/build/motif-index.js';
import type { Vec3 } from '../src/services/pdb/search/query/superpose.js';

const work = mkdtempSync(join(tmpdir(), 'biomirror-motif-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A seeded generator (the same residues on every run). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * `n` residues with N, CA, C and CB, spread over a box of `side` Å at `origin` (every residue has
 * its CB: a virtual one, computed in double precision, would be kept in single).
 */
function residues(n: number, side: number, origin: number, seed: number): Residues {
  const r = rng(seed);
  const names = ['N', 'CA', 'C', 'CB'];
  const comps = ['ALA', 'GLY', 'TRP', 'HOH', 'LYS'];
  const comp = new Uint16Array(n);
  const atomStart = new Uint32Array(n + 1);
  const atomName: number[] = [];
  const xyz: number[] = [];
  for (let i = 0; i < n; i++) {
    comp[i] = Math.floor(r() * comps.length);
    atomStart[i] = atomName.length;
    const ca = [origin + r() * side, origin + r() * side, origin + r() * side];
    for (let a = 0; a < 4; a++) {
      atomName.push(a);
      const off = a === 1 ? [0, 0, 0] : [r() * 3 - 1.5, r() * 3 - 1.5, r() * 3 - 1.5];
      xyz.push(...ca.map((c, d) => c + (off[d] as number)));
    }
  }
  atomStart[n] = atomName.length;
  return {
    n,
    asym: new Uint16Array(n),
    asyms: ['A'],
    seq: Int32Array.from({ length: n }, (_, i) => i + 1),
    comp,
    comps,
    atomStart,
    atomName: Uint16Array.from(atomName),
    names,
    xyz: Float32Array.from(xyz),
    assemblies: [],
  };
}

/** Both sets' residues as one entry's (chain A of each). */
function merged(a: Residues, b: Residues): Residues {
  const shift = a.atomName.length;
  return {
    ...a,
    n: a.n + b.n,
    asym: new Uint16Array(a.n + b.n),
    seq: Int32Array.from({ length: a.n + b.n }, (_, i) => i + 1),
    comp: Uint16Array.from([...a.comp, ...b.comp]),
    atomStart: Uint32Array.from([...a.atomStart.subarray(0, a.n), ...[...b.atomStart].map((s) => s + shift)]),
    atomName: Uint16Array.from([...a.atomName, ...b.atomName]),
    xyz: Float32Array.from([...a.xyz, ...b.xyz]),
  };
}

/** The set with three residues' atoms made NaN, +Infinity and -Infinity (one residue each, every atom). */
function unreadable(r: Residues): Residues {
  const xyz = Float32Array.from(r.xyz);
  for (const [i, value] of [
    [5, Number.NaN],
    [40, Number.POSITIVE_INFINITY],
    [41, Number.NEGATIVE_INFINITY],
  ] as const) {
    for (let a = r.atomStart[i] as number; a < (r.atomStart[i + 1] as number); a++) xyz.fill(value, 3 * a, 3 * a + 3);
  }
  return { ...r, xyz };
}

describe('structure-motif index pairs', () => {
  it('holds exactly the pairs of amino acids within 20 Å, whatever the spread and sign of the coordinates', async () => {
    const sets = [
      residues(400, 90, -45, 1),
      residues(300, 400, 2000, 2),
      residues(50, 30, -9000, 3),
      residues(1, 10, 0, 4),
      // Two groups 50,000 Å apart: a grid of 20 Å cells would not fit, and coarser cells are used.
      merged(residues(200, 60, 0, 5), residues(200, 60, 50_000, 6)),
      // Residues whose coordinates are not numbers (NaN, an overflow to infinity) among others:
      // they pair with nothing, and the others' pairs are all found.
      unreadable(residues(300, 70, 10, 7)),
    ];
    const dir = join(work, 'index');
    mkdirSync(dir);
    const w = await MotifIndexWriter.create(dir);
    for (const [i, r] of sets.entries()) await w.add(`E${i}`, r);
    await w.finish();
    const idx = await openMotifIndex(dir);

    // Every pair the index holds, as "key first second" (residue numbers of the index).
    const held = new Set<string>();
    const keys = [...idx.keys];
    for (const { key, pairs } of await pairsOf(idx, keys)) for (let k = 0; k < pairs.length; k += 2) held.add(`${key} ${pairs[k]} ${pairs[k + 1]}`);

    // The same, each pair of residues tested one by one.
    const want = new Set<string>();
    for (let e = 0; e < sets.length; e++) {
      const from = idx.entryStart[e] as number;
      const to = idx.entryStart[e + 1] as number;
      const at = (i: number, o: number): Vec3 => [idx.cacb[6 * i + o] as number, idx.cacb[6 * i + o + 1] as number, idx.cacb[6 * i + o + 2] as number];
      for (let i = from; i < to; i++) {
        for (let j = i + 1; j < to; j++) {
          const d = dist(at(i, 0), at(j, 0));
          if (d > MAX_PAIR) continue;
          const [ci, cj] = [idx.resComp[i] as number, idx.resComp[j] as number];
          const key = pairKey(Math.min(ci, cj), Math.max(ci, cj), binDist(d), binDist(dist(at(i, 3), at(j, 3))), binAngle(cbAngle(at(i, 0), at(i, 3), at(j, 0), at(j, 3))));
          if (key >= 0) want.add(ci <= cj ? `${key} ${i} ${j}` : `${key} ${j} ${i}`);
        }
      }
    }
    expect(want.size).toBeGreaterThan(1000);
    expect(held.size).toBe(want.size);
    expect([...held].filter((p) => !want.has(p))).toEqual([]);
    // Water is not an amino acid; every other residue with a backbone is kept.
    expect(idx.resComp.every((c) => AMINO[c] !== undefined)).toBe(true);
    expect(idx.entryStart[sets.length]).toBe(sets.reduce((n, r) => n + [...r.comp].filter((c) => r.comps[c] !== 'HOH').length, 0));
  });

  it('gives no descriptor for coordinates that are not numbers', () => {
    expect(pairKey(1, 2, Number.NaN, 3, 4)).toBe(-1);
    expect(pairKey(1, 2, 3, 3, Number.NaN)).toBe(-1);
    expect(pairKey(1, 2, 3, 3, 4)).toBeGreaterThanOrEqual(0);
  });
});
