/**
 * `structure`: shape similarity of a chain or an assembly to the loaded ones, ranked by TM-score
 * from a real structural alignment (TM-align, in a child process per candidate with a time
 * budget). A prefilter keeps the alignment off most of the archive: candidates are the chains (or
 * assemblies) of compatible length whose Cα distance profile (distances to the centroid, binned
 * by the radius of gyration) is closest to the query's; only those are aligned.
 *
 * Cα traces are read from the stored mmCIF files once per generation, when first needed. The live
 * service now ranks by learned embeddings; TM-score is what those embeddings are trained to
 * predict, so `tmscore` is reported, and `ptmscore_cutoff` filters on it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { fileStoreOf } from '../../../core/files/store.js';
import { readBlock } from '../cif/block.js';
import type { SearchScope, TerminalResult } from './engine.js';
import { mapIds, perGeneration } from './engine.js';
import { bad, engineUnavailable } from './errors.js';
import type { ReturnType, Terminal } from './request.js';

const TMALIGN = process.env.BIOMIRROR_TMALIGN ?? 'TMalign';
/** Time for one alignment, and for the whole query. */
export const structureBudget = { alignMs: 20_000, totalMs: Number(process.env.BIOMIRROR_PDB_STRUCTURE_TIMEOUT_MS ?? 60_000) };
/** Candidates aligned at most, whatever number_of_candidates asks (the prefilter ranks the rest out). */
const MAX_ALIGNED = 200;
const BINS = 12;

let available: boolean | undefined;
export function tmalignAvailable(): boolean {
  available ??= spawnSync('sh', ['-c', `command -v ${TMALIGN}`], { stdio: 'ignore' }).status === 0;
  return available;
}
export function tmalignState(): { state: string } {
  return { state: tmalignAvailable() ? 'ok' : 'unavailable' };
}

interface Trace {
  id: string;
  coords: Float64Array;
  /** Cα distance profile to the centroid, for the prefilter. */
  profile: Float64Array;
}

interface Traces {
  chains: Map<string, Trace>;
  assemblies: Map<string, Trace>;
}

function profileOf(coords: Float64Array): Float64Array {
  const n = coords.length / 3;
  let cx = 0;
  let cy = 0;
  let cz = 0;
  for (let i = 0; i < n; i++) {
    cx += coords[3 * i] as number;
    cy += coords[3 * i + 1] as number;
    cz += coords[3 * i + 2] as number;
  }
  cx /= n;
  cy /= n;
  cz /= n;
  const d: number[] = [];
  let rg = 0;
  for (let i = 0; i < n; i++) {
    const x = (coords[3 * i] as number) - cx;
    const y = (coords[3 * i + 1] as number) - cy;
    const z = (coords[3 * i + 2] as number) - cz;
    const r = Math.sqrt(x * x + y * y + z * z);
    d.push(r);
    rg += r * r;
  }
  rg = Math.sqrt(rg / n) || 1;
  const p = new Float64Array(BINS);
  for (const r of d) {
    const bin = Math.min(BINS - 1, Math.floor((r / rg) * (BINS / 3)));
    p[bin] = (p[bin] ?? 0) + 1 / n;
  }
  return p;
}

const traces = perGeneration<Traces>();

/** Cα traces of every protein chain (first model, first alternate) and of every assembly. */
function tracesOf(s: SearchScope): Promise<Traces> {
  const n = s.archive;
  if (!n || !s.archiveTables) return Promise.resolve({ chains: new Map(), assemblies: new Map() });
  const data = s.archiveTables;
  return traces(s.db, n.sobj, async () => {
    const out: Traces = { chains: new Map(), assemblies: new Map() };
    const files = fileStoreOf(s.db);
    const entries = await s.db.query<{ entry_id: string; file_key: string }>(`SELECT entry_id, file_key FROM ${data.entries} ORDER BY entry_id`);
    const asmRows = await s.db.query<{ id: string; entry_id: string; doc: string }>(`SELECT rcsb_id AS id, entry_id, doc FROM ${data.parts} WHERE kind = 'assembly'`);
    for (const e of entries) {
      const gz = await files.get(e.file_key);
      if (!gz) continue;
      let block;
      try {
        block = await readBlock(gunzipSync(gz).toString('utf8'));
      } catch {
        continue;
      }
      const t = block.table('atom_site');
      const byChain = new Map<string, number[]>();
      const model = t.str('pdbx_PDB_model_num', 0);
      const seen = new Set<string>();
      for (let r = 0; r < t.rows; r++) {
        if (t.str('label_atom_id', r) !== 'CA' || t.str('group_PDB', r) !== 'ATOM') continue;
        if (model !== undefined && t.str('pdbx_PDB_model_num', r) !== model) continue;
        const asym = t.str('label_asym_id', r) ?? '';
        const key = `${asym}:${t.str('label_seq_id', r)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const x = t.num('Cartn_x', r);
        const y = t.num('Cartn_y', r);
        const z = t.num('Cartn_z', r);
        if (x === undefined || y === undefined || z === undefined) continue;
        let list = byChain.get(asym);
        if (!list) byChain.set(asym, (list = []));
        list.push(x, y, z);
      }
      for (const [asym, list] of byChain) {
        if (list.length < 3 * 5) continue;
        const coords = Float64Array.from(list);
        const id = `${e.entry_id}.${asym}`;
        out.chains.set(id, { id, coords, profile: profileOf(coords) });
      }
      // An assembly as the chains it lists, in their deposited positions (operators not applied).
      for (const a of asmRows.filter((x) => x.entry_id === e.entry_id)) {
        const doc = JSON.parse(a.doc) as { pdbx_struct_assembly_gen?: { asym_id_list?: string }[] };
        const asyms = new Set((doc.pdbx_struct_assembly_gen ?? []).flatMap((g) => String(g.asym_id_list ?? '').split(',')));
        const list: number[] = [];
        for (const asym of asyms) list.push(...(byChain.get(asym) ?? []));
        if (list.length < 3 * 5) continue;
        const coords = Float64Array.from(list);
        out.assemblies.set(a.id, { id: a.id, coords, profile: profileOf(coords) });
      }
    }
    return out;
  });
}

function pdbText(t: Trace): string {
  const lines: string[] = [];
  const n = t.coords.length / 3;
  const f = (v: number) => v.toFixed(3).padStart(8);
  for (let i = 0; i < n; i++) {
    const serial = String(i + 1).padStart(5);
    const res = String((i % 9999) + 1).padStart(4);
    lines.push(`ATOM  ${serial}  CA  ALA A${res}    ${f(t.coords[3 * i] as number)}${f(t.coords[3 * i + 1] as number)}${f(t.coords[3 * i + 2] as number)}  1.00  0.00           C`);
  }
  return `${lines.join('\n')}\nEND\n`;
}

/** TM-scores of an alignment: normalised by the query's length, and by the target's. */
function tmalign(dir: string, a: string, b: string, budgetMs: number): Promise<[number, number]> {
  return new Promise((resolve, reject) => {
    const child = spawn(TMALIGN, [a, b], { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      if (out.length < 1_000_000) out += d.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(engineUnavailable(`A structural alignment ran past its time limit (${budgetMs} ms)`));
    }, budgetMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(engineUnavailable(`TM-align could not start: ${e.message}`));
    });
    child.on('close', () => {
      clearTimeout(timer);
      const s = [...out.matchAll(/TM-score= ([0-9.]+)/g)].map((m) => Number(m[1]));
      if (s.length < 2) reject(new Error('TM-align gave no score'));
      else resolve([s[0] as number, s[1] as number]);
    });
  });
}

export async function structureTerminal(t: Terminal, rt: ReturnType, s: SearchScope): Promise<TerminalResult> {
  const p = t.parameters;
  const v = p.value as Record<string, unknown>;
  if ('url' in v || 'data' in v) throw bad('Structure queries by file (url or data) are not served here: query by entry_id with asym_id or assembly_id');
  if (!tmalignAvailable()) throw engineUnavailable('Structure similarity search is not available on this server: the TM-align program (TMalign) is not installed');
  const all = await tracesOf(s);
  const entry = String(v.entry_id).toUpperCase();
  const byAssembly = v.assembly_id !== undefined;
  const qid = byAssembly ? `${entry}-${String(v.assembly_id)}` : `${entry}.${String(v.asym_id)}`;
  const space = p.target_search_space === 'polymer_entity_instance' ? 'chains' : p.target_search_space === 'assembly' ? 'assemblies' : byAssembly ? 'assemblies' : 'chains';
  const query = (byAssembly ? all.assemblies : all.chains).get(qid);
  if (!query) throw bad(`No loaded protein ${byAssembly ? 'assembly' : 'chain'} ${qid} to search with`);
  const pool = space === 'assemblies' ? all.assemblies : all.chains;
  const cutoff = typeof p.ptmscore_cutoff === 'number' ? p.ptmscore_cutoff : 0.8;
  const wanted = Math.min(typeof p.number_of_candidates === 'number' ? p.number_of_candidates : 10_000, MAX_ALIGNED);
  const global = p.similarity_type === 'global';
  // Prefilter: length within a factor of two (TM-score falls with the length ratio), then the
  // closest distance profiles.
  const ql = query.coords.length / 3;
  const candidates = [...pool.values()]
    .filter((c) => {
      const l = c.coords.length / 3;
      return l >= ql / 2 && l <= ql * 2;
    })
    .map((c) => ({ c, d: c.profile.reduce((acc, x, i) => acc + Math.abs(x - (query.profile[i] as number)), 0) }))
    .sort((a, b) => a.d - b.d)
    .slice(0, wanted);
  const scores = new Map<string, number>();
  const contexts = new Map<string, Record<string, unknown>[]>();
  const dir = await mkdtemp(join(tmpdir(), 'biomirror-tm-'));
  const deadline = Date.now() + structureBudget.totalMs;
  try {
    await writeFile(join(dir, 'q.pdb'), pdbText(query));
    for (const [i, { c }] of candidates.entries()) {
      const left = deadline - Date.now();
      if (left <= 0) throw engineUnavailable(`The structure search ran past its time limit (${structureBudget.totalMs} ms)`);
      await writeFile(join(dir, `t${i}.pdb`), pdbText(c));
      const [byQuery, byTarget] = await tmalign(dir, 'q.pdb', `t${i}.pdb`, Math.min(left, structureBudget.alignMs));
      // local: the better of the two normalisations; global: by the longer structure.
      const tm = global ? Math.min(byQuery, byTarget) : Math.max(byQuery, byTarget);
      if (tm < cutoff) continue;
      scores.set(c.id, tm);
      contexts.set(c.id, [{ tmscore: Math.round(tm * 1e4) / 1e4 }]);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return mapIds(s, space === 'assemblies' ? 'assembly' : 'polymer_instance', { scores, contexts }, rt);
}
