/** A molecule as PubChem's substructure keys see it: its graph, its extended ring set, its aromaticity. */
// ---------------------------------------------------------------------------------------------
// The molecule as the keys see it: heavy atoms (and any hydrogen that is not a plain substituent)
// with hydrogen counts, charges, Kekulé bond orders, and the aromatic flags decided below.

export interface Target {
  n: number;
  z: Int32Array;
  h: Int32Array;
  charge: Int32Array;
  adj: number[][];
  adjBond: number[][];
  bondA: Int32Array;
  bondB: Int32Array;
  order: Int32Array;
  /** Set by perceiveAromaticity. */
  arom: Uint8Array;
  bondArom: Uint8Array;
  /** A charge-separated P, S, As or Se oxide bond (X+–O−), which PubChem matches as a double bond. */
  ylide: Uint8Array;
  byZ: Map<number, number[]>;
  /** RDKit's smallest rings, then the extended ones. */
  sssr: number[][];
  rings: number[][];
  /** Element counts, hydrogens included. */
  elements: Map<number, number>;
}

interface RdkitJson {
  defaults: { atom: { z?: number; impHs?: number; chg?: number }; bond: { bo?: number } };
  molecules: {
    atoms: { z?: number; impHs?: number; chg?: number }[];
    bonds?: { bo?: number; atoms: [number, number] }[];
    extensions?: { name: string; atomRings?: number[][] }[];
  }[];
}

export function inc(a: Int32Array, i: number, k = 1): void {
  a[i] = (a[i] as number) + k;
}

export function targetOf(json: string): Target {
  const doc = JSON.parse(json) as RdkitJson;
  const mol = doc.molecules[0];
  const atomsIn = mol?.atoms ?? [];
  const bondsIn = mol?.bonds ?? [];
  const da = doc.defaults.atom;
  const dbo = doc.defaults.bond.bo ?? 1;
  const n0 = atomsIn.length;
  const z0 = atomsIn.map((a) => a.z ?? da.z ?? 6);
  const deg0 = new Int32Array(n0);
  for (const b of bondsIn) {
    inc(deg0, b.atoms[0]);
    inc(deg0, b.atoms[1]);
  }
  // A hydrogen atom bonded to one other, non-hydrogen atom becomes part of that atom's count.
  const host = new Int32Array(n0).fill(-1);
  for (const b of bondsIn) {
    const [x, y] = b.atoms;
    if (z0[x] === 1 && deg0[x] === 1 && z0[y] !== 1) host[x] = y;
    else if (z0[y] === 1 && deg0[y] === 1 && z0[x] !== 1) host[y] = x;
  }
  const index = new Int32Array(n0).fill(-1);
  let n = 0;
  for (let i = 0; i < n0; i++) if ((host[i] as number) < 0) index[i] = n++;
  const z = new Int32Array(n);
  const h = new Int32Array(n);
  const charge = new Int32Array(n);
  const elements = new Map<number, number>();
  const count = (e: number, k: number) => {
    if (k) elements.set(e, (elements.get(e) ?? 0) + k);
  };
  atomsIn.forEach((a, i) => {
    const e = z0[i] as number;
    const hs = a.impHs ?? da.impHs ?? 0;
    count(e, 1);
    count(1, hs);
    const j = index[i] as number;
    if (j >= 0) {
      z[j] = e;
      charge[j] = a.chg ?? da.chg ?? 0;
      inc(h, j, hs);
    } else inc(h, index[host[i] as number] as number);
  });
  const adj: number[][] = Array.from({ length: n }, () => []);
  const adjBond: number[][] = Array.from({ length: n }, () => []);
  const bA: number[] = [];
  const bB: number[] = [];
  const ord: number[] = [];
  for (const b of bondsIn) {
    const x = index[b.atoms[0]] as number;
    const y = index[b.atoms[1]] as number;
    if (x < 0 || y < 0) continue;
    const id = bA.length;
    bA.push(x);
    bB.push(y);
    ord.push(b.bo ?? dbo);
    (adj[x] as number[]).push(y);
    (adjBond[x] as number[]).push(id);
    (adj[y] as number[]).push(x);
    (adjBond[y] as number[]).push(id);
  }
  const byZ = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const list = byZ.get(z[i] as number);
    if (list) list.push(i);
    else byZ.set(z[i] as number, [i]);
  }
  const ext = mol?.extensions?.find((e) => e.name === 'rdkitRepresentation');
  const sssr = (ext?.atomRings ?? []).map((r) => r.map((a) => index[a] as number));
  const t: Target = {
    n,
    z,
    h,
    charge,
    adj,
    adjBond,
    bondA: Int32Array.from(bA),
    bondB: Int32Array.from(bB),
    order: Int32Array.from(ord),
    arom: new Uint8Array(n),
    bondArom: new Uint8Array(bA.length),
    ylide: new Uint8Array(bA.length),
    byZ,
    sssr,
    rings: [],
    elements,
  };
  const oxideO = (a: number) => t.charge[a] === -1 && t.z[a] === 8;
  const oxideX = (a: number) => (t.charge[a] as number) > 0 && [15, 16, 33, 34].includes(t.z[a] as number);
  for (let b = 0; b < bA.length; b++) {
    const x = bA[b] as number;
    const y = bB[b] as number;
    if (ord[b] === 1 && ((oxideO(x) && oxideX(y)) || (oxideO(y) && oxideX(x)))) t.ylide[b] = 1;
  }
  t.rings = extendedRings(t);
  perceiveAromaticity(t);
  return t;
}

export function bondBetween(t: Target, x: number, y: number): number {
  const nb = t.adj[x] as number[];
  for (let i = 0; i < nb.length; i++) if (nb[i] === y) return (t.adjBond[x] as number[])[i] as number;
  return -1;
}

export function ringBondsOf(t: Target, r: number[]): number[] {
  return r.map((a, i) => bondBetween(t, a, r[(i + 1) % r.length] as number)).filter((b) => b >= 0);
}

// ---------------------------------------------------------------------------------------------
// Rings: the extended SSSR. RDKit's smallest rings, then for every atom with three or more ring
// bonds and two of them that no ring yet holds together, the shortest ring through both (so
// naphthalene gets its ten-membered envelope and biphenyl nothing more).

function extendedRings(t: Target): number[][] {
  const rings = t.sssr.map((r) => r.slice());
  if (rings.length < 2) return rings;
  const bondRings: number[][] = Array.from({ length: t.order.length }, () => []);
  const ringBond = new Uint8Array(t.order.length);
  const add = (r: number[], k: number) => {
    for (const b of ringBondsOf(t, r)) {
      (bondRings[b] as number[]).push(k);
      ringBond[b] = 1;
    }
  };
  rings.forEach(add);
  const prev = new Int32Array(t.n);
  for (let v = 0; v < t.n; v++) {
    const nb: number[] = [];
    const nbBond: number[] = [];
    (t.adj[v] as number[]).forEach((u, i) => {
      const b = (t.adjBond[v] as number[])[i] as number;
      if (ringBond[b]) {
        nb.push(u);
        nbBond.push(b);
      }
    });
    if (nb.length < 3) continue;
    for (let i = 0; i < nb.length; i++) {
      for (let j = i + 1; j < nb.length; j++) {
        const ri = bondRings[nbBond[i] as number] as number[];
        const rj = bondRings[nbBond[j] as number] as number[];
        if (ri.some((k) => rj.includes(k))) continue;
        // Breadth-first from one neighbour to the other over ring bonds, not through v.
        const from = nb[i] as number;
        const to = nb[j] as number;
        prev.fill(-2);
        prev[v] = -3;
        prev[from] = -1;
        const queue = [from];
        let found = false;
        for (let q = 0; q < queue.length && !found; q++) {
          const x = queue[q] as number;
          const adj = t.adj[x] as number[];
          for (let k = 0; k < adj.length; k++) {
            const y = adj[k] as number;
            if (prev[y] !== -2 || !ringBond[(t.adjBond[x] as number[])[k] as number]) continue;
            prev[y] = x;
            if (y === to) {
              found = true;
              break;
            }
            queue.push(y);
          }
        }
        if (!found) continue;
        const ring = [v];
        for (let x = to; x !== -1; x = prev[x] as number) ring.push(x);
        rings.push(ring);
        add(ring, rings.length - 1);
      }
    }
  }
  return rings;
}

// ---------------------------------------------------------------------------------------------
// Aromaticity. A ring is aromatic when each atom brings a p orbital — a double bond (1 electron),
// a lone pair (2) or an empty orbital (0) — the count is 4n + 2, and some Kekulé structure of the
// molecule has every double-bonded atom of the ring bonded doubly within the ring. Its bonds and
// atoms are then aromatic; a ring of aromatic bonds that is only aromatic through its neighbours
// (the six-membered ring of imidazo[1,2-a]pyridine) has aromatic bonds but does not count as an
// aromatic ring in bits 255–262.

/** What an atom without a double bond gives a ring's pi system: 2 for a lone pair, 0, or -1. */
function lonePair(t: Target, a: number): number {
  const z = t.z[a] as number;
  const q = t.charge[a] as number;
  const degree = (t.adj[a] as number[]).length + (t.h[a] as number);
  switch (z) {
    case 6:
    case 14:
      return degree !== 3 ? -1 : q === -1 ? 2 : q === 1 ? 0 : -1;
    case 7:
    case 15:
    case 33:
    case 51:
      return q === 0 && degree === 3 ? 2 : q === -1 && degree === 2 ? 2 : -1;
    case 8:
    case 16:
    case 34:
    case 52:
      return q === 0 ? 2 : -1;
    case 5:
      return q === 0 && degree === 3 ? 0 : q === -1 ? 2 : -1;
    default:
      return -1;
  }
}

/** Atoms that take part in Kekulé structures: one double bond, to an atom with one double bond. */
function piAtoms(t: Target): { doubles: Int32Array; paired: Uint8Array } {
  const doubles = new Int32Array(t.n);
  const partner = new Int32Array(t.n).fill(-1);
  const odd = new Uint8Array(t.n);
  for (let b = 0; b < t.order.length; b++) {
    const o = t.order[b] as number;
    const x = t.bondA[b] as number;
    const y = t.bondB[b] as number;
    if (o === 2) {
      inc(doubles, x);
      inc(doubles, y);
      partner[x] = y;
      partner[y] = x;
    } else if (o !== 1) odd[x] = odd[y] = 1;
  }
  const paired = new Uint8Array(t.n);
  for (let a = 0; a < t.n; a++) {
    const p = partner[a] as number;
    if (doubles[a] === 1 && !odd[a] && doubles[p] === 1 && !odd[p]) paired[a] = 1;
  }
  return { doubles, paired };
}

function perceiveAromaticity(t: Target): void {
  if (t.rings.length === 0) return;
  const { doubles, paired } = piAtoms(t);
  // Connected groups of paired atoms: a ring's test only has to re-pair the groups it touches.
  const group = new Int32Array(t.n).fill(-1);
  const members: number[][] = [];
  for (let a = 0; a < t.n; a++) {
    if (!paired[a] || (group[a] as number) >= 0) continue;
    const list = [a];
    group[a] = members.length;
    for (let i = 0; i < list.length; i++) {
      for (const y of t.adj[list[i] as number] as number[]) {
        if (paired[y] && (group[y] as number) < 0) {
          group[y] = members.length;
          list.push(y);
        }
      }
    }
    members.push(list);
  }
  const taken = new Uint8Array(t.n);
  let budget = 0;
  // Whether the paired atoms of `pool` not yet taken can all be paired along bonds.
  const pairUp = (pool: number[]): boolean => {
    if (--budget < 0) return false;
    let best = -1;
    let options = 99;
    for (const a of pool) {
      if (taken[a]) continue;
      let c = 0;
      for (const y of t.adj[a] as number[]) if (paired[y] && !taken[y]) c++;
      if (c < options) {
        best = a;
        options = c;
        if (c <= 1) break;
      }
    }
    if (best < 0) return true;
    if (options === 0) return false;
    taken[best] = 1;
    let ok = false;
    for (const y of t.adj[best] as number[]) {
      if (!paired[y] || taken[y]) continue;
      taken[y] = 1;
      ok = pairUp(pool);
      taken[y] = 0;
      if (ok) break;
    }
    taken[best] = 0;
    return ok;
  };
  const aromatic = (r: number[]): boolean => {
    let electrons = 0;
    for (const a of r) {
      if (paired[a]) electrons += 1;
      else {
        const e = doubles[a] ? -1 : lonePair(t, a);
        if (e < 0) return false;
        electrons += e;
      }
    }
    if (electrons % 4 !== 2) return false;
    // The ring's paired atoms pair up along the ring: every run of them between lone-pair atoms
    // (or the whole ring) has an even length.
    const start = r.findIndex((a) => !paired[a]);
    if (start < 0) {
      if (r.length % 2) return false;
    } else {
      let run = 0;
      for (let k = 1; k <= r.length; k++) {
        if (paired[r[(start + k) % r.length] as number]) run++;
        else if (run % 2) return false;
        else run = 0;
      }
    }
    // And the rest of each pi system it touches can still be paired.
    for (const a of r) if (paired[a]) taken[a] = 1;
    let ok = true;
    for (const g of new Set(r.filter((a) => paired[a]).map((a) => group[a] as number))) {
      budget = 20_000;
      if (!pairUp(members[g] as number[])) {
        ok = false;
        break;
      }
    }
    for (const a of r) taken[a] = 0;
    return ok;
  };
  for (const r of t.rings) {
    if (!aromatic(r)) continue;
    for (const a of r) t.arom[a] = 1;
    for (const b of ringBondsOf(t, r)) t.bondArom[b] = 1;
  }
}

/** A ring of aromatic bonds counts as an aromatic ring when it has 4n + 2 pi electrons itself. */
export function aromaticRing(t: Target, r: number[]): boolean {
  let electrons = 0;
  for (const a of r) {
    let doubles = 0;
    for (const b of t.adjBond[a] as number[]) if (t.order[b] === 2) doubles++;
    electrons += doubles ? 1 : Math.max(0, lonePair(t, a));
  }
  return electrons % 4 === 2;
}
