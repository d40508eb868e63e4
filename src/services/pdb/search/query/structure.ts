/**
 * `structure`: shape similarity of a chain or an assembly to the loaded ones, ranked by TM-score
 * from a real structural alignment (TM-align, in a child process per candidate with a time
 * budget). A prefilter keeps the alignment off most of the archive: candidates are the chains (or
 * assemblies) of compatible length whose Cα distance profile is closest to the query's; only
 * those are aligned. The prefilter and the traces are the structure index built by the archive
 * load (structure-index.ts). The query is a loaded chain or assembly, or a file (`url`, `data`).
 *
 * The live service now ranks by learned embeddings; TM-score is what those embeddings are trained
 * to predict, so `tmscore` is reported, and `ptmscore_cutoff` filters on it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { killOwned, spawnOwned } from '../../../../core/children.js';
import type { SearchScope, TerminalResult } from './engine.js';
import { mapIds } from './engine.js';
import { coordIndexes } from '../build/engine-indexes.js';
import { badQuery, engineUnavailable } from '../../errors.js';
import { queryResidues } from './query-file.js';
import type { ReturnType, Terminal } from './request.js';
import { BINS, assemblyTrace, caTraces, profileOf, tracesOf, type StructureIndex } from '../build/structure-index.js';

/** The program, read when called (BIOMIRROR_TMALIGN names another). */
const tmalignProgram = () => process.env.BIOMIRROR_TMALIGN || 'TMalign';
/** Time for one alignment, and for the whole query. */
export const structureBudget = { alignMs: 20_000, totalMs: Number(process.env.BIOMIRROR_PDB_STRUCTURE_TIMEOUT_MS ?? 60_000) };
/** Candidates aligned at most, whatever number_of_candidates asks (the prefilter ranks the rest out). */
const MAX_ALIGNED = 200;
/** Alignments run at once. */
const PARALLEL = Math.max(1, Math.min(4, availableParallelism()));

const found = new Map<string, boolean>();
export function tmalignAvailable(): boolean {
  const p = tmalignProgram();
  let ok = found.get(p);
  if (ok === undefined) found.set(p, (ok = spawnSync(p, ['-h'], { stdio: 'ignore', timeout: 10_000 }).error === undefined));
  return ok;
}
export function tmalignState(): { state: string } {
  return { state: tmalignAvailable() ? 'ok' : 'unavailable' };
}

function pdbText(coords: Float32Array): string {
  const lines: string[] = [];
  const n = coords.length / 3;
  const f = (v: number) => v.toFixed(3).padStart(8);
  for (let i = 0; i < n; i++) {
    const serial = String(i + 1).padStart(5);
    const res = String((i % 9999) + 1).padStart(4);
    lines.push(`ATOM  ${serial}  CA  ALA A${res}    ${f(coords[3 * i] as number)}${f(coords[3 * i + 1] as number)}${f(coords[3 * i + 2] as number)}  1.00  0.00           C`);
  }
  return `${lines.join('\n')}\nEND\n`;
}

/** TM-scores of an alignment: normalised by the query's length, and by the target's. */
function tmalign(dir: string, a: string, b: string, budgetMs: number): Promise<[number, number]> {
  return new Promise((resolve, reject) => {
    const child = spawnOwned(tmalignProgram(), [a, b], { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      if (out.length < 1_000_000) out += d.toString();
    });
    const timer = setTimeout(() => {
      killOwned(child);
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

/** The query's Cα trace: a loaded chain or assembly, or one of a file. */
async function queryTrace(s: SearchScope, v: Record<string, unknown>, idx: StructureIndex | undefined): Promise<Float32Array> {
  if ('url' in v || 'data' in v) {
    const file = await queryResidues(s, v);
    const chains = caTraces(file);
    if (typeof v.assembly_id === 'string') {
      const asm = file.assemblies.find((a) => a.id === v.assembly_id);
      const t = asm && assemblyTrace(chains, asm.asyms);
      if (!t) throw badQuery(`The structure file has no assembly ${v.assembly_id} with protein chains`);
      return t;
    }
    // Without asym_id, the file's first protein chain.
    const t = typeof v.asym_id === 'string' ? chains.get(v.asym_id) : chains.values().next().value;
    if (!t) throw badQuery(typeof v.asym_id === 'string' ? `The structure file has no protein chain ${v.asym_id}` : 'The structure file has no protein chain');
    return t;
  }
  const entry = String(v.entry_id).toUpperCase();
  const qid = v.assembly_id !== undefined ? `${entry}-${String(v.assembly_id)}` : `${entry}.${String(v.asym_id)}`;
  const i = idx?.byId.get(qid);
  if (!idx || i === undefined) throw badQuery(`No loaded protein ${v.assembly_id !== undefined ? 'assembly' : 'chain'} ${qid} to search with`);
  return (await tracesOf(idx, [i]))[0] as Float32Array;
}

/** The prefilter: of the given kind, length within a factor of two (TM-score falls with the length ratio), then the closest profiles. */
export function candidates(idx: StructureIndex, query: Float32Array, assemblies: boolean, wanted: number): number[] {
  const ql = query.length / 3;
  const qp = profileOf(query);
  const scored: { i: number; d: number }[] = [];
  for (let i = 0; i < idx.ids.length; i++) {
    if ((idx.assembly[i] === 1) !== assemblies) continue;
    const l = idx.length[i] as number;
    if (l < ql / 2 || l > ql * 2) continue;
    let d = 0;
    for (let b = 0; b < BINS; b++) d += Math.abs((idx.profile[i * BINS + b] as number) - (qp[b] as number));
    scored.push({ i, d });
  }
  return scored
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .slice(0, wanted)
    .map((x) => x.i);
}

export async function structureTerminal(t: Terminal, rt: ReturnType, s: SearchScope): Promise<TerminalResult> {
  const p = t.parameters;
  const v = p.value as Record<string, unknown>;
  if (!tmalignAvailable()) throw engineUnavailable('Structure similarity search is not available on this server: the TM-align program (TMalign) is not installed');
  const idx = (await coordIndexes(s))?.structures;
  const query = await queryTrace(s, v, idx);
  const byAssembly = v.assembly_id !== undefined;
  const space = p.target_search_space === 'polymer_entity_instance' ? 'chains' : p.target_search_space === 'assembly' ? 'assemblies' : byAssembly ? 'assemblies' : 'chains';
  const scores = new Map<string, number>();
  const contexts = new Map<string, Record<string, unknown>[]>();
  if (!idx) return { scores };
  const cutoff = typeof p.ptmscore_cutoff === 'number' ? p.ptmscore_cutoff : 0.8;
  const wanted = Math.min(typeof p.number_of_candidates === 'number' ? p.number_of_candidates : 10_000, MAX_ALIGNED);
  const global = p.similarity_type === 'global';
  const list = candidates(idx, query, space === 'assemblies', wanted);
  const traces = await tracesOf(idx, list);
  const dir = await mkdtemp(join(tmpdir(), 'biomirror-tm-'));
  const deadline = Date.now() + structureBudget.totalMs;
  try {
    await writeFile(join(dir, 'q.pdb'), pdbText(query));
    let next = 0;
    const worker = async () => {
      while (next < list.length) {
        const k = next++;
        const left = deadline - Date.now();
        if (left <= 0) throw engineUnavailable(`The structure search ran past its time limit (${structureBudget.totalMs} ms)`);
        await writeFile(join(dir, `t${k}.pdb`), pdbText(traces[k] as Float32Array));
        const [byQuery, byTarget] = await tmalign(dir, 'q.pdb', `t${k}.pdb`, Math.min(left, structureBudget.alignMs));
        // local: the better of the two normalisations; global: by the longer structure.
        const tm = global ? Math.min(byQuery, byTarget) : Math.max(byQuery, byTarget);
        if (tm < cutoff) continue;
        const id = idx.ids[list[k] as number] as string;
        scores.set(id, tm);
        contexts.set(id, [{ tmscore: Math.round(tm * 1e4) / 1e4 }]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, list.length) }, worker));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return mapIds(s, space === 'assemblies' ? 'assembly' : 'polymer_instance', { scores, contexts }, rt);
}
