/**
 * Pharmacophore features of a structure in PubChem3D's six kinds (acceptor, donor, anion, cation,
 * rings, hydrophobe), written as PubChem's PUBCHEM_PHARMACOPHORE_FEATURES lines: "<n> <atom
 * ids...> <kind>". PubChem assigns them with OpenEye's implicit Mills-Dean model; these rules
 * are this project's reading of that model (an acid group is one anion and its OH is no donor; an
 * amine or an amidine is one cation; aromatic rings only; isopropyl-like branches and heavy
 * halogens are hydrophobes). On the compounds whose PubChem features are known they agree
 * (docs/compatibility.md); elsewhere they are an approximation.
 */
import { readMolfile } from './sdf.js';

export type FeatureKind = 'acceptor' | 'donor' | 'anion' | 'cation' | 'rings' | 'hydrophobe';
export const FEATURE_KINDS: readonly FeatureKind[] = ['acceptor', 'donor', 'anion', 'cation', 'rings', 'hydrophobe'];

export interface Feature {
  kind: FeatureKind;
  /** 1-based atom numbers of the molfile. */
  atoms: number[];
}

interface Node {
  symbol: string;
  charge: number;
  /** Neighbours (0-based) with bond orders. */
  nb: { to: number; order: number }[];
  h: number;
}

function graphOf(molblock: string): Node[] | undefined {
  const mf = readMolfile(molblock);
  if (typeof mf === 'string') return undefined;
  const nodes: Node[] = mf.atoms.map((a) => ({ symbol: a.symbol, charge: a.charge, nb: [], h: 0 }));
  for (const b of mf.bonds) {
    const a = nodes[b.a - 1];
    const c = nodes[b.b - 1];
    if (!a || !c) return undefined;
    a.nb.push({ to: b.b - 1, order: b.order });
    c.nb.push({ to: b.a - 1, order: b.order });
  }
  for (const n of nodes) n.h = n.nb.filter((x) => nodes[x.to]?.symbol === 'H').length;
  return nodes;
}

const heavy = (g: Node[], i: number) => (g[i] as Node).nb.filter((x) => (g[x.to] as Node).symbol !== 'H');
const isH = (g: Node[], i: number) => (g[i] as Node).symbol === 'H';

/** Chordless cycles of 3 to 7 atoms. */
function smallRings(g: Node[]): number[][] {
  const rings: number[][] = [];
  const seen = new Set<string>();
  const bonded = (a: number, b: number) => (g[a] as Node).nb.some((x) => x.to === b);
  const walk = (start: number, path: number[]) => {
    const last = path[path.length - 1] as number;
    for (const { to } of heavy(g, last)) {
      if (to === start && path.length >= 3) {
        const key = [...path].sort((a, b) => a - b).join(',');
        if (seen.has(key)) continue;
        // A chord makes this cycle the union of two smaller ones.
        let chord = false;
        for (let i = 0; i < path.length && !chord; i++)
          for (let j = i + 2; j < path.length && !chord; j++) if (!(i === 0 && j === path.length - 1) && bonded(path[i] as number, path[j] as number)) chord = true;
        seen.add(key);
        if (!chord) rings.push([...path]);
        continue;
      }
      if (to <= start || path.includes(to) || path.length >= 7) continue;
      walk(start, [...path, to]);
    }
  };
  for (let i = 0; i < g.length; i++) if (!isH(g, i)) walk(i, [i]);
  return rings;
}

/** Huckel's rule on a ring of a Kekule structure: 4n+2 pi electrons, every atom contributing. */
function aromatic(g: Node[], ring: number[]): boolean {
  if (ring.length < 5) return false;
  let pi = 0;
  for (const i of ring) {
    const n = g[i] as Node;
    const inRingDouble = n.nb.some((x) => x.order === 2 && ring.includes(x.to));
    const exoDouble = n.nb.some((x) => x.order === 2 && !ring.includes(x.to));
    if (inRingDouble) pi += 1;
    else if (exoDouble && n.symbol === 'C') pi += 0;
    else if (['N', 'O', 'S'].includes(n.symbol) && n.nb.every((x) => x.order === 1)) pi += 2;
    else if (n.symbol === 'C' && n.charge === -1) pi += 2;
    else return false;
  }
  return (pi - 2) % 4 === 0;
}

/** Central atoms of acid groups (C, S, P) with their acidic and double-bonded oxygens. */
function acidGroups(g: Node[]): number[][] {
  const out: number[][] = [];
  g.forEach((n, i) => {
    if (!['C', 'S', 'P'].includes(n.symbol)) return;
    const oxo = n.nb.filter((x) => x.order === 2 && (g[x.to] as Node).symbol === 'O').map((x) => x.to);
    const acidic = n.nb.filter((x) => x.order === 1 && (g[x.to] as Node).symbol === 'O' && ((g[x.to] as Node).h > 0 || (g[x.to] as Node).charge < 0) && heavy(g, x.to).length === 1).map((x) => x.to);
    if (oxo.length && acidic.length) out.push([...acidic, ...oxo, i]);
  });
  return out;
}

/** Whether an atom carries a double bond to O, S or N (a carbonyl, sulfonyl, imine carbon...). */
const hasHeteroDouble = (g: Node[], i: number) => (g[i] as Node).nb.some((x) => x.order === 2 && ['O', 'S', 'N'].includes((g[x.to] as Node).symbol));

/** Basic groups: amidines and guanidines (N-C=N, one group), and amines not bonded to a carbonyl-like or aromatic atom. */
function cationGroups(g: Node[], aromaticAtoms: Set<number>): number[][] {
  const out: number[][] = [];
  const taken = new Set<number>();
  g.forEach((n, c) => {
    if (n.symbol !== 'C') return;
    const dbl = n.nb.find((x) => x.order === 2 && (g[x.to] as Node).symbol === 'N');
    if (!dbl) return;
    const singles = n.nb.filter((x) => x.order === 1 && (g[x.to] as Node).symbol === 'N' && !hasHeteroDouble(g, x.to) && (g[x.to] as Node).nb.every((y) => y.order === 1 || y.to === c));
    if (!singles.length) return;
    const group = [...singles.map((x) => x.to), dbl.to, c];
    group.forEach((a) => taken.add(a));
    out.push(group);
  });
  g.forEach((n, i) => {
    if (n.symbol !== 'N' || taken.has(i) || aromaticAtoms.has(i)) return;
    if (n.charge > 0 && n.nb.length === 4) return void out.push([i]);
    if (n.charge !== 0 || n.nb.some((x) => x.order !== 1)) return;
    const partners = heavy(g, i).map((x) => x.to);
    if (partners.some((p) => aromaticAtoms.has(p) || hasHeteroDouble(g, p) || !['C'].includes((g[p] as Node).symbol))) return;
    out.push([i]);
  });
  return out;
}

/** Isopropyl-like branches (an sp3 carbon with two or more methyls) and heavy halogens. */
function hydrophobes(g: Node[]): number[][] {
  const out: number[][] = [];
  const methyl = (i: number) => (g[i] as Node).symbol === 'C' && heavy(g, i).length === 1 && (g[i] as Node).h === 3;
  g.forEach((n, i) => {
    if (['Cl', 'Br', 'I'].includes(n.symbol)) return void out.push([i]);
    if (n.symbol !== 'C' || n.nb.some((x) => x.order !== 1)) return;
    const methyls = heavy(g, i)
      .map((x) => x.to)
      .filter(methyl);
    if (methyls.length >= 2) out.push([i, ...methyls]);
  });
  return out;
}

/** The features of a molfile with explicit hydrogens, or undefined when it cannot be read. */
export function featuresOf(molblock: string): Feature[] | undefined {
  const g = graphOf(molblock);
  if (!g) return undefined;
  const rings = smallRings(g).filter((r) => aromatic(g, r));
  const aromaticAtoms = new Set(rings.flat());
  const anions = acidGroups(g);
  const cations = cationGroups(g, aromaticAtoms);
  const inAcid = new Set(anions.flat());
  const inCation = new Set(cations.flat());
  const features: Feature[] = [];
  const one = (i: number) => [i + 1];
  g.forEach((n, i) => {
    if (n.symbol !== 'O' && n.symbol !== 'N') return;
    const partners = heavy(g, i).map((x) => x.to);
    if (!partners.length) return;
    // Acceptors: oxygens except those between an aromatic or carbonyl-like atom and another heavy atom.
    if (n.symbol === 'O' && !(partners.length === 2 && partners.some((p) => aromaticAtoms.has(p) || hasHeteroDouble(g, p)))) features.push({ kind: 'acceptor', atoms: one(i) });
    // Nitrogen acceptors: pyridine-like and nitrile nitrogens that are not part of a basic group.
    if (n.symbol === 'N' && !inCation.has(i) && n.h === 0 && n.charge === 0 && n.nb.some((x) => x.order >= 2) && !n.nb.some((x) => x.order === 2 && (g[x.to] as Node).symbol === 'O'))
      features.push({ kind: 'acceptor', atoms: one(i) });
    if (n.h > 0 && !inAcid.has(i)) features.push({ kind: 'donor', atoms: one(i) });
  });
  for (const a of anions) features.push({ kind: 'anion', atoms: a.map((i) => i + 1) });
  for (const c of cations) features.push({ kind: 'cation', atoms: c.map((i) => i + 1) });
  for (const r of rings) features.push({ kind: 'rings', atoms: [...r].sort((a, b) => a - b).map((i) => i + 1) });
  for (const h of hydrophobes(g)) features.push({ kind: 'hydrophobe', atoms: h.map((i) => i + 1) });
  // PubChem lists features by size, then kind, then atoms.
  const key = (f: Feature) => [f.atoms.length, f.kind, ...f.atoms] as const;
  return features.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < Math.max(ka.length, kb.length); i++) {
      const x = ka[i] ?? -1;
      const y = kb[i] ?? -1;
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  });
}

/** How many small rings of a molfile are not aromatic (flexible rings add to PubChem's effective rotor count). */
export function nonAromaticRings(molblock: string): number {
  const g = graphOf(molblock);
  if (!g) return 0;
  return smallRings(g).filter((r) => !aromatic(g, r)).length;
}

/** PubChem's tag text: the count, then one line per feature. */
export function featureLines(features: readonly Feature[]): string {
  return [String(features.length), ...features.map((f) => `${f.atoms.length} ${f.atoms.join(' ')} ${f.kind}`)].join('\n');
}

/** Features from PubChem's tag text; lines that do not read are skipped. */
export function parseFeatureLines(text: string): Feature[] {
  const out: Feature[] = [];
  for (const line of text.split('\n').slice(1)) {
    const parts = line.trim().split(/\s+/);
    const kind = parts[parts.length - 1] as FeatureKind;
    const n = Number(parts[0]);
    if (!FEATURE_KINDS.includes(kind) || !Number.isInteger(n) || parts.length !== n + 2) continue;
    out.push({ kind, atoms: parts.slice(1, -1).map(Number) });
  }
  return out;
}
