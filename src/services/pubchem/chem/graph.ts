/**
 * The molecular graph as RDKit's JSON describes it (heavy atoms with their hydrogen counts), and
 * what the project computes from it itself: formula, components, bond stereo candidates, complexity.
 */

export interface GraphAtom {
  z: number;
  hs: number;
  charge: number;
  isotope: number;
}

export interface GraphBond {
  a: number;
  b: number;
  order: number;
  stereo: string;
}

export interface Graph {
  atoms: GraphAtom[];
  bonds: GraphBond[];
  rings: number[][];
  cipRanks: number[] | undefined;
}

interface RdkitJson {
  defaults: { atom: Record<string, unknown>; bond: Record<string, unknown> };
  molecules: {
    atoms: Record<string, unknown>[];
    bonds?: Record<string, unknown>[];
    extensions?: { name: string; cipRanks?: number[]; atomRings?: number[][] }[];
  }[];
}

export function graphOf(json: string): Graph {
  const doc = JSON.parse(json) as RdkitJson;
  const mol = doc.molecules[0];
  if (!mol) return { atoms: [], bonds: [], rings: [], cipRanks: undefined };
  const da = doc.defaults.atom;
  const db = doc.defaults.bond;
  const atoms = mol.atoms.map((a) => {
    const x = { ...da, ...a };
    return { z: Number(x.z), hs: Number(x.impHs ?? 0), charge: Number(x.chg ?? 0), isotope: Number(x.isotope ?? 0) };
  });
  const bonds = (mol.bonds ?? []).map((b) => {
    const x = { ...db, ...b } as { bo: number; stereo: string; atoms: [number, number] };
    return { a: x.atoms[0], b: x.atoms[1], order: Number(x.bo), stereo: String(x.stereo) };
  });
  const ext = mol.extensions?.find((e) => e.name === 'rdkitRepresentation');
  return { atoms, bonds, rings: ext?.atomRings ?? [], cipRanks: ext?.cipRanks };
}

const SYMBOLS =
  'H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl Mc Lv Ts Og'.split(
    ' ',
  );

export function symbolOf(z: number): string {
  return SYMBOLS[z - 1] ?? '*';
}

export function atomicNumberOf(symbol: string): number | undefined {
  const i = SYMBOLS.indexOf(symbol);
  return i < 0 ? undefined : i + 1;
}

/** Hill order (C, H, then alphabetical; alphabetical throughout without carbon), net charge last as PubChem writes it. */
export function formulaOf(g: Graph): string {
  const counts = new Map<string, number>();
  const add = (s: string, n: number) => counts.set(s, (counts.get(s) ?? 0) + n);
  let charge = 0;
  for (const a of g.atoms) {
    if (a.z === 0) continue;
    add(symbolOf(a.z), 1);
    if (a.hs) add('H', a.hs);
    charge += a.charge;
  }
  const hasC = counts.has('C');
  const order = [...counts.keys()].sort((x, y) => {
    if (hasC) {
      const rank = (s: string) => (s === 'C' ? 0 : s === 'H' ? 1 : 2);
      if (rank(x) !== rank(y)) return rank(x) - rank(y);
    }
    return x < y ? -1 : x > y ? 1 : 0;
  });
  let f = order.map((s) => s + ((counts.get(s) ?? 0) > 1 ? String(counts.get(s)) : '')).join('');
  if (charge !== 0) f += (charge > 0 ? '+' : '-') + (Math.abs(charge) > 1 ? String(Math.abs(charge)) : '');
  return f;
}

function neighbours(g: Graph): number[][] {
  const n: number[][] = g.atoms.map(() => []);
  for (const b of g.bonds) {
    n[b.a]?.push(b.b);
    n[b.b]?.push(b.a);
  }
  return n;
}

/** Covalently bonded units: connected components of the heavy-atom graph. */
export function componentCount(g: Graph): number {
  const seen = new Uint8Array(g.atoms.length);
  const nb = neighbours(g);
  let units = 0;
  for (let i = 0; i < g.atoms.length; i++) {
    if (seen[i]) continue;
    units++;
    const stack = [i];
    seen[i] = 1;
    while (stack.length) {
      const x = stack.pop() as number;
      for (const y of nb[x] ?? []) {
        if (!seen[y]) {
          seen[y] = 1;
          stack.push(y);
        }
      }
    }
  }
  return units;
}

/**
 * Double bonds that can carry E/Z stereo: outside rings smaller than 8, and each end with two
 * different substituents (an implicit hydrogen counts as one; ranks come from RDKit's CIP ranking).
 */
export function stereoBondCandidates(g: Graph): number {
  const nb = neighbours(g);
  const smallRing = new Set<string>();
  for (const ring of g.rings) {
    if (ring.length >= 8) continue;
    for (let i = 0; i < ring.length; i++) {
      const x = ring[i] as number;
      const y = ring[(i + 1) % ring.length] as number;
      smallRing.add(`${Math.min(x, y)}-${Math.max(x, y)}`);
    }
  }
  const ranks = g.cipRanks;
  const distinct = (atom: number, partner: number): boolean => {
    const subs = (nb[atom] ?? []).filter((x) => x !== partner);
    const hs = g.atoms[atom]?.hs ?? 0;
    if (subs.length + hs !== 2) return false;
    if (hs === 1) return subs.length === 1;
    if (subs.length === 2 && ranks) return ranks[subs[0] as number] !== ranks[subs[1] as number];
    return false;
  };
  let n = 0;
  for (const b of g.bonds) {
    if (b.order !== 2) continue;
    if (smallRing.has(`${Math.min(b.a, b.b)}-${Math.max(b.a, b.b)}`)) continue;
    if (distinct(b.a, b.b) && distinct(b.b, b.a)) n++;
  }
  return n;
}

function infoEntropy(values: number[]): number {
  const total = values.reduce((a, b) => a + b, 0);
  if (total <= 0) return 0;
  let h = 0;
  for (const v of values) {
    if (v <= 0) continue;
    const p = v / total;
    h -= p * Math.log2(p);
  }
  return h;
}

/**
 * Bertz's complexity index (CT): information content of the graph's connections and of its atom
 * types, with symmetry classes from RDKit's CIP ranks. PubChem's Complexity (Cactvs, the
 * Bertz/Hendrickson/Ihlenfeldt formula) is related but not the same number.
 */
export function bertzComplexity(g: Graph): number {
  const nb = neighbours(g);
  const cls = (i: number) => g.cipRanks?.[i] ?? i;
  const order = new Map<string, number>();
  for (const b of g.bonds) order.set(`${Math.min(b.a, b.b)}-${Math.max(b.a, b.b)}`, b.order);
  const bo = (x: number, y: number) => order.get(`${Math.min(x, y)}-${Math.max(x, y)}`) ?? 1;
  const atomTypes = new Map<number, number>();
  const connections = new Map<string, number>();
  const bump = (k: string, v: number) => connections.set(k, (connections.get(k) ?? 0) + v);
  g.atoms.forEach((atom, i) => {
    atomTypes.set(atom.z, (atomTypes.get(atom.z) ?? 0) + 1);
    const list = nb[i] ?? [];
    for (let p = 0; p < list.length; p++) {
      const ni = list[p] as number;
      const oi = bo(i, ni);
      if (oi > 1 && ni > i) bump(`${Math.min(cls(i), cls(ni))}:${Math.max(cls(i), cls(ni))}`, (oi * (oi - 1)) / 2);
      for (let q = p + 1; q < list.length; q++) {
        const nj = list[q] as number;
        bump(`${Math.min(cls(ni), cls(nj))}:${cls(i)}:${Math.max(cls(ni), cls(nj))}`, oi * bo(i, nj));
      }
    }
  });
  const conn = connections.size ? [...connections.values()] : [1];
  const total = conn.reduce((a, b) => a + b, 0);
  const connectionIE = total * (infoEntropy(conn) + Math.log2(total));
  const atomIE = g.atoms.length * infoEntropy([...atomTypes.values()]);
  return atomIE + connectionIE;
}
