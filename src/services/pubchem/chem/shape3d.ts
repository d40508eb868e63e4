/**
 * The shape descriptors of a 3D conformer, as PubChem3D defines them: heavy atoms only, each a
 * Gaussian of height p = 2.7 whose integral is the volume of its van der Waals sphere (Grant and
 * Pickup's model, which OEShape implements). The multipoles' monopole is the sum of the atoms'
 * volumes; the steric quadrupoles are the principal second moments of that density about its
 * centroid, largest first (X >= Y >= Z). From PubChem's own coordinates these reproduce its
 * published quadrupoles to the last digit; the volume is the Gaussian overlap volume summed by
 * inclusion-exclusion, which lands within a few per cent of PubChem's (docs/compatibility.md).
 */

export interface Atom3D {
  /** Atomic number. */
  z: number;
  x: number;
  y: number;
  zc: number;
}

export interface Shape {
  /** Gaussian overlap volume, cubic angstroms, one decimal (PUBCHEM_SHAPE_VOLUME). */
  volume: number;
  /** Sum of the atoms' volumes (the first of PUBCHEM_SHAPE_MULTIPOLES). */
  monopole: number;
  /** Steric quadrupoles X, Y, Z, largest first, two decimals. */
  quadrupoles: [number, number, number];
}

// Bondi's van der Waals radii (angstroms); elements PubChem3D models, plus a carbon-sized default.
const RADII: Record<number, number> = { 6: 1.7, 7: 1.55, 8: 1.52, 9: 1.47, 14: 2.1, 15: 1.8, 16: 1.8, 17: 1.75, 35: 1.85, 53: 1.98 };
const DEFAULT_RADIUS = 1.7;
const P = 2.7;

/** The heaviest molecule shape descriptors are computed for (PubChem3D models at most 50 heavy atoms). */
export const MAX_SHAPE_ATOMS = 200;

// Inclusion-exclusion stops at this order and drops overlaps smaller than this (cubic angstroms):
// higher terms change the volume by less than its published precision on drug-sized molecules.
const MAX_ORDER = 6;
const MIN_OVERLAP = 1e-4;
const MAX_TERMS = 5_000_000;

interface Gaussian {
  x: number;
  y: number;
  z: number;
  alpha: number;
  volume: number;
}

function gaussians(atoms: readonly Atom3D[]): Gaussian[] {
  return atoms
    .filter((a) => a.z > 1)
    .map((a) => {
      const r = RADII[a.z] ?? DEFAULT_RADIUS;
      const volume = (4 / 3) * Math.PI * r ** 3;
      // The width for which p * (pi / alpha)^1.5 equals the sphere's volume.
      const alpha = Math.PI * Math.pow((3 * P) / (4 * Math.PI * r ** 3), 2 / 3);
      return { x: a.x, y: a.y, z: a.zc, alpha, volume };
    });
}

/** Eigenvalues of a symmetric 3x3 matrix (Jacobi rotations), largest first. */
export function eigenvalues3(m: number[][]): [number, number, number] {
  const a = m.map((r) => r.slice());
  const at = (i: number, j: number) => (a[i] as number[])[j] as number;
  const set = (i: number, j: number, v: number) => ((a[i] as number[])[j] = v);
  for (let sweep = 0; sweep < 50; sweep++) {
    let p = 0;
    let q = 1;
    let max = 0;
    for (let i = 0; i < 3; i++)
      for (let j = i + 1; j < 3; j++)
        if (Math.abs(at(i, j)) > max) {
          max = Math.abs(at(i, j));
          p = i;
          q = j;
        }
    if (max < 1e-12) break;
    const theta = 0.5 * Math.atan2(2 * at(p, q), at(q, q) - at(p, p));
    const c = Math.cos(theta);
    const s = Math.sin(theta);
    for (let k = 0; k < 3; k++) {
      const kp = at(k, p);
      const kq = at(k, q);
      set(k, p, c * kp - s * kq);
      set(k, q, s * kp + c * kq);
    }
    for (let k = 0; k < 3; k++) {
      const pk = at(p, k);
      const qk = at(q, k);
      set(p, k, c * pk - s * qk);
      set(q, k, s * pk + c * qk);
    }
  }
  const e = [at(0, 0), at(1, 1), at(2, 2)].sort((x, y) => y - x);
  return [e[0] as number, e[1] as number, e[2] as number];
}

/** Volume of the union of the Gaussians: alternating sums of their 1..n-fold overlaps. */
function overlapVolume(g: readonly Gaussian[]): number {
  let volume = 0;
  let terms = 0;
  const walk = (start: number, alpha: number, x: number, y: number, z: number, height: number, order: number) => {
    for (let j = start; j < g.length; j++) {
      const b = g[j] as Gaussian;
      const sum = alpha + b.alpha;
      const d2 = (x - b.x) ** 2 + (y - b.y) ** 2 + (z - b.z) ** 2;
      // The product of Gaussians is a Gaussian at their weighted centre, of this height.
      const h = order === 0 ? P : height * P * Math.exp((-alpha * b.alpha * d2) / sum);
      const v = h * Math.pow(Math.PI / sum, 1.5);
      if (order > 0 && v < MIN_OVERLAP) continue;
      if (++terms > MAX_TERMS) return;
      volume += order % 2 === 0 ? v : -v;
      if (order + 1 < MAX_ORDER) walk(j + 1, sum, (alpha * x + b.alpha * b.x) / sum, (alpha * y + b.alpha * b.y) / sum, (alpha * z + b.alpha * b.z) / sum, h, order + 1);
    }
  };
  walk(0, 0, 0, 0, 0, 1, 0);
  return volume;
}

const round = (v: number, digits: number) => {
  const f = 10 ** digits;
  const r = Math.round(v * f) / f;
  return r === 0 ? 0 : r;
};

/** The shape descriptors of a conformer's atoms (hydrogens are ignored), or undefined when it has none or too many. */
export function shapeOf(atoms: readonly Atom3D[]): Shape | undefined {
  const g = gaussians(atoms);
  if (!g.length || g.length > MAX_SHAPE_ATOMS) return undefined;
  const monopole = g.reduce((s, a) => s + a.volume, 0);
  const c = [0, 0, 0];
  for (const a of g) {
    c[0] = (c[0] as number) + a.volume * a.x;
    c[1] = (c[1] as number) + a.volume * a.y;
    c[2] = (c[2] as number) + a.volume * a.z;
  }
  const [cx, cy, cz] = c.map((v) => v / monopole) as [number, number, number];
  const m = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  for (const a of g) {
    const d = [a.x - cx, a.y - cy, a.z - cz];
    // A Gaussian's own spread adds 1/(2 alpha) to each diagonal second moment.
    const spread = 1 / (2 * a.alpha);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) (m[i] as number[])[j] = ((m[i] as number[])[j] as number) + a.volume * ((d[i] as number) * (d[j] as number) + (i === j ? spread : 0));
  }
  const e = eigenvalues3(m.map((r) => r.map((v) => v / monopole)));
  return { volume: round(overlapVolume(g), 1), monopole: round(monopole, 2), quadrupoles: [round(e[0], 2), round(e[1], 2), round(e[2], 2)] };
}
