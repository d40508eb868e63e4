/**
 * Optimal superposition of two point sets (Horn's quaternion method): the rotation and
 * translation that carry `b` onto `a` with the least RMSD, from the largest eigenvector of a
 * symmetric 4×4 matrix (Jacobi iterations, exact for this size).
 */
export type Vec3 = [number, number, number];

function centroid(p: Vec3[]): Vec3 {
  const c: Vec3 = [0, 0, 0];
  for (const x of p) {
    c[0] += x[0];
    c[1] += x[1];
    c[2] += x[2];
  }
  return [c[0] / p.length, c[1] / p.length, c[2] / p.length];
}

/** Eigen-decomposition of a symmetric matrix by Jacobi rotations: [values, vectors as columns]. */
function jacobi(m: number[][]): [number[], number[][]] {
  const n = m.length;
  const a = m.map((r) => [...r]);
  const v = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  for (let sweep = 0; sweep < 50; sweep++) {
    let off = 0;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) off += (a[i]?.[j] ?? 0) ** 2;
    if (off < 1e-18) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p]?.[q] ?? 0;
        if (Math.abs(apq) < 1e-15) continue;
        const app = a[p]?.[p] ?? 0;
        const aqq = a[q]?.[q] ?? 0;
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k]?.[p] ?? 0;
          const akq = a[k]?.[q] ?? 0;
          (a[k] as number[])[p] = c * akp - s * akq;
          (a[k] as number[])[q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p]?.[k] ?? 0;
          const aqk = a[q]?.[k] ?? 0;
          (a[p] as number[])[k] = c * apk - s * aqk;
          (a[q] as number[])[k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k]?.[p] ?? 0;
          const vkq = v[k]?.[q] ?? 0;
          (v[k] as number[])[p] = c * vkp - s * vkq;
          (v[k] as number[])[q] = s * vkp + c * vkq;
        }
      }
    }
  }
  return [a.map((r, i) => r[i] ?? 0), v];
}

export interface Superposition {
  rmsd: number;
  /** 4×4 transformation carrying `b` onto `a`, column-major (as the Search API reports it). */
  transformation: number[];
}

export function superpose(a: Vec3[], b: Vec3[]): Superposition {
  const ca = centroid(a);
  const cb = centroid(b);
  let sxx = 0,
    sxy = 0,
    sxz = 0,
    syx = 0,
    syy = 0,
    syz = 0,
    szx = 0,
    szy = 0,
    szz = 0;
  for (let i = 0; i < a.length; i++) {
    const p = a[i] as Vec3;
    const q = b[i] as Vec3;
    const [x1, y1, z1] = [q[0] - cb[0], q[1] - cb[1], q[2] - cb[2]];
    const [x2, y2, z2] = [p[0] - ca[0], p[1] - ca[1], p[2] - ca[2]];
    sxx += x1 * x2;
    sxy += x1 * y2;
    sxz += x1 * z2;
    syx += y1 * x2;
    syy += y1 * y2;
    syz += y1 * z2;
    szx += z1 * x2;
    szy += z1 * y2;
    szz += z1 * z2;
  }
  const k = [
    [sxx + syy + szz, syz - szy, szx - sxz, sxy - syx],
    [syz - szy, sxx - syy - szz, sxy + syx, szx + sxz],
    [szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy],
    [sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz],
  ];
  const [values, vectors] = jacobi(k);
  let best = 0;
  for (let i = 1; i < 4; i++) if ((values[i] as number) > (values[best] as number)) best = i;
  const [w, x, y, z] = vectors.map((r) => r[best] as number) as [number, number, number, number];
  const r = [
    [w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z],
  ] as [Vec3, Vec3, Vec3];
  const [r0, r1, r2] = r;
  const apply = (q: Vec3): Vec3 => [r0[0] * q[0] + r0[1] * q[1] + r0[2] * q[2], r1[0] * q[0] + r1[1] * q[1] + r1[2] * q[2], r2[0] * q[0] + r2[1] * q[1] + r2[2] * q[2]];
  const rc = apply(cb);
  const t: Vec3 = [ca[0] - rc[0], ca[1] - rc[1], ca[2] - rc[2]];
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const q = apply(b[i] as Vec3);
    const p = a[i] as Vec3;
    sum += (q[0] + t[0] - p[0]) ** 2 + (q[1] + t[1] - p[1]) ** 2 + (q[2] + t[2] - p[2]) ** 2;
  }
  const transformation = [r0[0], r1[0], r2[0], 0, r0[1], r1[1], r2[1], 0, r0[2], r1[2], r2[2], 0, t[0], t[1], t[2], 1];
  return { rmsd: Math.sqrt(sum / a.length), transformation };
}
