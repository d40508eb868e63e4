/**
 * `strucmotif`: small arrangements of residues (2 to 10), found as the RCSB's strucmotif-search
 * finds them. An inverted index of residue-pair descriptors (the two residue types, their Cα
 * distance, their Cβ distance and the angle between their Cα→Cβ vectors, binned) gives, for each
 * pair of the motif, the pairs of the archive that look alike within the tolerances; pairs that
 * chain into a whole motif are candidates; a superposition on the chosen atoms scores each, and
 * those within the RMSD cutoff are hits.
 *
 * The index is built from the stored mmCIF files once per archive generation, on the first motif
 * query, and held in memory.
 */
import { gunzipSync } from 'node:zlib';
import { fileStoreOf } from '../../../core/files/store.js';
import { readBlock } from '../cif/block.js';
import type { SearchScope, TerminalResult } from './engine.js';
import { mapIds, perGeneration } from './engine.js';
import { bad } from './errors.js';
import type { ReturnType, Terminal } from './request.js';
import { superpose, type Vec3 } from './superpose.js';

const AMINO = new Set(['ALA', 'ARG', 'ASN', 'ASP', 'CYS', 'GLN', 'GLU', 'GLY', 'HIS', 'ILE', 'LEU', 'LYS', 'MET', 'PHE', 'PRO', 'SER', 'THR', 'TRP', 'TYR', 'VAL', 'SEC', 'PYL']);
/** Residues further apart than this (Cα) are never paired, as in strucmotif-search. */
const MAX_PAIR = 20;
const BACKBONE = new Set(['N', 'CA', 'C', 'O']);
/** Time one motif query may take (settable, for tests). */
export const motifSearchBudget = { ms: Number(process.env.BIOMIRROR_PDB_STRUCMOTIF_TIMEOUT_MS ?? 20_000) };
/** Partial matches kept while chaining pairs, per entry (bounds the work of loose motifs). */
const MAX_PARTIAL = 20_000;

interface Residue {
  entry: number;
  asym: string;
  seq: number;
  comp: string;
  atoms: Map<string, Vec3>;
  ca: Vec3;
  cb: Vec3;
}

interface MotifIndex {
  entries: string[];
  residues: Residue[];
  /** Descriptor key → pairs [residue a, residue b] (a before b in load order). */
  pairs: Map<string, number[]>;
  byId: Map<string, number>;
}

const dist = (a: Vec3, b: Vec3) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

/** Glycine's virtual Cβ, from its backbone (ideal geometry). */
function virtualCb(n: Vec3, ca: Vec3, c: Vec3): Vec3 {
  const b = sub(ca, n);
  const cc = sub(c, ca);
  const a: Vec3 = [b[1] * cc[2] - b[2] * cc[1], b[2] * cc[0] - b[0] * cc[2], b[0] * cc[1] - b[1] * cc[0]];
  return [-0.58273431 * a[0] + 0.56802827 * b[0] - 0.54067466 * cc[0] + ca[0], -0.58273431 * a[1] + 0.56802827 * b[1] - 0.54067466 * cc[1] + ca[1], -0.58273431 * a[2] + 0.56802827 * b[2] - 0.54067466 * cc[2] + ca[2]];
}

function angle(a: Residue, b: Residue): number {
  const u = sub(a.cb, a.ca);
  const v = sub(b.cb, b.ca);
  const d = (u[0] * v[0] + u[1] * v[1] + u[2] * v[2]) / (Math.hypot(...u) * Math.hypot(...v) || 1);
  return (Math.acos(Math.max(-1, Math.min(1, d))) * 180) / Math.PI;
}

const key = (c1: string, c2: string, dca: number, dcb: number, ang: number) => `${c1}:${c2}:${dca}:${dcb}:${ang}`;
const binDist = (d: number) => Math.floor(d);
const binAngle = (a: number) => Math.floor(a / 20);

const indexes = perGeneration<MotifIndex>();

function indexOf(s: SearchScope): Promise<MotifIndex> {
  const n = s.archive;
  const data = s.archiveTables;
  if (!n || !data) return Promise.resolve({ entries: [], residues: [], pairs: new Map(), byId: new Map() });
  return indexes(s.db, `${n.sobj}:motif`, async () => {
    const idx: MotifIndex = { entries: [], residues: [], pairs: new Map(), byId: new Map() };
    const files = fileStoreOf(s.db);
    const rows = await s.db.query<{ entry_id: string; file_key: string }>(`SELECT entry_id, file_key FROM ${data.entries} ORDER BY entry_id`);
    for (const e of rows) {
      const gz = await files.get(e.file_key);
      if (!gz) continue;
      let block;
      try {
        block = await readBlock(gunzipSync(gz).toString('utf8'));
      } catch {
        continue;
      }
      const entryIdx = idx.entries.push(e.entry_id) - 1;
      const t = block.table('atom_site');
      const model = t.str('pdbx_PDB_model_num', 0);
      const byRes = new Map<string, Residue>();
      for (let r = 0; r < t.rows; r++) {
        if (t.str('group_PDB', r) !== 'ATOM') continue;
        if (model !== undefined && t.str('pdbx_PDB_model_num', r) !== model) continue;
        const comp = t.str('label_comp_id', r) ?? '';
        if (!AMINO.has(comp)) continue;
        const asym = t.str('label_asym_id', r) ?? '';
        const seq = t.int('label_seq_id', r);
        const name = t.str('label_atom_id', r) ?? '';
        const x = t.num('Cartn_x', r);
        const y = t.num('Cartn_y', r);
        const z = t.num('Cartn_z', r);
        if (seq === undefined || x === undefined || y === undefined || z === undefined) continue;
        const rk = `${asym}:${seq}`;
        let res = byRes.get(rk);
        if (!res) byRes.set(rk, (res = { entry: entryIdx, asym, seq, comp, atoms: new Map(), ca: [0, 0, 0], cb: [0, 0, 0] }));
        if (!res.atoms.has(name)) res.atoms.set(name, [x, y, z]);
      }
      const list: number[] = [];
      for (const res of byRes.values()) {
        const ca = res.atoms.get('CA');
        const nn = res.atoms.get('N');
        const c = res.atoms.get('C');
        if (!ca || !nn || !c) continue;
        res.ca = ca;
        res.cb = res.atoms.get('CB') ?? virtualCb(nn, ca, c);
        idx.byId.set(`${e.entry_id}:${res.asym}:${res.seq}`, idx.residues.length);
        list.push(idx.residues.push(res) - 1);
      }
      // Pairs within 20 Å, by a grid of 20 Å cells.
      const grid = new Map<string, number[]>();
      const cell = (p: Vec3) => [Math.floor(p[0] / MAX_PAIR), Math.floor(p[1] / MAX_PAIR), Math.floor(p[2] / MAX_PAIR)];
      for (const i of list) {
        const [gx, gy, gz] = cell((idx.residues[i] as Residue).ca) as [number, number, number];
        const k = `${gx},${gy},${gz}`;
        grid.set(k, [...(grid.get(k) ?? []), i]);
      }
      for (const i of list) {
        const a = idx.residues[i] as Residue;
        const [gx, gy, gz] = cell(a.ca) as [number, number, number];
        for (let dx = -1; dx <= 1; dx++)
          for (let dy = -1; dy <= 1; dy++)
            for (let dz = -1; dz <= 1; dz++) {
              for (const j of grid.get(`${gx + dx},${gy + dy},${gz + dz}`) ?? []) {
                if (j === i) continue;
                const b = idx.residues[j] as Residue;
                const d = dist(a.ca, b.ca);
                if (d > MAX_PAIR) continue;
                const k = key(a.comp, b.comp, binDist(d), binDist(dist(a.cb, b.cb)), binAngle(angle(a, b)));
                let p = idx.pairs.get(k);
                if (!p) idx.pairs.set(k, (p = []));
                p.push(i, j);
              }
            }
      }
    }
    return idx;
  });
}

interface MotifResidue {
  asym: string;
  seq: number;
  oper: string;
  res: Residue;
  allowed: string[];
}

/** The atoms a residue pair is superposed on, for the pairing scheme. */
function atomsFor(scheme: string, a: Residue, b: Residue): [Vec3[], Vec3[]] {
  const names =
    scheme === 'BACKBONE'
      ? ['N', 'CA', 'C', 'O']
      : scheme === 'PSEUDO_ATOMS'
        ? []
        : [...a.atoms.keys()].filter((n) => b.atoms.has(n) && (scheme === 'ALL' || !BACKBONE.has(n) || n === 'CA'));
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

export async function strucmotifTerminal(t: Terminal, rt: ReturnType, s: SearchScope): Promise<TerminalResult> {
  const p = t.parameters;
  const v = p.value as Record<string, unknown>;
  if (!('entry_id' in v) || !Array.isArray(v.residue_ids)) throw bad('Structure motif queries by file (url or data) are not served here: give entry_id and residue_ids');
  const idx = await indexOf(s);
  const entry = String(v.entry_id).toUpperCase();
  const ids = v.residue_ids as { label_asym_id: string; label_seq_id: number; struct_oper_id?: string }[];
  const exchanges = new Map<string, string[]>();
  for (const x of (p.exchanges as { residue_id: { label_asym_id: string; label_seq_id: number }; allowed: string[] }[] | undefined) ?? []) {
    exchanges.set(`${x.residue_id.label_asym_id}:${x.residue_id.label_seq_id}`, x.allowed);
  }
  const motif: MotifResidue[] = ids.map((r) => {
    const i = idx.byId.get(`${entry}:${r.label_asym_id}:${r.label_seq_id}`);
    if (i === undefined) throw bad(`No amino-acid residue ${r.label_asym_id} ${r.label_seq_id} with a backbone in a loaded entry ${entry}`);
    const res = idx.residues[i] as Residue;
    const allowed = exchanges.get(`${r.label_asym_id}:${r.label_seq_id}`) ?? [res.comp];
    return { asym: r.label_asym_id, seq: r.label_seq_id, oper: r.struct_oper_id ?? '1', res, allowed: [...new Set([res.comp, ...allowed])] };
  });
  for (let i = 0; i < motif.length; i++)
    for (let j = i + 1; j < motif.length; j++)
      if (dist((motif[i] as MotifResidue).res.ca, (motif[j] as MotifResidue).res.ca) > MAX_PAIR) throw bad('Motif residues must lie within 20 Å of each other');
  const tolBackbone = Number(p.backbone_distance_tolerance ?? 1);
  const tolSide = Number(p.side_chain_distance_tolerance ?? 1);
  const tolAngle = Number(p.angle_tolerance ?? 1);
  const cutoff = Number(p.rmsd_cutoff ?? 2);
  const scheme = String(p.atom_pairing_scheme ?? 'SIDE_CHAIN');
  const limit = typeof p.limit === 'number' ? p.limit : 50_000;
  const allowedStructures = new Set(((p.allowed_structures as string[] | undefined) ?? []).map((x) => x.toUpperCase()));
  const excluded = new Set(((p.excluded_structures as string[] | undefined) ?? []).map((x) => x.toUpperCase()));
  // Edges: a spanning tree by Cα distance (KRUSKAL, the default) or every pair (NONE).
  const all: [number, number, number][] = [];
  for (let i = 0; i < motif.length; i++) for (let j = i + 1; j < motif.length; j++) all.push([i, j, dist((motif[i] as MotifResidue).res.ca, (motif[j] as MotifResidue).res.ca)]);
  let edges = all;
  if (p.motif_pruning_strategy !== 'NONE') {
    const parent = motif.map((_, i) => i);
    const find = (x: number): number => (parent[x] === x ? x : (parent[x] = find(parent[x] as number)));
    edges = [];
    for (const e of [...all].sort((a, b) => a[2] - b[2])) {
      const [ra, rb] = [find(e[0]), find(e[1])];
      if (ra !== rb) {
        parent[ra] = rb;
        edges.push(e);
      }
    }
    // Chain edges in an order where each after the first touches a residue already placed.
    const placed = new Set<number>([edges[0]?.[0] ?? 0]);
    const ordered: typeof edges = [];
    while (ordered.length < edges.length) {
      const next = edges.find((e) => !ordered.includes(e) && (placed.has(e[0]) || placed.has(e[1]))) as (typeof edges)[number];
      ordered.push(next);
      placed.add(next[0]);
      placed.add(next[1]);
    }
    edges = ordered;
  }
  const deadline = Date.now() + motifSearchBudget.ms;
  const checkTime = () => {
    if (Date.now() > deadline) throw bad(`The structure motif search ran past its time limit (${motifSearchBudget.ms} ms): tighten the tolerances or reduce the exchanges`);
  };
  /** Archive pairs like motif pair (i, j), within the tolerances: [a, b] residue indexes. */
  const pairsLike = (i: number, j: number): number[] => {
    const a = (motif[i] as MotifResidue).res;
    const b = (motif[j] as MotifResidue).res;
    const dca = dist(a.ca, b.ca);
    const dcb = dist(a.cb, b.cb);
    const ang = angle(a, b);
    const out: number[] = [];
    for (const c1 of (motif[i] as MotifResidue).allowed)
      for (const c2 of (motif[j] as MotifResidue).allowed)
        for (let x = binDist(dca - tolBackbone); x <= binDist(dca + tolBackbone); x++)
          for (let y = binDist(dcb - tolSide); y <= binDist(dcb + tolSide); y++)
            for (let z = binAngle(ang) - tolAngle; z <= binAngle(ang) + tolAngle; z++) {
              const list = idx.pairs.get(key(c1, c2, x, y, z));
              if (list) for (const v2 of list) out.push(v2);
            }
    return out;
  };
  // Partial assignments: motif position → archive residue, grown edge by edge.
  let partial: Map<number, number>[] = [];
  for (const [n, e] of edges.entries()) {
    checkTime();
    const found = pairsLike(e[0], e[1]);
    if (n === 0) {
      for (let k = 0; k < found.length; k += 2) {
        const entryId = idx.entries[(idx.residues[found[k] as number] as Residue).entry] as string;
        if ((allowedStructures.size && !allowedStructures.has(entryId)) || excluded.has(entryId)) continue;
        partial.push(new Map([[e[0], found[k] as number], [e[1], found[k + 1] as number]]));
      }
    } else {
      const byFirst = new Map<number, number[]>();
      const byOther = new Map<number, number[]>();
      for (let k = 0; k < found.length; k += 2) {
        byFirst.set(found[k] as number, [...(byFirst.get(found[k] as number) ?? []), found[k + 1] as number]);
        byOther.set(found[k + 1] as number, [...(byOther.get(found[k + 1] as number) ?? []), found[k] as number]);
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
          if (next.length > MAX_PARTIAL * 10) throw bad('The structure motif matches too much of the archive: tighten the tolerances or reduce the exchanges');
        }
      }
      partial = next;
    }
  }
  const scores = new Map<string, number>();
  const contexts = new Map<string, Record<string, unknown>[]>();
  let hits = 0;
  for (const m of partial) {
    if (m.size !== motif.length) continue;
    checkTime();
    const pa: Vec3[] = [];
    const pb: Vec3[] = [];
    const found = motif.map((_, i) => idx.residues[m.get(i) as number] as Residue);
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
