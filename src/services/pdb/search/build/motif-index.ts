/**
 * The structure-motif index, as the RCSB's strucmotif-search builds its own: every pair of
 * amino-acid residues of an entry whose Cα lie within 20 Å, keyed by a descriptor (the two residue
 * types, their Cα distance, their Cβ distance and the angle between their Cα→Cβ vectors, binned).
 * A pair is kept once, its residue of the lower type first (of equal types, the earlier first).
 *
 * Files: the residues with their atoms (held in memory by queries), the pairs grouped by key with
 * a sorted key table (queries read the pairs of the keys they need). Pairs are written through
 * partitions on disk, so building needs memory for a sixteenth of the archive's pairs at most.
 */
import { mkdir, open, readFile, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Residues } from '../../../../core/mmcif/residues.js';
import { interner } from '../../../../core/interner.js';
import { AppendFile, readArray, readAt, writeArray } from './binfile.js';
import type { Vec3 } from '../query/superpose.js';

export const AMINO = ['ALA', 'ARG', 'ASN', 'ASP', 'CYS', 'GLN', 'GLU', 'GLY', 'HIS', 'ILE', 'LEU', 'LYS', 'MET', 'PHE', 'PRO', 'SER', 'THR', 'TRP', 'TYR', 'VAL', 'SEC', 'PYL'];
export const AMINO_CODE = new Map(AMINO.map((c, i) => [c, i]));
/** Residues further apart than this (Cα) are never paired, as in strucmotif-search. */
export const MAX_PAIR = 20;

export const binDist = (d: number) => Math.floor(d);
export const binAngle = (a: number) => Math.floor(a / 20);

/** The descriptor as one number (types 5 bits each, distances 5 bits, angle 4 bits); -1 when out of range. */
export function pairKey(c1: number, c2: number, dca: number, dcb: number, ang: number): number {
  // Written to be false for NaN too (coordinates that are not numbers give no descriptor).
  if (!(dca >= 0 && dca <= 31 && dcb >= 0 && dcb <= 31 && ang >= 0 && ang <= 15)) return -1;
  return (((c1 * 32 + c2) * 32 + dca) * 32 + dcb) * 16 + ang;
}

// Square roots rather than Math.hypot: the same within rounding, and several times faster in the
// index build, which computes them for every pair of residues.
export const dist = (a: Vec3, b: Vec3) => Math.sqrt((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2);
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

/** Glycine's virtual Cβ, from its backbone (ideal geometry). */
export function virtualCb(n: Vec3, ca: Vec3, c: Vec3): Vec3 {
  const b = sub(ca, n);
  const cc = sub(c, ca);
  const a: Vec3 = [b[1] * cc[2] - b[2] * cc[1], b[2] * cc[0] - b[0] * cc[2], b[0] * cc[1] - b[1] * cc[0]];
  return [
    -0.58273431 * a[0] + 0.56802827 * b[0] - 0.54067466 * cc[0] + ca[0],
    -0.58273431 * a[1] + 0.56802827 * b[1] - 0.54067466 * cc[1] + ca[1],
    -0.58273431 * a[2] + 0.56802827 * b[2] - 0.54067466 * cc[2] + ca[2],
  ];
}

/** Angle in degrees between the Cα→Cβ vectors of two residues. */
export function cbAngle(ca1: Vec3, cb1: Vec3, ca2: Vec3, cb2: Vec3): number {
  // Component by component rather than through vectors: index builds call this for every pair.
  const u0 = cb1[0] - ca1[0];
  const u1 = cb1[1] - ca1[1];
  const u2 = cb1[2] - ca1[2];
  const v0 = cb2[0] - ca2[0];
  const v1 = cb2[1] - ca2[1];
  const v2 = cb2[2] - ca2[2];
  const d = (u0 * v0 + u1 * v1 + u2 * v2) / (Math.sqrt(u0 * u0 + u1 * u1 + u2 * u2) * Math.sqrt(v0 * v0 + v1 * v1 + v2 * v2) || 1);
  return (Math.acos(Math.max(-1, Math.min(1, d))) * 180) / Math.PI;
}

/** A residue with what matching and superposition read. */
export interface Residue {
  entry: number;
  asym: string;
  seq: number;
  comp: string;
  atoms: Map<string, Vec3>;
  ca: Vec3;
  cb: Vec3;
}

/** The amino-acid residues of a residue set that have a backbone (N, Cα, C), with their Cβ (virtual for glycine). */
export function motifResidues(r: Residues, entry = 0): Residue[] {
  const out: Residue[] = [];
  for (let i = 0; i < r.n; i++) {
    const comp = r.comps[r.comp[i] as number] as string;
    if (!AMINO_CODE.has(comp)) continue;
    const atoms = new Map<string, Vec3>();
    for (let a = r.atomStart[i] as number; a < (r.atomStart[i + 1] as number); a++) {
      atoms.set(r.names[r.atomName[a] as number] as string, [r.xyz[3 * a] as number, r.xyz[3 * a + 1] as number, r.xyz[3 * a + 2] as number]);
    }
    const n = atoms.get('N');
    const ca = atoms.get('CA');
    const c = atoms.get('C');
    if (!n || !ca || !c) continue;
    out.push({ entry, asym: r.asyms[r.asym[i] as number] as string, seq: r.seq[i] as number, comp, atoms, ca, cb: atoms.get('CB') ?? virtualCb(n, ca, c) });
  }
  return out;
}

const PARTS = 16;
/** Triples (key, first, second) buffered per partition before a write. */
const PART_BUFFER = 1 << 16;
/** Pairs one partition may hold (positions in it are 32-bit). */
const MAX_PART_PAIRS = 2 ** 27;
/** The largest descriptor pairKey() gives. */
const MAX_KEY = pairKey(AMINO.length - 1, AMINO.length - 1, 31, 31, 15);
/** Cells of one entry's grid at most (a sparse spread of residues gets larger cells). */
const MAX_CELLS = 1 << 20;

/**
 * The 20 Å cells of an entry's residues (Cα in `v`, six numbers a residue): each residue's cell
 * and, per cell, its residues in ascending order (`order` from `start[c]` to `start[c + 1]`).
 * An entry spread so wide that its grid would not fit in memory gets coarser cells (never finer
 * than 20 Å, so the 27 neighbours still cover).
 */
function cellsOf(n: number, v: Float64Array): { x: Int32Array; y: Int32Array; z: Int32Array; nx: number; ny: number; nz: number; start: Uint32Array; order: Uint32Array } {
  // The bounds of the coordinates that are numbers; a residue with any other (NaN, ±Infinity)
  // goes in the first cell, and its distances, not numbers either, pair it with nothing.
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; i++) {
    for (let d = 0; d < 3; d++) {
      const c = v[6 * i + d] as number;
      if (!Number.isFinite(c)) continue;
      if (c < (lo[d] as number)) lo[d] = c;
      if (c > (hi[d] as number)) hi[d] = c;
    }
  }
  for (let d = 0; d < 3; d++) {
    if (!Number.isFinite(lo[d])) {
      lo[d] = 0;
      hi[d] = 0;
    }
  }
  // Cell boundaries at multiples of the cell size (as `floor(c / 20)`), numbered from the lowest.
  let size = MAX_PAIR;
  let first = lo.map((l) => Math.floor(l / size));
  const dims = () => hi.map((h, d) => Math.floor(h / size) - (first[d] as number) + 1) as [number, number, number];
  let [nx, ny, nz] = dims();
  while (nx * ny * nz > MAX_CELLS) {
    size *= 2;
    first = lo.map((l) => Math.floor(l / size));
    [nx, ny, nz] = dims();
  }
  const x = new Int32Array(n);
  const y = new Int32Array(n);
  const z = new Int32Array(n);
  const start = new Uint32Array(nx * ny * nz + 1);
  const of = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const at = (d: number) => {
      const c = Math.floor((v[6 * i + d] as number) / size) - (first[d] as number);
      return Number.isFinite(c) ? c : 0;
    };
    x[i] = at(0);
    y[i] = at(1);
    z[i] = at(2);
    const c = ((x[i] as number) * ny + (y[i] as number)) * nz + (z[i] as number);
    of[i] = c;
    (start[c + 1] as number)++;
  }
  for (let c = 1; c < start.length; c++) start[c] = (start[c] as number) + (start[c - 1] as number);
  const fill = start.slice(0, -1);
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[(fill[of[i] as number] as number)++] = i;
  return { x, y, z, nx, ny, nz, start, order };
}

export class MotifIndexWriter {
  private readonly entries: string[] = [];
  private readonly entryStart: number[] = [0];
  private readonly asyms = interner();
  private readonly names = interner();
  private residues = 0;
  private atoms = 0;
  private readonly parts: { buf: Uint32Array; used: number; full: Uint32Array[]; file: AppendFile; count: number }[] = [];

  private constructor(
    private readonly dir: string,
    private readonly files: Record<'entry' | 'asym' | 'seq' | 'comp' | 'atom' | 'name' | 'xyz' | 'cacb', AppendFile>,
  ) {}

  static async create(dir: string): Promise<MotifIndexWriter> {
    const f = (n: string) => AppendFile.create(join(dir, n), 1 << 20);
    const w = new MotifIndexWriter(dir, {
      entry: await f('res-entry.u32'),
      asym: await f('res-asym.u32'),
      seq: await f('res-seq.i32'),
      comp: await f('res-comp.u8'),
      atom: await f('res-atom.u32'),
      name: await f('atom-name.u16'),
      xyz: await f('atom-xyz.f32'),
      cacb: await f('res-cacb.f32'),
    });
    await mkdir(join(dir, 'parts'));
    for (let p = 0; p < PARTS; p++) w.parts.push({ buf: new Uint32Array(3 * PART_BUFFER), used: 0, full: [], file: await AppendFile.create(join(dir, 'parts', String(p)), 1 << 20), count: 0 });
    return w;
  }

  private pair(key: number, a: number, b: number): void {
    const part = this.parts[key % PARTS] as MotifIndexWriter['parts'][number];
    part.buf[part.used++] = key;
    part.buf[part.used++] = a;
    part.buf[part.used++] = b;
    if (++part.count > MAX_PART_PAIRS) throw new Error('too many residue pairs for the motif index');
    if (part.used === part.buf.length) {
      part.full.push(part.buf);
      part.buf = new Uint32Array(3 * PART_BUFFER);
      part.used = 0;
    }
  }

  async add(entryId: string, r: Residues): Promise<void> {
    const entry = this.entries.push(entryId) - 1;
    const base = this.residues;
    // The residues motifResidues() keeps, read straight from the typed arrays: an entry can have
    // tens of thousands of residues, and objects per residue and atom dominated the build.
    const code = r.comps.map((c) => AMINO_CODE.get(c) ?? -1);
    // Names are numbered as first written (never for atoms of residues left out).
    const nameId = new Int32Array(r.names.length).fill(-1);
    const N = r.names.indexOf('N');
    const CA = r.names.indexOf('CA');
    const C = r.names.indexOf('C');
    const CB = r.names.indexOf('CB');
    const keep: number[] = [];
    const pos: number[] = [];
    const names: number[] = [];
    const atomFrom: number[] = [];
    const xyz: number[] = [];
    const local: number[] = [];
    const at: number[] = [];
    for (let i = 0; i < r.n; i++) {
      if ((code[r.comp[i] as number] as number) < 0) continue;
      // Each atom name once, at its first place, with its last coordinates (as a Map keeps them).
      local.length = 0;
      at.length = 0;
      for (let a = r.atomStart[i] as number; a < (r.atomStart[i + 1] as number); a++) {
        const nm = r.atomName[a] as number;
        const k = local.indexOf(nm);
        if (k < 0) {
          local.push(nm);
          at.push(a);
        } else at[k] = a;
      }
      const n = local.indexOf(N);
      const ca = local.indexOf(CA);
      const c = local.indexOf(C);
      if (n < 0 || ca < 0 || c < 0) continue;
      const p = (k: number): Vec3 => {
        const a = 3 * (at[k] as number);
        return [r.xyz[a] as number, r.xyz[a + 1] as number, r.xyz[a + 2] as number];
      };
      const cb = local.indexOf(CB);
      const vca = p(ca);
      const vcb = cb >= 0 ? p(cb) : virtualCb(p(n), vca, p(c));
      keep.push(i);
      pos.push(vca[0], vca[1], vca[2], vcb[0], vcb[1], vcb[2]);
      atomFrom.push(this.atoms + names.length);
      for (let k = 0; k < local.length; k++) {
        const nm = local[k] as number;
        if ((nameId[nm] as number) < 0) nameId[nm] = this.names.id(r.names[nm] as string);
        names.push(nameId[nm] as number);
        const a = 3 * (at[k] as number);
        xyz.push(r.xyz[a] as number, r.xyz[a + 1] as number, r.xyz[a + 2] as number);
      }
    }
    const n = keep.length;
    const res = { entry: new Uint32Array(n).fill(entry), asym: new Uint32Array(n), seq: new Int32Array(n), comp: new Uint8Array(n), atom: Uint32Array.from(atomFrom), cacb: Float32Array.from(pos) };
    const codes = new Uint8Array(n);
    keep.forEach((i, j) => {
      res.asym[j] = this.asyms.id(r.asyms[r.asym[i] as number] as string);
      res.seq[j] = r.seq[i] as number;
      codes[j] = res.comp[j] = code[r.comp[i] as number] as number;
    });
    this.residues += n;
    this.atoms += names.length;
    this.entryStart.push(this.residues);
    await this.files.entry.write(res.entry);
    await this.files.asym.write(res.asym);
    await this.files.seq.write(res.seq);
    await this.files.comp.write(res.comp);
    await this.files.atom.write(res.atom);
    await this.files.cacb.write(res.cacb);
    await this.files.name.write(Uint16Array.from(names));
    await this.files.xyz.write(Float32Array.from(xyz));
    this.pairsOf(base, n, Float64Array.from(pos), codes);
    for (const part of this.parts) for (const b of part.full.splice(0)) await part.file.write(b);
  }

  /**
   * Pairs within 20 Å (Cα), found through a grid of 20 Å cells; `v` holds Cα and Cβ of each
   * residue. Pairs come out in the order of the first residue, then of the 27 neighbouring cells
   * (x, then y, then z), then of the second residue: the order the pairs file keeps per key.
   */
  private pairsOf(base: number, n: number, v: Float64Array, codes: Uint8Array): void {
    if (n < 2) return;
    const cell = cellsOf(n, v);
    // Below this squared Cα distance the exact test runs (square root, then > 20 Å); above it
    // the pair is far apart whatever the rounding, and most candidates of 27 cells are.
    const reject = MAX_PAIR * MAX_PAIR + 1;
    const { nx, ny, nz, start, order } = cell;
    // Filled in place for each residue and pair (the pair loop runs millions of times a load).
    const a: Vec3 = [0, 0, 0];
    const acb: Vec3 = [0, 0, 0];
    const b: Vec3 = [0, 0, 0];
    const bcb: Vec3 = [0, 0, 0];
    const load = (into: Vec3, o: number) => {
      into[0] = v[o] as number;
      into[1] = v[o + 1] as number;
      into[2] = v[o + 2] as number;
    };
    for (let i = 0; i < n; i++) {
      const o = 6 * i;
      const ax = v[o] as number;
      const ay = v[o + 1] as number;
      const az = v[o + 2] as number;
      load(a, o);
      load(acb, o + 3);
      const ci = codes[i] as number;
      const x = cell.x[i] as number;
      const y = cell.y[i] as number;
      const z = cell.z[i] as number;
      for (let gx = x - 1; gx <= x + 1; gx++) {
        if (gx < 0 || gx >= nx) continue;
        for (let gy = y - 1; gy <= y + 1; gy++) {
          if (gy < 0 || gy >= ny) continue;
          for (let gz = z - 1; gz <= z + 1; gz++) {
            if (gz < 0 || gz >= nz) continue;
            const c = (gx * ny + gy) * nz + gz;
            for (let k = start[c] as number, end = start[c + 1] as number; k < end; k++) {
              const j = order[k] as number;
              if (j <= i) continue;
              const p = 6 * j;
              const dx = (v[p] as number) - ax;
              const dy = (v[p + 1] as number) - ay;
              const dz = (v[p + 2] as number) - az;
              const d2 = dx * dx + dy * dy + dz * dz;
              if (!(d2 <= reject)) continue;
              const d = Math.sqrt(d2);
              if (d > MAX_PAIR) continue;
              load(b, p);
              load(bcb, p + 3);
              // Both measures are symmetric; the residue of the lower type goes first (of equal
              // types, the earlier).
              const cj = codes[j] as number;
              const key = pairKey(Math.min(ci, cj), Math.max(ci, cj), binDist(d), binDist(dist(acb, bcb)), binAngle(cbAngle(a, acb, b, bcb)));
              if (key < 0) continue;
              if (ci <= cj) this.pair(key, base + i, base + j);
              else this.pair(key, base + j, base + i);
            }
          }
        }
      }
    }
  }

  async finish(): Promise<void> {
    await this.files.atom.write(Uint32Array.of(this.atoms));
    for (const f of Object.values(this.files)) await f.close();
    await writeFile(join(this.dir, 'motif.json'), JSON.stringify({ entries: this.entries, asyms: this.asyms.list, names: this.names.list, residues: this.residues, atoms: this.atoms }));
    await writeArray(this.dir, 'entry-start.u32', Uint32Array.from(this.entryStart));
    // Each partition sorted by key into the pairs file; then one key table over all partitions.
    const pairs = await AppendFile.create(join(this.dir, 'pairs.u32'));
    const keys: number[] = [];
    const starts: number[] = [];
    const counts: number[] = [];
    for (let p = 0; p < PARTS; p++) {
      const part = this.parts[p] as MotifIndexWriter['parts'][number];
      await part.file.write(part.buf.subarray(0, part.used));
      await part.file.close();
      const t = await readArray(join(this.dir, 'parts'), String(p), Uint32Array);
      await rm(join(this.dir, 'parts', String(p)));
      const m = t.length / 3;
      // A counting sort by key (keys of a partition differ by multiples of PARTS): stable, so the
      // pairs of a key stay in the order they were found.
      const slots = new Uint32Array(Math.floor(MAX_KEY / PARTS) + 2);
      for (let i = 0; i < m; i++) (slots[Math.floor((t[3 * i] as number) / PARTS) + 1] as number)++;
      for (let s = 1; s < slots.length; s++) slots[s] = (slots[s] as number) + (slots[s - 1] as number);
      const order = new Uint32Array(m);
      for (let i = 0; i < m; i++) order[(slots[Math.floor((t[3 * i] as number) / PARTS)] as number)++] = i;
      const out = new Uint32Array(2 * m);
      let last = -1;
      for (let k = 0; k < m; k++) {
        const i = order[k] as number;
        const key = t[3 * i] as number;
        if (key !== last) {
          keys.push(key);
          starts.push(pairs.size / 8 + k);
          counts.push(0);
          last = key;
        }
        counts[counts.length - 1] = (counts[counts.length - 1] as number) + 1;
        out[2 * k] = t[3 * i + 1] as number;
        out[2 * k + 1] = t[3 * i + 2] as number;
      }
      await pairs.write(out);
    }
    await pairs.close();
    await rm(join(this.dir, 'parts'), { recursive: true, force: true });
    const byKey = keys.map((_, i) => i).sort((a, b) => (keys[a] as number) - (keys[b] as number));
    await writeArray(this.dir, 'keys.i32', Int32Array.from(byKey.map((i) => keys[i] as number)));
    await writeArray(this.dir, 'key-start.f64', Float64Array.from(byKey.map((i) => starts[i] as number)));
    await writeArray(this.dir, 'key-count.u32', Uint32Array.from(byKey.map((i) => counts[i] as number)));
  }
}

export interface MotifIndex {
  entries: string[];
  entryIndex: Map<string, number>;
  entryStart: Uint32Array;
  asyms: string[];
  names: string[];
  resEntry: Uint32Array;
  resAsym: Uint32Array;
  resSeq: Int32Array;
  resComp: Uint8Array;
  resAtom: Uint32Array;
  atomName: Uint16Array;
  atomXyz: Float32Array;
  cacb: Float32Array;
  keys: Int32Array;
  keyStart: Float64Array;
  keyCount: Uint32Array;
  /** The pairs' file, opened by each query for its reads. */
  pairs: string;
}

export async function openMotifIndex(dir: string): Promise<MotifIndex> {
  const meta = JSON.parse(await readFile(join(dir, 'motif.json'), 'utf8')) as { entries: string[]; asyms: string[]; names: string[] };
  return {
    entries: meta.entries,
    entryIndex: new Map(meta.entries.map((e, i) => [e, i])),
    entryStart: await readArray(dir, 'entry-start.u32', Uint32Array),
    asyms: meta.asyms,
    names: meta.names,
    resEntry: await readArray(dir, 'res-entry.u32', Uint32Array),
    resAsym: await readArray(dir, 'res-asym.u32', Uint32Array),
    resSeq: await readArray(dir, 'res-seq.i32', Int32Array),
    resComp: await readArray(dir, 'res-comp.u8', Uint8Array),
    resAtom: await readArray(dir, 'res-atom.u32', Uint32Array),
    atomName: await readArray(dir, 'atom-name.u16', Uint16Array),
    atomXyz: await readArray(dir, 'atom-xyz.f32', Float32Array),
    cacb: await readArray(dir, 'res-cacb.f32', Float32Array),
    keys: await readArray(dir, 'keys.i32', Int32Array),
    keyStart: await readArray(dir, 'key-start.f64', Float64Array),
    keyCount: await readArray(dir, 'key-count.u32', Uint32Array),
    pairs: join(dir, 'pairs.u32'),
  };
}

/** Residue i of the index, with its atoms. */
export function residueAt(idx: MotifIndex, i: number): Residue {
  const atoms = new Map<string, Vec3>();
  for (let a = idx.resAtom[i] as number; a < (idx.resAtom[i + 1] as number); a++) {
    atoms.set(idx.names[idx.atomName[a] as number] as string, [idx.atomXyz[3 * a] as number, idx.atomXyz[3 * a + 1] as number, idx.atomXyz[3 * a + 2] as number]);
  }
  const c = idx.cacb.subarray(6 * i, 6 * i + 6);
  return {
    entry: idx.resEntry[i] as number,
    asym: idx.asyms[idx.resAsym[i] as number] as string,
    seq: idx.resSeq[i] as number,
    comp: AMINO[idx.resComp[i] as number] as string,
    atoms,
    ca: [c[0] as number, c[1] as number, c[2] as number],
    cb: [c[3] as number, c[4] as number, c[5] as number],
  };
}

/** The residue of an entry with this chain and number, if the index holds it. */
export function findResidue(idx: MotifIndex, entry: string, asym: string, seq: number): number | undefined {
  const e = idx.entryIndex.get(entry);
  if (e === undefined) return undefined;
  for (let i = idx.entryStart[e] as number; i < (idx.entryStart[e + 1] as number); i++) {
    if (idx.resSeq[i] === seq && idx.asyms[idx.resAsym[i] as number] === asym) return i;
  }
  return undefined;
}

/** The pairs of the given keys (those the index has), read from the pairs' file: [first, second, first, second, ...]. */
export async function pairsOf(idx: MotifIndex, keys: number[]): Promise<{ key: number; pairs: Uint32Array }[]> {
  const fh: FileHandle = await open(idx.pairs, 'r');
  try {
    const out: { key: number; pairs: Uint32Array }[] = [];
    for (const key of keys) {
      let lo = 0;
      let hi = idx.keys.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const k = idx.keys[mid] as number;
        if (k === key) {
          out.push({ key, pairs: await readAt(fh, Uint32Array, 2 * (idx.keyStart[mid] as number), 2 * (idx.keyCount[mid] as number)) });
          break;
        }
        if (k < key) lo = mid + 1;
        else hi = mid - 1;
      }
    }
    return out;
  } finally {
    await fh.close();
  }
}
