/**
 * Generated coordinates with per-residue chemistry intact: protein backbones grown from phi/psi
 * (helix, strand or loop) with ideal peptide geometry, side chains, nucleotides and sugars placed
 * as rigid residue templates (templates.ts), and a simple clash check so that chains fold back on
 * themselves without running through each other. None of this is an experimental structure.
 */
import { SpatialGrid, add, apply, dist, gauss, place, rotation, sub, superpose3, type Vec } from './geometry.js';
import { template } from './templates.js';
import { COMPONENTS, atomOrder } from './component-defs.js';

export interface BuiltAtom {
  name: string;
  element: string;
  xyz: Vec;
}

/** One residue's atoms, in archive order. */
export type BuiltResidue = { compId: string; atoms: BuiltAtom[] };

/** Secondary-structure plan, one letter per residue: H helix, E strand, C coil. */
export type SsPlan = string;

const BASINS: Array<[number, number]> = [
  [-65, -40],
  [-120, 130],
  [-70, 145],
  [-90, 0],
];

function torsions(ss: string, comp: string, r: () => number): [number, number] {
  if (ss === 'H') return [-57 + 4 * gauss(r), -47 + 4 * gauss(r)];
  if (ss === 'E') return [-120 + 8 * gauss(r), 130 + 8 * gauss(r)];
  if (comp === 'GLY' && r() < 0.3) return [75 + 10 * gauss(r), 20 + 10 * gauss(r)];
  const [phi, psi] = BASINS[Math.floor(r() * BASINS.length)]!;
  return [(comp === 'PRO' ? -65 : phi) + 10 * gauss(r), psi + 12 * gauss(r)];
}

/** A protein chain; `grid` holds atoms already placed (other chains), and receives this chain's. */
export interface ProteinOptions {
  grid?: SpatialGrid;
  origin?: Vec;
  /** Rebuild from these (phi, psi) pairs, each moved by `jitter` degrees (NMR ensemble members). */
  torsions?: Array<[number, number]>;
  jitter?: number;
  /** Receives the (phi, psi) pairs used. */
  usedTorsions?: Array<[number, number]>;
}

export function buildProtein(seq: string[], ss: SsPlan, r: () => number, opts: ProteinOptions = {}): BuiltResidue[] {
  const grid = opts.grid ?? new SpatialGrid(4.5);
  const origin = opts.origin ?? [0, 0, 0];
  const n = seq.length;
  // tags: 2*i for residue i's backbone, 2*i+1 for its side chain; other chains keep tag -1
  const own = new SpatialGrid(4.5);
  const clashes = (p: Vec, i: number, d = 3.0) => grid.countWithin(p, d) + own.countWithin(p, d, (t) => t < 2 * (i - 1) || t === 2 * (i - 1) + 1);
  const out: BuiltResidue[] = [];
  let N: Vec = origin;
  let CA: Vec = [origin[0] + 1.458, origin[1], origin[2]];
  let prevC: Vec = [origin[0] - 1, origin[1] + 1, origin[2]];
  let sum: Vec = [0, 0, 0];
  let count = 0;
  for (let i = 0; i < n; i++) {
    const comp = seq[i]!;
    const tpl = template(comp);
    const kind = ss[i] ?? 'C';
    const fixedT = opts.torsions?.[i];
    const tries = fixedT ? 1 : kind === 'C' ? 10 : 5;
    const centroid: Vec = count ? [sum[0] / count, sum[1] / count, sum[2] / count] : CA;
    let best: { phi: number; psi: number; score: number; c: Vec; n1: Vec; ca1: Vec; o: Vec } | undefined;
    // when the planned helix or strand runs into the chain, loop torsions get their chance too
    for (let t = 0; t < tries || (!fixedT && best!.score >= 100 && t < tries + 30); t++) {
      const [phi, ps] = fixedT ? [fixedT[0] + (opts.jitter ?? 0) * gauss(r), fixedT[1] + (opts.jitter ?? 0) * gauss(r)] : torsions(t < tries ? kind : 'C', comp, r);
      const c = place(prevC, N, CA, 1.525, 111.0, phi);
      const n1 = place(N, CA, c, 1.329, 116.2, ps);
      const ca1 = place(CA, c, n1, 1.458, 121.7, 180);
      const o = place(n1, CA, c, 1.231, 120.5, 180);
      let score = 0;
      if (!fixedT) {
        const fit = superpose3([tpl.get('N')!.xyz, tpl.get('CA')!.xyz, tpl.get('C')!.xyz], [N, CA, c]);
        const cb = tpl.get('CB');
        for (const p of [c, o, n1, ca1, ...(cb ? [apply(fit, cb.xyz)] : [])]) score += 100 * clashes(p, i);
        score += 100 * own.countWithin(ca1, 4.0, (tg) => tg < 2 * (i - 1) && tg % 2 === 0);
        score += dist(ca1, centroid) * (kind === 'C' ? 1 : 0.2);
      }
      if (!best || score < best.score) best = { phi, psi: ps, score, c, n1, ca1, o };
    }
    const b = best!;
    opts.usedTorsions?.push([b.phi, b.psi]);
    const atoms: BuiltAtom[] = [
      { name: 'N', element: 'N', xyz: N },
      { name: 'CA', element: 'C', xyz: CA },
      { name: 'C', element: 'C', xyz: b.c },
      { name: 'O', element: 'O', xyz: b.o },
    ];
    atoms.push(...sideChain(comp, tpl, N, CA, b.c, (p) => clashes(p, i) + (dist(p, b.n1) < 3 ? 1 : 0)));
    if (i === n - 1) atoms.push({ name: 'OXT', element: 'O', xyz: place(N, CA, b.c, 1.25, 117, b.psi + 180) });
    for (const a of atoms) own.add(a.xyz, 2 * i + (['N', 'CA', 'C', 'O', 'OXT'].includes(a.name) ? 0 : 1));
    out.push({ compId: comp, atoms });
    sum = [sum[0] + CA[0], sum[1] + CA[1], sum[2] + CA[2]];
    count++;
    prevC = b.c;
    N = b.n1;
    CA = b.ca1;
  }
  for (const res of out) for (const a of res.atoms) grid.add(a.xyz);
  return out;
}

/** Rotates the given atoms about the axis through a and b. */
function spin(atoms: BuiltAtom[], a: Vec, b: Vec, angle: number): BuiltAtom[] {
  const rot = rotation(sub(b, a), angle);
  return atoms.map((x) => ({ ...x, xyz: add(apply(rot, sub(x.xyz, b)), b) }));
}

/**
 * The side chain from the residue template, fitted on N, CA, C; of the rotamers reached by turning
 * chi1 and chi2 in 120-degree steps, the one with the fewest clashes (proline's ring stays closed).
 */
function sideChain(comp: string, tpl: ReturnType<typeof template>, N: Vec, CA: Vec, C: Vec, clashes: (p: Vec) => number): BuiltAtom[] {
  const fit = superpose3([tpl.get('N')!.xyz, tpl.get('CA')!.xyz, tpl.get('C')!.xyz], [N, CA, C]);
  const side: BuiltAtom[] = [];
  for (const [name, a] of tpl) {
    if (['N', 'CA', 'C', 'O', 'OXT'].includes(name)) continue;
    side.push({ name, element: a.element, xyz: apply(fit, a.xyz) });
  }
  const cb = side.find((a) => a.name === 'CB');
  if (!cb || comp === 'PRO') return side; // glycine; proline's ring closes on N
  const gamma = side.find((a) => a.name === 'CG' || a.name === 'CG1' || a.name === 'SG' || a.name === 'OG' || a.name === 'OG1');
  let best = side;
  let bestScore = side.reduce((s, a) => s + clashes(a.xyz), 0);
  for (const chi1 of [0, 120, 240]) {
    for (const chi2 of gamma && gamma.name !== 'SG' && gamma.name !== 'OG' ? [0, 120, 240] : [0]) {
      if (chi1 === 0 && chi2 === 0) continue;
      const beyondCb = side.filter((a) => a.name !== 'CB');
      const rot1 = spin(beyondCb, CA, cb.xyz, chi1);
      const g = rot1.find((a) => a.name === gamma?.name);
      const rot2 =
        g && chi2
          ? [
              ...rot1.filter((a) => a.name === g.name || !isBeyond(a.name, g.name)),
              ...spin(
                rot1.filter((a) => isBeyond(a.name, g.name)),
                cb.xyz,
                g.xyz,
                chi2,
              ),
            ]
          : rot1;
      const cand = [cb, ...rot2];
      const score = cand.reduce((s, a) => s + clashes(a.xyz), 0);
      if (score < bestScore) {
        bestScore = score;
        best = cand;
      }
    }
  }
  const order = new Map(side.map((a, k) => [a.name, k]));
  return [...best].sort((x, y) => order.get(x.name)! - order.get(y.name)!);
}

/** Atoms beyond the gamma atom: everything past the CB and gamma position (delta and further). */
function isBeyond(name: string, gamma: string): boolean {
  if (name === 'CB' || name === gamma) return false;
  if (gamma === 'CG1') return name === 'CD1'; // isoleucine: CG2 hangs from CB
  if (gamma === 'OG1') return false; // threonine
  return !/^(CG|OG|SG)/.test(name);
}

/** A single RNA strand grown 5'->3' with backbone torsions near A-form; 5' end without phosphate. */
export function buildRna(seq: string[], r: () => number, grid = new SpatialGrid(4.5)): BuiltResidue[] {
  const out: BuiltResidue[] = [];
  for (let i = 0; i < seq.length; i++) {
    const tpl = template(seq[i]!);
    let placed: BuiltAtom[] | undefined;
    if (i === 0) {
      placed = [...tpl].filter(([n]) => !['OP3', 'P', 'OP1', 'OP2'].includes(n)).map(([name, a]) => ({ name, element: a.element, xyz: a.xyz }));
    } else {
      const prev = new Map(out[i - 1]!.atoms.map((a) => [a.name, a.xyz]));
      let bestScore = Infinity;
      for (let t = 0; t < 12; t++) {
        const p = place(prev.get("C4'")!, prev.get("C3'")!, prev.get("O3'")!, 1.607, 119.7, -153 + 15 * gauss(r));
        const o5 = place(prev.get("C3'")!, prev.get("O3'")!, p, 1.593, 104.0, -71 + 15 * gauss(r));
        const c5 = place(prev.get("O3'")!, p, o5, 1.44, 120.9, -68 + 15 * gauss(r));
        const fit = superpose3([tpl.get('P')!.xyz, tpl.get("O5'")!.xyz, tpl.get("C5'")!.xyz], [p, o5, c5]);
        const atoms = [...tpl].filter(([n]) => n !== 'OP3').map(([name, a]) => ({ name, element: a.element, xyz: apply(fit, a.xyz) }));
        const score = atoms.reduce((s, a) => s + grid.countWithin(a.xyz, 3.0), 0);
        if (score < bestScore) {
          bestScore = score;
          placed = atoms;
        }
      }
    }
    // archive order: phosphate first, then sugar and base as in the dictionary
    const order = atomOrder(COMPONENTS.find((c) => c.id === seq[i])!);
    placed!.sort((x, y) => order.indexOf(x.name) - order.indexOf(y.name));
    for (const a of placed!) grid.add(a.xyz);
    out.push({ compId: seq[i]!, atoms: placed! });
  }
  return out;
}

export interface GlycanUnit {
  compId: string;
  /** Index of the residue this one hangs from (its C1 bonds to the parent's `parentAtom`). */
  parent?: number;
  parentAtom?: string;
}

/** The carbon that carries each hydroxyl oxygen, and the carbon before it (for the torsion). */
const CARRIER: Record<string, [string, string]> = { O3: ['C3', 'C2'], O4: ['C4', 'C3'], O6: ['C6', 'C5'], O2: ['C2', 'C1'] };

/**
 * An N-glycan on an asparagine: the first unit's C1 bonds to ND2, each further unit's C1 to its
 * parent's oxygen; the anomeric O1 of every unit is the leaving atom. Returns one residue per unit.
 */
export function buildGlycan(asn: BuiltResidue, units: GlycanUnit[], r: () => number, grid: SpatialGrid): BuiltResidue[] {
  const out: BuiltResidue[] = [];
  const a = new Map(asn.atoms.map((x) => [x.name, x.xyz]));
  for (const u of units) {
    const tpl = template(u.compId);
    let anchor: [Vec, Vec, Vec];
    let bond: number;
    let angle: number;
    if (u.parent === undefined) {
      anchor = [a.get('CB')!, a.get('CG')!, a.get('ND2')!];
      bond = 1.45;
      angle = 124;
    } else {
      const p = new Map(out[u.parent]!.atoms.map((x) => [x.name, x.xyz]));
      const [c1, c0] = CARRIER[u.parentAtom!]!;
      anchor = [p.get(c0)!, p.get(c1)!, p.get(u.parentAtom!)!];
      bond = 1.43;
      angle = 117;
    }
    let best: BuiltAtom[] | undefined;
    let bestScore = Infinity;
    for (const t1 of [180, 60, -60, 120, -120]) {
      for (const t2 of [-80, 60, 180]) {
        const c1 = place(anchor[0], anchor[1], anchor[2], bond, angle, t1 + 8 * gauss(r));
        const o5 = place(anchor[1], anchor[2], c1, 1.42, 108, t2 + 8 * gauss(r));
        const fit = superpose3([tpl.get('O1')!.xyz, tpl.get('C1')!.xyz, tpl.get('O5')!.xyz], [anchor[2], c1, o5]);
        const atoms = [...tpl].filter(([n]) => n !== 'O1').map(([name, x]) => ({ name, element: x.element, xyz: apply(fit, x.xyz) }));
        const score = atoms.reduce((s, x) => s + grid.countWithin(x.xyz, 3.0), 0) - grid.countWithin(c1, 1.6);
        if (score < bestScore) {
          bestScore = score;
          best = atoms;
        }
      }
    }
    const order = atomOrder(COMPONENTS.find((c) => c.id === u.compId)!);
    best!.sort((x, y) => order.indexOf(x.name) - order.indexOf(y.name));
    for (const x of best!) grid.add(x.xyz);
    out.push({ compId: u.compId, atoms: best! });
  }
  return out;
}

/** Waters hydrogen-bonded to polar atoms (N, O), each at least 2.6 A from every other atom. */
export function placeWaters(polar: Vec[], count: number, r: () => number, grid: SpatialGrid): Vec[] {
  const out: Vec[] = [];
  for (let tries = 0; out.length < count && tries < count * 30 && polar.length; tries++) {
    const p = polar[Math.floor(r() * polar.length)]!;
    const d = [gauss(r), gauss(r), gauss(r)] as Vec;
    const len = Math.hypot(...d) || 1;
    const w: Vec = [p[0] + (2.8 * d[0]) / len, p[1] + (2.8 * d[1]) / len, p[2] + (2.8 * d[2]) / len];
    if (grid.countWithin(w, 2.6) > 0) continue;
    grid.add(w);
    out.push(w);
  }
  return out;
}
