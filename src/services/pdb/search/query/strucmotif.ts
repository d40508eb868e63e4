/**
 * `strucmotif`: small arrangements of residues (2 to 10), found as the RCSB's strucmotif-search
 * finds them. The motif index built by the archive load (motif-index.ts) gives, for each pair of
 * the motif, the pairs of the archive whose descriptors (residue types, Cα and Cβ distances, the
 * angle between the Cα→Cβ vectors) fall within the tolerances; pairs that chain into a whole motif
 * are candidates; a superposition on the chosen atoms scores each, and those within the RMSD
 * cutoff are hits. The motif is residues of a loaded entry, or of a file (`url`, `data`).
 */
import type { SearchScope, TerminalResult } from './engine.js';
import { mapIds } from './engine.js';
import { coordIndexes } from '../build/engine-indexes.js';
import { badQuery } from '../../errors.js';
import { AMINO_CODE, MAX_PAIR, binAngle, binDist, cbAngle, dist, findResidue, motifResidues, pairKey, pairsOf, residueAt, type MotifIndex, type Residue } from '../build/motif-index.js';
import { queryResidues } from './query-file.js';
import type { ReturnType, Terminal } from './request.js';
import { superpose, type Vec3 } from './superpose.js';

const BACKBONE = new Set(['N', 'CA', 'C', 'O']);
/** Time one motif query may take (settable, for tests). */
export const motifSearchBudget = { ms: Number(process.env.BIOMIRROR_PDB_STRUCMOTIF_TIMEOUT_MS ?? 20_000) };
/** Partial matches kept while chaining pairs, per entry (bounds the work of loose motifs). */
const MAX_PARTIAL = 20_000;

interface MotifResidue {
  asym: string;
  seq: number;
  oper: string;
  res: Residue;
  allowed: string[];
}

type ResidueId = { label_asym_id: string; label_seq_id: number; struct_oper_id?: string };

/** The motif's residues with their atoms: of a loaded entry (from the index), or of the file given. */
async function motifOf(s: SearchScope, v: Record<string, unknown>, idx: MotifIndex): Promise<{ ids: ResidueId[]; residues: Residue[] }> {
  const given = Array.isArray(v.residue_ids) ? (v.residue_ids as ResidueId[]) : undefined;
  if ('entry_id' in v) {
    const entry = String(v.entry_id).toUpperCase();
    const ids = given ?? [];
    const residues = ids.map((r) => {
      const i = findResidue(idx, entry, r.label_asym_id, r.label_seq_id);
      if (i === undefined) throw badQuery(`No amino-acid residue ${r.label_asym_id} ${r.label_seq_id} with a backbone in a loaded entry ${entry}`);
      return residueAt(idx, i);
    });
    return { ids, residues };
  }
  const file = motifResidues(await queryResidues(s, v));
  // Without residue_ids the file is the motif (an extracted motif holds nothing else).
  if (!given) {
    if (file.length < 2 || file.length > 10) throw badQuery(`Without residue_ids the structure file must hold the motif alone (2 to 10 amino-acid residues); it has ${file.length}`);
    return { ids: file.map((r) => ({ label_asym_id: r.asym, label_seq_id: r.seq })), residues: file };
  }
  const residues = given.map((r) => {
    const x = file.find((f) => f.asym === r.label_asym_id && f.seq === r.label_seq_id);
    if (!x) throw badQuery(`The structure file has no amino-acid residue ${r.label_asym_id} ${r.label_seq_id} with a backbone`);
    return x;
  });
  return { ids: given, residues };
}

/** The atoms a residue pair is superposed on, for the pairing scheme. */
function atomsFor(scheme: string, a: Residue, b: Residue): [Vec3[], Vec3[]] {
  const names =
    scheme === 'BACKBONE' ? ['N', 'CA', 'C', 'O'] : scheme === 'PSEUDO_ATOMS' ? [] : [...a.atoms.keys()].filter((n) => b.atoms.has(n) && (scheme === 'ALL' || !BACKBONE.has(n) || n === 'CA'));
  const pa: Vec3[] = [];
  const pb: Vec3[] = [];
  for (const n of names) {
    const x = a.atoms.get(n);
    const y = b.atoms.get(n);
    if (x && y) {
      pa.push(x);
      pb.push(y);
    }
  }
  // Exchanged residue types share no side-chain atoms: their Cα and Cβ stand for them.
  if (pa.length < 2 || scheme === 'PSEUDO_ATOMS') {
    pa.push(a.ca, a.cb);
    pb.push(b.ca, b.cb);
  }
  return [pa, pb];
}

type Edge = [number, number, number];
interface Tolerances {
  backbone: number;
  side: number;
  angle: number;
}

/** The motif's residues, each with the residue types it may be exchanged for; all within 20 Å of each other. */
function motifWithExchanges(p: Record<string, unknown>, ids: ResidueId[], residues: Residue[]): MotifResidue[] {
  const exchanges = new Map<string, string[]>();
  for (const x of (p.exchanges as { residue_id: { label_asym_id: string; label_seq_id: number }; allowed: string[] }[] | undefined) ?? []) {
    exchanges.set(`${x.residue_id.label_asym_id}:${x.residue_id.label_seq_id}`, x.allowed);
  }
  const motif: MotifResidue[] = ids.map((r, k) => {
    const res = residues[k] as Residue;
    const allowed = exchanges.get(`${r.label_asym_id}:${r.label_seq_id}`) ?? [res.comp];
    return { asym: r.label_asym_id, seq: r.label_seq_id, oper: r.struct_oper_id ?? '1', res, allowed: [...new Set([res.comp, ...allowed])] };
  });
  for (let i = 0; i < motif.length; i++)
    for (let j = i + 1; j < motif.length; j++)
      if (dist((motif[i] as MotifResidue).res.ca, (motif[j] as MotifResidue).res.ca) > MAX_PAIR) throw badQuery('Motif residues must lie within 20 Å of each other');
  return motif;
}

/** Edges: a spanning tree by Cα distance (KRUSKAL, the default) or every pair (NONE). */
function motifEdges(motif: MotifResidue[], strategy: unknown): Edge[] {
  const all: Edge[] = [];
  for (let i = 0; i < motif.length; i++) for (let j = i + 1; j < motif.length; j++) all.push([i, j, dist((motif[i] as MotifResidue).res.ca, (motif[j] as MotifResidue).res.ca)]);
  if (strategy === 'NONE') return all;
  const parent = motif.map((_, i) => i);
  const find = (x: number): number => (parent[x] === x ? x : (parent[x] = find(parent[x] as number)));
  const edges: Edge[] = [];
  for (const e of [...all].sort((a, b) => a[2] - b[2])) {
    const [ra, rb] = [find(e[0]), find(e[1])];
    if (ra !== rb) {
      parent[ra] = rb;
      edges.push(e);
    }
  }
  // Chain edges in an order where each after the first touches a residue already placed.
  const placed = new Set<number>([edges[0]?.[0] ?? 0]);
  const ordered: Edge[] = [];
  while (ordered.length < edges.length) {
    const next = edges.find((e) => !ordered.includes(e) && (placed.has(e[0]) || placed.has(e[1]))) as Edge;
    ordered.push(next);
    placed.add(next[0]);
    placed.add(next[1]);
  }
  return ordered;
}

/** Archive pairs like motif pair (i, j), within the tolerances: [a, b] residue indexes. */
async function pairsLike(idx: MotifIndex, motif: MotifResidue[], tol: Tolerances, i: number, j: number): Promise<number[]> {
  const a = (motif[i] as MotifResidue).res;
  const b = (motif[j] as MotifResidue).res;
  const dca = dist(a.ca, b.ca);
  const dcb = dist(a.cb, b.cb);
  const ang = cbAngle(a.ca, a.cb, b.ca, b.cb);
  // A pair is kept with its residue of the lower type first: (i, j) reads it as it is or turned.
  const wants: { key: number; turned: boolean }[] = [];
  for (const c1 of (motif[i] as MotifResidue).allowed)
    for (const c2 of (motif[j] as MotifResidue).allowed) {
      const k1 = AMINO_CODE.get(c1);
      const k2 = AMINO_CODE.get(c2);
      if (k1 === undefined || k2 === undefined) continue;
      for (let x = binDist(dca - tol.backbone); x <= binDist(dca + tol.backbone); x++)
        for (let y = binDist(dcb - tol.side); y <= binDist(dcb + tol.side); y++)
          for (let z = binAngle(ang) - tol.angle; z <= binAngle(ang) + tol.angle; z++) {
            const key = pairKey(Math.min(k1, k2), Math.max(k1, k2), x, y, z);
            if (key < 0) continue;
            if (k1 <= k2) wants.push({ key, turned: false });
            if (k1 >= k2) wants.push({ key, turned: true });
          }
    }
  const keys = [...new Set(wants.map((w) => w.key))];
  const read = new Map((await pairsOf(idx, keys)).map((p) => [p.key, p.pairs]));
  const out: number[] = [];
  for (const w of wants) {
    const list = read.get(w.key);
    if (!list) continue;
    for (let k = 0; k < list.length; k += 2) {
      if (w.turned) out.push(list[k + 1] as number, list[k] as number);
      else out.push(list[k] as number, list[k + 1] as number);
    }
  }
  return out;
}

/** The partial assignments of the first edge's pairs (motif position → archive residue), in the entries searched. */
function firstPairs(idx: MotifIndex, e: Edge, found: number[], searched: (entryId: string) => boolean): Map<number, number>[] {
  const partial: Map<number, number>[] = [];
  for (let k = 0; k < found.length; k += 2) {
    const entryId = idx.entries[idx.resEntry[found[k] as number] as number] as string;
    if (!searched(entryId)) continue;
    partial.push(
      new Map([
        [e[0], found[k] as number],
        [e[1], found[k + 1] as number],
      ]),
    );
  }
  return partial;
}

/** Partial assignments grown by one edge's pairs: each joins those that share its placed residue. */
function grow(partial: Map<number, number>[], e: Edge, found: number[]): Map<number, number>[] {
  const byFirst = new Map<number, number[]>();
  const byOther = new Map<number, number[]>();
  const add = (m: Map<number, number[]>, from: number, to: number) => {
    const l = m.get(from);
    if (l) l.push(to);
    else m.set(from, [to]);
  };
  for (let k = 0; k < found.length; k += 2) {
    add(byFirst, found[k] as number, found[k + 1] as number);
    add(byOther, found[k + 1] as number, found[k] as number);
  }
  const next: Map<number, number>[] = [];
  for (const m of partial) {
    const [known, other, index] = m.has(e[0]) ? [e[0], e[1], byFirst] : [e[1], e[0], byOther];
    const have = m.get(known);
    if (m.has(other)) {
      if ((index.get(have as number) ?? []).includes(m.get(other) as number)) next.push(m);
      continue;
    }
    for (const r of index.get(have as number) ?? []) {
      if ([...m.values()].includes(r)) continue;
      const grown = new Map(m);
      grown.set(other, r);
      next.push(grown);
      if (next.length > MAX_PARTIAL * 10) throw badQuery('The structure motif matches too much of the archive: tighten the tolerances or reduce the exchanges');
    }
  }
  return next;
}

export async function strucmotifTerminal(t: Terminal, rt: ReturnType, s: SearchScope): Promise<TerminalResult> {
  const p = t.parameters;
  const v = p.value as Record<string, unknown>;
  const scores = new Map<string, number>();
  const contexts = new Map<string, Record<string, unknown>[]>();
  const idx = (await coordIndexes(s))?.motifs;
  if (!idx) return { scores };
  const { ids, residues } = await motifOf(s, v, idx);
  const motif = motifWithExchanges(p, ids, residues);
  const tol: Tolerances = {
    backbone: Number(p.backbone_distance_tolerance ?? 1),
    side: Number(p.side_chain_distance_tolerance ?? 1),
    angle: Number(p.angle_tolerance ?? 1),
  };
  const cutoff = Number(p.rmsd_cutoff ?? 2);
  const scheme = String(p.atom_pairing_scheme ?? 'SIDE_CHAIN');
  const limit = typeof p.limit === 'number' ? p.limit : 50_000;
  const allowedStructures = new Set(((p.allowed_structures as string[] | undefined) ?? []).map((x) => x.toUpperCase()));
  const excluded = new Set(((p.excluded_structures as string[] | undefined) ?? []).map((x) => x.toUpperCase()));
  const searched = (entryId: string) => !((allowedStructures.size && !allowedStructures.has(entryId)) || excluded.has(entryId));
  const edges = motifEdges(motif, p.motif_pruning_strategy);
  const deadline = Date.now() + motifSearchBudget.ms;
  const checkTime = () => {
    if (Date.now() > deadline) throw badQuery(`The structure motif search ran past its time limit (${motifSearchBudget.ms} ms): tighten the tolerances or reduce the exchanges`);
  };
  // Partial assignments: motif position → archive residue, grown edge by edge.
  let partial: Map<number, number>[] = [];
  for (const [n, e] of edges.entries()) {
    checkTime();
    const found = await pairsLike(idx, motif, tol, e[0], e[1]);
    partial = n === 0 ? firstPairs(idx, e, found, searched) : grow(partial, e, found);
  }
  let hits = 0;
  for (const m of partial) {
    if (m.size !== motif.length) continue;
    checkTime();
    const pa: Vec3[] = [];
    const pb: Vec3[] = [];
    const found = motif.map((_, i) => residueAt(idx, m.get(i) as number));
    for (let i = 0; i < motif.length; i++) {
      const [x, y] = atomsFor(scheme, (motif[i] as MotifResidue).res, found[i] as Residue);
      pa.push(...y);
      pb.push(...x);
    }
    const sp = superpose(pa, pb);
    if (sp.rmsd > cutoff) continue;
    const entryId = idx.entries[(found[0] as Residue).entry] as string;
    const ctx = {
      residue_ids: found.map((r) => ({ label_asym_id: r.asym, label_seq_id: r.seq, struct_oper_id: '1' })),
      score: Math.round(sp.rmsd * 100) / 100,
      residue_types: found.map((r) => r.comp),
      transformation: sp.transformation.map((x) => Math.round(x * 1000) / 1000),
    };
    contexts.set(entryId, [...(contexts.get(entryId) ?? []), ctx]);
    // Ranking: the best (lowest) RMSD of the entry, as 1 / (1 + RMSD).
    scores.set(entryId, Math.max(scores.get(entryId) ?? 0, 1 / (1 + sp.rmsd)));
    if (++hits >= limit) break;
  }
  return mapIds(s, 'entry', { scores, contexts }, rt);
}
