/** Small 3-D helpers for building generated coordinates: vectors, NeRF placement, rigid frames. */

export type Vec = [number, number, number];

export const add = (a: Vec, b: Vec): Vec => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: Vec, b: Vec): Vec => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: Vec, s: number): Vec => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a: Vec, b: Vec): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: Vec, b: Vec): Vec => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const norm = (a: Vec): number => Math.sqrt(dot(a, a));
export const unit = (a: Vec): Vec => scale(a, 1 / norm(a));
export const dist = (a: Vec, b: Vec): number => norm(sub(a, b));
const RAD = Math.PI / 180;

/**
 * NeRF: the position of D such that |CD| = bond, angle BCD = angle (degrees) and dihedral
 * ABCD = torsion (degrees).
 */
export function place(a: Vec, b: Vec, c: Vec, bond: number, angle: number, torsion: number): Vec {
  const bc = unit(sub(c, b));
  const n = unit(cross(sub(b, a), bc));
  const m = cross(n, bc);
  const th = angle * RAD;
  const ph = torsion * RAD;
  const d2: Vec = [-bond * Math.cos(th), bond * Math.sin(th) * Math.cos(ph), bond * Math.sin(th) * Math.sin(ph)];
  return add(c, add(add(scale(bc, d2[0]), scale(m, d2[1])), scale(n, d2[2])));
}

export function dihedral(a: Vec, b: Vec, c: Vec, d: Vec): number {
  const b0 = sub(a, b);
  const b1 = unit(sub(c, b));
  const b2 = sub(d, c);
  const v = sub(b0, scale(b1, dot(b0, b1)));
  const w = sub(b2, scale(b1, dot(b2, b1)));
  return Math.atan2(dot(cross(b1, v), w), dot(v, w)) / RAD;
}

/** A rigid transform: rotation rows r and translation t (x' = r x + t). */
export interface Rigid {
  r: [Vec, Vec, Vec];
  t: Vec;
}

export const apply = (m: Rigid, p: Vec): Vec => add([dot(m.r[0], p), dot(m.r[1], p), dot(m.r[2], p)], m.t);

/** Orthonormal frame (as rows) of three points: x along p1->p2, z normal to the plane. */
function frame(p0: Vec, p1: Vec, p2: Vec): [Vec, Vec, Vec] {
  const x = unit(sub(p1, p0));
  const z = unit(cross(x, sub(p2, p0)));
  const y = cross(z, x);
  return [x, y, z];
}

/** The rigid transform that maps the frame of (a0, a1, a2) onto the frame of (b0, b1, b2), a1 onto b1. */
export function superpose3(a: [Vec, Vec, Vec], b: [Vec, Vec, Vec]): Rigid {
  const fa = frame(a[0], a[1], a[2]);
  const fb = frame(b[0], b[1], b[2]);
  // R = Fb^T Fa (frames as rows): column k of Fb^T is row k of Fb.
  const row = (i: 0 | 1 | 2): Vec => {
    const b0 = fb[0][i],
      b1 = fb[1][i],
      b2 = fb[2][i];
    return [b0 * fa[0][0] + b1 * fa[1][0] + b2 * fa[2][0], b0 * fa[0][1] + b1 * fa[1][1] + b2 * fa[2][1], b0 * fa[0][2] + b1 * fa[1][2] + b2 * fa[2][2]];
  };
  const r: [Vec, Vec, Vec] = [row(0), row(1), row(2)];
  const ra1: Vec = [dot(r[0], a[1]), dot(r[1], a[1]), dot(r[2], a[1])];
  return { r, t: sub(b[1], ra1) };
}

/** Rotation about a unit axis by an angle (degrees), then translation. */
export function rotation(axis: Vec, angle: number, t: Vec = [0, 0, 0]): Rigid {
  const [x, y, z] = unit(axis);
  const c = Math.cos(angle * RAD);
  const s = Math.sin(angle * RAD);
  const C = 1 - c;
  return {
    r: [
      [c + x * x * C, x * y * C - z * s, x * z * C + y * s],
      [y * x * C + z * s, c + y * y * C, y * z * C - x * s],
      [z * x * C - y * s, z * y * C + x * s, c + z * z * C],
    ],
    t,
  };
}

/** A uniformly random rotation from three uniform numbers (Shoemake), plus translation. */
export function randomRotation(u1: number, u2: number, u3: number, t: Vec): Rigid {
  const q0 = Math.sqrt(1 - u1) * Math.sin(2 * Math.PI * u2);
  const q1 = Math.sqrt(1 - u1) * Math.cos(2 * Math.PI * u2);
  const q2 = Math.sqrt(u1) * Math.sin(2 * Math.PI * u3);
  const q3 = Math.sqrt(u1) * Math.cos(2 * Math.PI * u3);
  const [w, x, y, z] = [q3, q0, q1, q2];
  return {
    r: [
      [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
      [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
      [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ],
    t,
  };
}

/**
 * Uniform grid of points for clash checks (cell size = the largest distance asked). Each point
 * carries a tag (for chains: which residue it belongs to) so that bonded neighbours can be skipped.
 */
export class SpatialGrid {
  private readonly cells = new Map<number, Array<{ p: Vec; tag: number }>>();
  constructor(private readonly size: number) {}
  /** Cell key: indices offset into 0..2047 and packed (coordinates within +-9,000 A). */
  private static pack(i: number, j: number, k: number): number {
    return ((i + 1024) * 2048 + (j + 1024)) * 2048 + (k + 1024);
  }
  private key(p: Vec): number {
    return SpatialGrid.pack(Math.floor(p[0] / this.size), Math.floor(p[1] / this.size), Math.floor(p[2] / this.size));
  }
  add(p: Vec, tag = -1): void {
    const k = this.key(p);
    const c = this.cells.get(k);
    if (c) c.push({ p, tag });
    else this.cells.set(k, [{ p, tag }]);
  }
  /** Number of stored points closer than d (d <= cell size) to p, among those whose tag is accepted. */
  countWithin(p: Vec, d: number, accept?: (tag: number) => boolean): number {
    const [i, j, k] = [Math.floor(p[0] / this.size), Math.floor(p[1] / this.size), Math.floor(p[2] / this.size)];
    let n = 0;
    const d2 = d * d;
    for (let a = i - 1; a <= i + 1; a++)
      for (let b = j - 1; b <= j + 1; b++)
        for (let c = k - 1; c <= k + 1; c++) {
          const cell = this.cells.get(SpatialGrid.pack(a, b, c));
          if (!cell) continue;
          for (const q of cell) {
            const dx = p[0] - q.p[0],
              dy = p[1] - q.p[1],
              dz = p[2] - q.p[2];
            if (dx * dx + dy * dy + dz * dz < d2 && (!accept || accept(q.tag))) n++;
          }
        }
    return n;
  }
}

/** mulberry32: a small seeded generator, so the same seed gives the same entries everywhere. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal deviate (Box-Muller) from a uniform generator. */
export function gauss(r: () => number): number {
  const u = Math.max(r(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r());
}
