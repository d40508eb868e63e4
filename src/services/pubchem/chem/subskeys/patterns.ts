/** The key definitions' patterns, compiled once into small queries matched on the molecule's graph. */
import { atomicNumberOf } from '../graph.js';
import { bondBetween, type Target } from './molecule.js';
import { ATOM_PAIRS, COMPLEX_PATTERNS, DETAILED_NEIGHBOURS, ELEMENT_COUNTS, SIMPLE_NEIGHBOURS, SIMPLE_PATTERNS } from './tables.js';
// ---------------------------------------------------------------------------------------------
// Patterns: the definition's notation, compiled once into queries matched on the graph above.

const enum Bond {
  Any,
  Aromatic,
  SingleOrAromatic,
  DoubleOrAromatic,
  Triple,
}

interface QueryAtom {
  z: number;
  /** Lower-case in the pattern: the atom must be aromatic. */
  aromatic: boolean;
  /** Hydrogens the pattern attaches to it. */
  minH: number;
}

/** A pattern in matching order: each atom after the first hangs off an earlier one. */
interface Query {
  atoms: QueryAtom[];
  parent: number[];
  parentBond: Bond[];
  /** Further bonds (ring closures) to earlier atoms. */
  closures: [number, Bond][][];
  /** Heavy atoms by element that a molecule needs before a match is worth trying. */
  needs: [number, number][];
}

const TWO_LETTER = new Set(['Li', 'Na', 'Mg', 'Al', 'Si', 'Cl', 'As', 'Se', 'Br']);

function bondKind(section: number, symbol: string | undefined, a: QueryAtom, b: QueryAtom): Bond {
  if (symbol === ':') return Bond.Aromatic;
  if (section <= 4) return Bond.Any;
  if (symbol === '#') return Bond.Triple;
  if (symbol === '=') return Bond.DoubleOrAromatic;
  if (section === 7 && symbol === undefined && a.aromatic && b.aromatic) return Bond.Aromatic;
  return Bond.SingleOrAromatic;
}

function compile(pattern: string, section: number): Query {
  const atoms: QueryAtom[] = [];
  const bonds: [number, number, string | undefined][] = [];
  const branches: number[] = [];
  const open = new Map<string, [number, string | undefined]>();
  let prev = -1;
  let pending: string | undefined;
  for (let i = 0; i < pattern.length;) {
    const c = pattern[i] as string;
    if (c === '(') {
      branches.push(prev);
      i++;
    } else if (c === ')') {
      prev = branches.pop() as number;
      i++;
    } else if ('-=#:~'.includes(c)) {
      pending = c;
      i++;
    } else if (c >= '0' && c <= '9') {
      const o = open.get(c);
      if (o) {
        bonds.push([o[0], prev, pending ?? o[1]]);
        open.delete(c);
      } else open.set(c, [prev, pending]);
      pending = undefined;
      i++;
    } else {
      let symbol: string;
      if (c === '[') {
        const end = pattern.indexOf(']', i);
        symbol = pattern.slice(i + 1, end);
        i = end + 1;
      } else if (TWO_LETTER.has(pattern.slice(i, i + 2))) {
        symbol = pattern.slice(i, i + 2);
        i += 2;
      } else {
        symbol = c;
        i++;
      }
      const aromatic = symbol >= 'a' && symbol <= 'z';
      const z = symbol.startsWith('#') ? Number(symbol.slice(1)) : atomicNumberOf(aromatic ? symbol.toUpperCase() : symbol);
      if (!z) throw new Error(`subskeys: bad atom ${symbol} in ${pattern}`);
      atoms.push({ z, aromatic, minH: 0 });
      if (prev >= 0) bonds.push([prev, atoms.length - 1, pending]);
      pending = undefined;
      prev = atoms.length - 1;
    }
  }
  // Hydrogens in the definition's patterns are always terminal: they become counts on their
  // neighbours (which then need that many hydrogens, implicit or not).
  const kept = atoms.map((a) => a.z !== 1);
  const nbrs: [number, Bond][][] = atoms.map(() => []);
  for (const [x, y, symbol] of bonds) {
    const ax = atoms[x] as QueryAtom;
    const ay = atoms[y] as QueryAtom;
    if (!kept[x]) ay.minH++;
    else if (!kept[y]) ax.minH++;
    else {
      const kind = bondKind(section, symbol, ax, ay);
      (nbrs[x] as [number, Bond][]).push([y, kind]);
      (nbrs[y] as [number, Bond][]).push([x, kind]);
    }
  }
  // Matching starts at the first atom that is not carbon (rarer), else the first atom.
  let root = atoms.findIndex((a, i) => kept[i] && a.z !== 6);
  if (root < 0) root = kept.indexOf(true);
  const order: number[] = [];
  const place = new Map<number, number>();
  const q: Query = { atoms: [], parent: [], parentBond: [], closures: [], needs: [] };
  const visit = (x: number, from: number, kind: Bond) => {
    place.set(x, order.length);
    order.push(x);
    q.atoms.push(atoms[x] as QueryAtom);
    q.parent.push(from < 0 ? -1 : (place.get(from) as number));
    q.parentBond.push(kind);
    q.closures.push([]);
    for (const [y, k] of nbrs[x] as [number, Bond][]) if (!place.has(y)) visit(y, x, k);
  };
  visit(root, -1, Bond.Any);
  // Bonds that are not tree edges close rings; check each when its later atom is placed.
  for (const [x, y] of bonds) {
    if (!kept[x] || !kept[y]) continue;
    const px = place.get(x) as number;
    const py = place.get(y) as number;
    const [early, late] = px < py ? [px, py] : [py, px];
    if (q.parent[late] === early) continue;
    const kind = (nbrs[x] as [number, Bond][]).find(([w]) => w === y)?.[1] ?? Bond.Any;
    (q.closures[late] as [number, Bond][]).push([early, kind]);
  }
  const needs = new Map<number, number>();
  for (const a of q.atoms) needs.set(a.z, (needs.get(a.z) ?? 0) + 1);
  q.needs = [...needs];
  return q;
}

function bondMatches(kind: Bond, t: Target, b: number): boolean {
  const aromatic = t.bondArom[b] === 1;
  const o = t.order[b] as number;
  switch (kind) {
    case Bond.Any:
      return true;
    case Bond.Aromatic:
      return aromatic;
    case Bond.SingleOrAromatic:
      return aromatic || o === 1;
    case Bond.DoubleOrAromatic:
      return aromatic || o === 2 || t.ylide[b] === 1;
    case Bond.Triple:
      return !aromatic && o === 3;
  }
}

function atomMatches(q: QueryAtom, t: Target, a: number): boolean {
  return t.z[a] === q.z && (t.h[a] as number) >= q.minH && (!q.aromatic || t.arom[a] === 1);
}

// Scratch space for matching: the target atom each query atom sits on, and target atoms in use.
let image = new Int32Array(256);
let used = new Uint8Array(256);

/** Makes the scratch space room for a molecule of `n` atoms. */
export function reserveScratch(n: number): void {
  if (image.length >= n) return;
  image = new Int32Array(n);
  used = new Uint8Array(n);
}

function extend(q: Query, t: Target, k: number): boolean {
  if (k === q.atoms.length) return true;
  const qa = q.atoms[k] as QueryAtom;
  const from = image[q.parent[k] as number] as number;
  const adj = t.adj[from] as number[];
  const adjBond = t.adjBond[from] as number[];
  const closures = q.closures[k] as [number, Bond][];
  next: for (let i = 0; i < adj.length; i++) {
    const a = adj[i] as number;
    if (used[a] || !atomMatches(qa, t, a) || !bondMatches(q.parentBond[k] as Bond, t, adjBond[i] as number)) continue;
    for (const [j, kind] of closures) {
      const b = bondBetween(t, a, image[j] as number);
      if (b < 0 || !bondMatches(kind, t, b)) continue next;
    }
    image[k] = a;
    used[a] = 1;
    const found = extend(q, t, k + 1);
    used[a] = 0;
    if (found) return true;
  }
  return false;
}

export function matches(q: Query, t: Target): boolean {
  for (const [z, c] of q.needs) if ((t.byZ.get(z)?.length ?? 0) < c) return false;
  const qa = q.atoms[0] as QueryAtom;
  for (const a of t.byZ.get(qa.z) ?? []) {
    if (!atomMatches(qa, t, a)) continue;
    image[0] = a;
    used[a] = 1;
    const found = extend(q, t, 1);
    used[a] = 0;
    if (found) return true;
  }
  return false;
}

interface Tables {
  /** [bit, atomic number, count] */
  elements: [number, number, number][];
  patterns: [number, Query][];
}
let tables: Tables | undefined;

export function compiled(): Tables {
  if (tables) return tables;
  const elements: [number, number, number][] = [];
  let bit = 0;
  for (const [symbol, counts] of ELEMENT_COUNTS) {
    for (const c of counts) elements.push([bit++, atomicNumberOf(symbol) as number, c]);
  }
  const patterns: [number, Query][] = [];
  const add = (first: number, list: string[], section: number) => list.forEach((p, i) => patterns.push([first + i, compile(p, section)]));
  add(
    263,
    ATOM_PAIRS.map((p) => p.replace('-', '~')),
    3,
  );
  add(327, SIMPLE_NEIGHBOURS, 4);
  add(416, DETAILED_NEIGHBOURS, 5);
  add(460, SIMPLE_PATTERNS, 6);
  add(713, COMPLEX_PATTERNS, 7);
  tables = { elements, patterns };
  return tables;
}
